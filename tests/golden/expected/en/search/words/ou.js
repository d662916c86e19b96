window.IncidentLibraryData=window.IncidentLibraryData||{};(window.IncidentLibraryData.words=window.IncidentLibraryData.words||{})["ou"]={"words":["outage"],"postings":[[0,1]],"shown":{}};
