window.IncidentLibraryData=window.IncidentLibraryData||{};(window.IncidentLibraryData.words=window.IncidentLibraryData.words||{})["번"]={"words":["번인"],"postings":[[1]],"shown":{}};
