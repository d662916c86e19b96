window.IncidentLibraryData=window.IncidentLibraryData||{};window.IncidentLibraryData.ids=["globex-etcd-outage","acme-gpu-outage","acme-fabric-flaps"];
