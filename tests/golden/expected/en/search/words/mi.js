window.IncidentLibraryData=window.IncidentLibraryData||{};(window.IncidentLibraryData.words=window.IncidentLibraryData.words||{})["mi"]={"words":["miss"],"postings":[[0]],"shown":{"miss":"missing"}};
