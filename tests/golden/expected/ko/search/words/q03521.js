window.IncidentLibraryData=window.IncidentLibraryData||{};(window.IncidentLibraryData.words=window.IncidentLibraryData.words||{})["링"]={"words":["링크"],"postings":[[2]],"shown":{}};
