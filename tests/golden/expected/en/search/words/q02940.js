window.IncidentLibraryData=window.IncidentLibraryData||{};(window.IncidentLibraryData.words=window.IncidentLibraryData.words||{})["라"]={"words":["라이버"],"postings":[[1,2]],"shown":{}};
