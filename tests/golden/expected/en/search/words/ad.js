window.IncidentLibraryData=window.IncidentLibraryData||{};(window.IncidentLibraryData.words=window.IncidentLibraryData.words||{})["ad"]={"words":["add"],"postings":[[0,1]],"shown":{"add":"added"}};
