window.IncidentLibraryData=window.IncidentLibraryData||{};(window.IncidentLibraryData.words=window.IncidentLibraryData.words||{})["ai"]={"words":["ai"],"postings":[[1,2]],"shown":{}};
