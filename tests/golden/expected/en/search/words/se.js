window.IncidentLibraryData=window.IncidentLibraryData||{};(window.IncidentLibraryData.words=window.IncidentLibraryData.words||{})["se"]={"words":["service"],"postings":[[0]],"shown":{}};
