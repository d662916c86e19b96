window.IncidentLibraryData=window.IncidentLibraryData||{};(window.IncidentLibraryData.words=window.IncidentLibraryData.words||{})["lo"]={"words":["los"],"postings":[[0]],"shown":{"los":"loses"}};
