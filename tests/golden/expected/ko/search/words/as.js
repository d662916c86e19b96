window.IncidentLibraryData=window.IncidentLibraryData||{};(window.IncidentLibraryData.words=window.IncidentLibraryData.words||{})["as"]={"words":["assumption"],"postings":[[1]],"shown":{}};
