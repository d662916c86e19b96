window.IncidentLibraryData=window.IncidentLibraryData||{};(window.IncidentLibraryData.words=window.IncidentLibraryData.words||{})["고"]={"words":["고장"],"postings":[[1,2]],"shown":{}};
