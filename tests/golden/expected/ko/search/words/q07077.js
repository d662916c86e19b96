window.IncidentLibraryData=window.IncidentLibraryData||{};(window.IncidentLibraryData.words=window.IncidentLibraryData.words||{})["장"]={"words":["장치"],"postings":[[0]],"shown":{}};
