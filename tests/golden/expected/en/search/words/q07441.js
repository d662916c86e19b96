window.IncidentLibraryData=window.IncidentLibraryData||{};(window.IncidentLibraryData.words=window.IncidentLibraryData.words||{})["중"]={"words":["중단"],"postings":[[0]],"shown":{}};
