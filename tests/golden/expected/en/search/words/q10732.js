window.IncidentLibraryData=window.IncidentLibraryData||{};(window.IncidentLibraryData.words=window.IncidentLibraryData.words||{})["헬"]={"words":["헬스"],"postings":[[1,2]],"shown":{}};
