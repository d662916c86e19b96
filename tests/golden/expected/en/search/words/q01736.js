window.IncidentLibraryData=window.IncidentLibraryData||{};(window.IncidentLibraryData.words=window.IncidentLibraryData.words||{})["니"]={"words":["니다"],"postings":[[1,2]],"shown":{}};
