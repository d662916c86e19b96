window.IncidentLibraryData=window.IncidentLibraryData||{};(window.IncidentLibraryData.words=window.IncidentLibraryData.words||{})["인"]={"words":["인프라","인합니다"],"postings":[[1,2],[1,2]],"shown":{}};
