window.IncidentLibraryData=window.IncidentLibraryData||{};(window.IncidentLibraryData.words=window.IncidentLibraryData.words||{})["et"]={"words":["etcd"],"postings":[[0]],"shown":{}};
