window.IncidentLibraryData=window.IncidentLibraryData||{};(window.IncidentLibraryData.words=window.IncidentLibraryData.words||{})["ha"]={"words":["hardware"],"postings":[[2]],"shown":{}};
