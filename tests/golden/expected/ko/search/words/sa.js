window.IncidentLibraryData=window.IncidentLibraryData||{};(window.IncidentLibraryData.words=window.IncidentLibraryData.words||{})["sa"]={"words":["safeguard"],"postings":[[0]],"shown":{}};
