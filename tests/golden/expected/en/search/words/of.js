window.IncidentLibraryData=window.IncidentLibraryData||{};(window.IncidentLibraryData.words=window.IncidentLibraryData.words||{})["of"]={"words":["off"],"postings":[[1]],"shown":{}};
