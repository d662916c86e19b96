window.IncidentLibraryData=window.IncidentLibraryData||{};(window.IncidentLibraryData.words=window.IncidentLibraryData.words||{})["췄"]={"words":["췄습니다"],"postings":[[1,2]],"shown":{}};
