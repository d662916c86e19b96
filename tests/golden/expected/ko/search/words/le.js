window.IncidentLibraryData=window.IncidentLibraryData||{};(window.IncidentLibraryData.words=window.IncidentLibraryData.words||{})["le"]={"words":["left"],"postings":[[0,1,2]],"shown":{}};
