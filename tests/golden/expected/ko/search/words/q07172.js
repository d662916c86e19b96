window.IncidentLibraryData=window.IncidentLibraryData||{};(window.IncidentLibraryData.words=window.IncidentLibraryData.words||{})["전"]={"words":["전장치"],"postings":[[0]],"shown":{}};
