window.IncidentLibraryData=window.IncidentLibraryData||{};(window.IncidentLibraryData.words=window.IncidentLibraryData.words||{})["he"]={"words":["health"],"postings":[[0,1,2]],"shown":{}};
