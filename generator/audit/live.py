"""The live cluster as resources: list requests only, through the official `kubernetes` client.

Every request is a GET of a collection (`list` in RBAC terms), a page at a time. Nothing is
created, changed or deleted, and Secrets are never read. `CLUSTER_ROLE` is the least a user
needs; `incidents audit --print-cluster-role` prints it from the same table the reader uses.
A resource the cluster does not serve (a custom resource that is not installed) is skipped; one
the user may not list is reported, and the audit goes on without it.
"""

from __future__ import annotations

import json
import os
from collections.abc import Callable, Iterator
from dataclasses import dataclass

from .manifests import Resource, resource

PAGE = 500


@dataclass(frozen=True)
class Listed:
    """A collection the audit lists: where it is served and what its objects are."""

    group: str  # "" for the core group
    version: str
    plural: str
    kind: str

    @property
    def path(self) -> str:
        base = f"/api/{self.version}" if not self.group else f"/apis/{self.group}/{self.version}"
        return f"{base}/{self.plural}"

    @property
    def api_version(self) -> str:
        return f"{self.group}/{self.version}" if self.group else self.version


# What the checks read, and nothing else.
LISTED: tuple[Listed, ...] = (
    Listed("", "v1", "pods", "Pod"),
    Listed("", "v1", "services", "Service"),
    Listed("", "v1", "configmaps", "ConfigMap"),
    Listed("", "v1", "nodes", "Node"),
    Listed("", "v1", "namespaces", "Namespace"),
    Listed("apps", "v1", "deployments", "Deployment"),
    Listed("apps", "v1", "statefulsets", "StatefulSet"),
    Listed("apps", "v1", "daemonsets", "DaemonSet"),
    Listed("apps", "v1", "replicasets", "ReplicaSet"),
    Listed("batch", "v1", "jobs", "Job"),
    Listed("batch", "v1", "cronjobs", "CronJob"),
    Listed("policy", "v1", "poddisruptionbudgets", "PodDisruptionBudget"),
    Listed("autoscaling", "v2", "horizontalpodautoscalers", "HorizontalPodAutoscaler"),
    Listed("admissionregistration.k8s.io", "v1", "validatingwebhookconfigurations",
           "ValidatingWebhookConfiguration"),
    Listed("admissionregistration.k8s.io", "v1", "mutatingwebhookconfigurations",
           "MutatingWebhookConfiguration"),
    Listed("rbac.authorization.k8s.io", "v1", "clusterroles", "ClusterRole"),
    Listed("rbac.authorization.k8s.io", "v1", "clusterrolebindings", "ClusterRoleBinding"),
    Listed("flowcontrol.apiserver.k8s.io", "v1", "flowschemas", "FlowSchema"),
    Listed("flowcontrol.apiserver.k8s.io", "v1", "prioritylevelconfigurations",
           "PriorityLevelConfiguration"),
    Listed("autoscaling.k8s.io", "v1", "verticalpodautoscalers", "VerticalPodAutoscaler"),
    Listed("keda.sh", "v1alpha1", "scaledobjects", "ScaledObject"),
    Listed("kubeflow.org", "v1", "pytorchjobs", "PyTorchJob"),
    Listed("kubeflow.org", "v1", "tfjobs", "TFJob"),
    Listed("kubeflow.org", "v1", "mpijobs", "MPIJob"),
    Listed("kubeflow.org", "v1", "paddlejobs", "PaddleJob"),
    Listed("kubeflow.org", "v1", "xgboostjobs", "XGBoostJob"),
    Listed("kubeflow.org", "v1", "jaxjobs", "JAXJob"),
    Listed("jobset.x-k8s.io", "v1alpha2", "jobsets", "JobSet"),
    Listed("trainer.kubeflow.org", "v1alpha1", "trainingruntimes", "TrainingRuntime"),
    Listed("trainer.kubeflow.org", "v1alpha1", "clustertrainingruntimes",
           "ClusterTrainingRuntime"),
    Listed("nvidia.com", "v1", "clusterpolicies", "ClusterPolicy"),
    Listed("crd.projectcalico.org", "v1", "bgppeers", "BGPPeer"),
    Listed("crd.projectcalico.org", "v1", "bgpconfigurations", "BGPConfiguration"),
    Listed("remediation.medik8s.io", "v1alpha1", "nodehealthchecks", "NodeHealthCheck"),
    Listed("cluster.x-k8s.io", "v1beta1", "machinehealthchecks", "MachineHealthCheck"),
)  # fmt: skip


