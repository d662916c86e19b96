window.IncidentLibraryData=window.IncidentLibraryData||{};(window.IncidentLibraryData.words=window.IncidentLibraryData.words||{})["로"]={"words":["로벡스"],"postings":[[0]],"shown":{}};
