window.IncidentLibraryData=window.IncidentLibraryData||{};(window.IncidentLibraryData.words=window.IncidentLibraryData.words||{})["스"]={"words":["스트를"],"postings":[[1,2]],"shown":{}};
