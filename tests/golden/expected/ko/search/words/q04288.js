window.IncidentLibraryData=window.IncidentLibraryData||{};(window.IncidentLibraryData.words=window.IncidentLibraryData.words||{})["변"]={"words":["변경"],"postings":[[0]],"shown":{}};
