window.IncidentLibraryData=window.IncidentLibraryData||{};(window.IncidentLibraryData.words=window.IncidentLibraryData.words||{})["학"]={"words":["학습"],"postings":[[1,2]],"shown":{}};
