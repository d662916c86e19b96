window.IncidentLibraryData=window.IncidentLibraryData||{};(window.IncidentLibraryData.words=window.IncidentLibraryData.words||{})["웨"]={"words":["웨어"],"postings":[[2]],"shown":{}};
