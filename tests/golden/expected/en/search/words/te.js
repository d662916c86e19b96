window.IncidentLibraryData=window.IncidentLibraryData||{};(window.IncidentLibraryData.words=window.IncidentLibraryData.words||{})["te"]={"words":["test"],"postings":[[0,1]],"shown":{}};
