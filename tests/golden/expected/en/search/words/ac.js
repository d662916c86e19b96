window.IncidentLibraryData=window.IncidentLibraryData||{};(window.IncidentLibraryData.words=window.IncidentLibraryData.words||{})["ac"]={"words":["acme"],"postings":[[1,2]],"shown":{}};
