window.IncidentLibraryData=window.IncidentLibraryData||{};(window.IncidentLibraryData.words=window.IncidentLibraryData.words||{})["모"]={"words":["모든"],"postings":[[1,2]],"shown":{}};
