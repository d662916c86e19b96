window.IncidentLibraryData=window.IncidentLibraryData||{};(window.IncidentLibraryData.words=window.IncidentLibraryData.words||{})["데"]={"words":["데이트","데이트로"],"postings":[[1,2],[1,2]],"shown":{}};
