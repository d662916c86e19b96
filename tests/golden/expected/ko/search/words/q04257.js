window.IncidentLibraryData=window.IncidentLibraryData||{};(window.IncidentLibraryData.words=window.IncidentLibraryData.words||{})["벡"]={"words":["벡스"],"postings":[[0]],"shown":{}};
