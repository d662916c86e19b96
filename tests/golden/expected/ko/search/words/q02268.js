window.IncidentLibraryData=window.IncidentLibraryData||{};(window.IncidentLibraryData.words=window.IncidentLibraryData.words||{})["드"]={"words":["드라이버","드웨어"],"postings":[[1,2],[2]],"shown":{}};
