window.IncidentLibraryData=window.IncidentLibraryData||{};(window.IncidentLibraryData.words=window.IncidentLibraryData.words||{})["gp"]={"words":["gpu"],"postings":[[0,1,2]],"shown":{"gpu":"gpus"}};
