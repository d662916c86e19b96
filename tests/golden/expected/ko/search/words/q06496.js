window.IncidentLibraryData=window.IncidentLibraryData||{};(window.IncidentLibraryData.words=window.IncidentLibraryData.words||{})["애"]={"words":["애크미"],"postings":[[1,2]],"shown":{}};
