window.IncidentLibraryData=window.IncidentLibraryData||{};(window.IncidentLibraryData.words=window.IncidentLibraryData.words||{})["쓰"]={"words":["쓰게"],"postings":[[1,2]],"shown":{}};
