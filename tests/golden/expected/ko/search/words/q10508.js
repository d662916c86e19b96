window.IncidentLibraryData=window.IncidentLibraryData||{};(window.IncidentLibraryData.words=window.IncidentLibraryData.words||{})["플"]={"words":["플래핑"],"postings":[[2]],"shown":{}};
