window.IncidentLibraryData=window.IncidentLibraryData||{};(window.IncidentLibraryData.words=window.IncidentLibraryData.words||{})["qu"]={"words":["quorum"],"postings":[[0]],"shown":{}};
