window.IncidentLibraryData=window.IncidentLibraryData||{};(window.IncidentLibraryData.words=window.IncidentLibraryData.words||{})["fl"]={"words":["flap"],"postings":[[2]],"shown":{"flap":"flaps"}};
