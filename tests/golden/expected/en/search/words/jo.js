window.IncidentLibraryData=window.IncidentLibraryData||{};(window.IncidentLibraryData.words=window.IncidentLibraryData.words||{})["jo"]={"words":["job"],"postings":[[0,1,2]],"shown":{"job":"jobs"}};