def cluster_role(name: str = "incidents-audit") -> dict:
    """The least ClusterRole the live audit needs: `list` on each collection it reads."""
    groups: dict[str, list[str]] = {}
    for item in LISTED:
        groups.setdefault(item.group, []).append(item.plural)
    return {
        "apiVersion": "rbac.authorization.k8s.io/v1",
        "kind": "ClusterRole",
        "metadata": {"name": name},
        "rules": [
            {"apiGroups": [group], "resources": sorted(plurals), "verbs": ["list"]}
            for group, plurals in groups.items()
        ],
    }


class LiveError(Exception):
    """The cluster could not be reached or read at all (no kubeconfig, no server)."""


Get = Callable[[str, dict], tuple[int, dict]]  # (path, query) -> (HTTP status, JSON body)


@dataclass(frozen=True)
class LiveRead:
    resources: tuple[Resource, ...]
    skipped: tuple[str, ...]  # collections the cluster does not serve
    refused: tuple[str, ...]  # collections the user may not list, with the reason


def read_cluster(get: Get) -> LiveRead:
    """Every object of every listed collection, through `get` (see `kubernetes_get`)."""
    found: list[Resource] = []
    skipped: list[str] = []
    refused: list[str] = []
    for item in LISTED:
        try:
            found.extend(_list(get, item))
        except _NotServed:
            skipped.append(item.path)
        except _Refused as exc:
            refused.append(f"{item.path}: {exc}")
    return LiveRead(tuple(found), tuple(skipped), tuple(refused))


class _NotServed(Exception):
    pass


class _Refused(Exception):
    pass


def _list(get: Get, item: Listed) -> Iterator[Resource]:
    token = ""
    while True:
        query = {"limit": str(PAGE)} | ({"continue": token} if token else {})
        status, body = get(item.path, query)
        if status == 404:
            raise _NotServed()
        if status in (401, 403):
            raise _Refused(str(body.get("message") or f"HTTP {status}"))
        if status != 200:
            raise _Refused(f"HTTP {status}: {body.get('message') or ''}".strip())
        for obj in body.get("items") or []:
            if isinstance(obj, dict):
                # A list's items leave out their own kind and apiVersion.
                obj.setdefault("kind", item.kind)
                obj.setdefault("apiVersion", item.api_version)
                yield resource(obj)
        token = str((body.get("metadata") or {}).get("continue") or "")
        if not token:
            return


def kubernetes_get(context: str | None = None) -> Get:
    """A `Get` through the official client, with the user's kubeconfig (or the pod's service
    account inside a cluster)."""
    from kubernetes import client, config
    from kubernetes.client.exceptions import ApiException
    from kubernetes.config.config_exception import ConfigException

    # A configuration of its own, read now: the client's default one is global, and its
    # default kubeconfig path is read from KUBECONFIG once, when it is imported.
    configuration = client.Configuration()
    kubeconfig = os.environ.get("KUBECONFIG") or "~/.kube/config"
    try:
        config.load_kube_config(kubeconfig, context, client_configuration=configuration)
    except (ConfigException, OSError, TypeError) as kube_error:
        try:
            config.load_incluster_config(client_configuration=configuration)
        except ConfigException:
            raise LiveError(f"no usable kubeconfig: {kube_error}") from None
    api = client.ApiClient(configuration)

    def get(path: str, query: dict) -> tuple[int, dict]:
        request = api.param_serialize(
            method="GET",
            resource_path=path,
            query_params=list(query.items()),
            header_params={"Accept": "application/json"},
            auth_settings=["BearerToken"],
        )
        try:
            response = api.call_api(*request, _request_timeout=60)
        except ApiException as exc:
            return exc.status or 0, _json(exc.body)
        except Exception as exc:  # urllib3 connection errors and the like
            raise LiveError(f"cannot reach the cluster: {exc}") from None
        return response.status, _json(response.read())

    return get


def _json(raw: object) -> dict:
    try:
        data = json.loads(raw) if raw else {}
    except (TypeError, ValueError):
        return {}
    return data if isinstance(data, dict) else {}
