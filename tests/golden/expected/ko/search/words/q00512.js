window.IncidentLibraryData=window.IncidentLibraryData||{};(window.IncidentLibraryData.words=window.IncidentLibraryData.words||{})["글"]={"words":["글로벡스"],"postings":[[0]],"shown":{}};
