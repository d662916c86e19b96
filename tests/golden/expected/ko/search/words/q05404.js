window.IncidentLibraryData=window.IncidentLibraryData||{};(window.IncidentLibraryData.words=window.IncidentLibraryData.words||{})["서"]={"words":["서비스"],"postings":[[0]],"shown":{}};
