window.IncidentLibraryData=window.IncidentLibraryData||{};(window.IncidentLibraryData.words=window.IncidentLibraryData.words||{})["안"]={"words":["안전장치"],"postings":[[0]],"shown":{}};
