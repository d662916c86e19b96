window.IncidentLibraryData=window.IncidentLibraryData||{};(window.IncidentLibraryData.words=window.IncidentLibraryData.words||{})["부"]={"words":["부재"],"postings":[[0]],"shown":{}};
