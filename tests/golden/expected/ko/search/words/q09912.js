window.IncidentLibraryData=window.IncidentLibraryData||{};(window.IncidentLibraryData.words=window.IncidentLibraryData.words||{})["트"]={"words":["트로","트를"],"postings":[[1,2],[1,2]],"shown":{}};
