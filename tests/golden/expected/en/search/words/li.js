window.IncidentLibraryData=window.IncidentLibraryData||{};(window.IncidentLibraryData.words=window.IncidentLibraryData.words||{})["li"]={"words":["link"],"postings":[[2]],"shown":{"link":"links"}};
