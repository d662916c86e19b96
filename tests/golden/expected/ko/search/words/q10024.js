window.IncidentLibraryData=window.IncidentLibraryData||{};(window.IncidentLibraryData.words=window.IncidentLibraryData.words||{})["패"]={"words":["패브릭","패했습니다"],"postings":[[1,2],[1,2]],"shown":{}};
