window.IncidentLibraryData=window.IncidentLibraryData||{};(window.IncidentLibraryData.words=window.IncidentLibraryData.words||{})["하"]={"words":["하드웨어"],"postings":[[2]],"shown":{}};
