window.IncidentLibraryData=window.IncidentLibraryData||{};(window.IncidentLibraryData.words=window.IncidentLibraryData.words||{})["bu"]={"words":["burn","bus"],"postings":[[0,1],[1]],"shown":{}};
