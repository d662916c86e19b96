window.IncidentLibraryData=window.IncidentLibraryData||{};(window.IncidentLibraryData.words=window.IncidentLibraryData.words||{})["가"]={"words":["가정"],"postings":[[1]],"shown":{}};
