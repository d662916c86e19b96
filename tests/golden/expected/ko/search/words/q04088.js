window.IncidentLibraryData=window.IncidentLibraryData||{};(window.IncidentLibraryData.words=window.IncidentLibraryData.words||{})["미"]={"words":["미검증"],"postings":[[1]],"shown":{}};
