window.IncidentLibraryData=window.IncidentLibraryData||{};(window.IncidentLibraryData.words=window.IncidentLibraryData.words||{})["gl"]={"words":["globex"],"postings":[[0]],"shown":{}};
