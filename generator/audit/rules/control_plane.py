"""The control plane and the kubelet's own settings: etcd's space quota, how fast a kubelet may
talk to the API server and pull images, and who API Priority and Fairness lets past its limits."""

from __future__ import annotations

import re
from collections.abc import Iterator

from ..cluster import Cluster, dig
from . import Hit, hit, rule

KUBELET_CONFIG = "KubeletConfiguration"
# The rate the library's case settled on (and the kubelet's default since Kubernetes 1.27).
KUBELET_QPS = 50
_QPS_FLAG = re.compile(r"^--kube-api-qps=(\d+)$")


@rule("kubelet-api-qps-low")
def kubelet_api_qps(cluster: Cluster) -> Iterator[Hit]:
    for item in cluster.of(KUBELET_CONFIG):
        value = item.body.get("kubeAPIQPS")
        if isinstance(value, int | float) and value < KUBELET_QPS:
            yield hit(item, ("kubeAPIQPS",), qps=value)
    for template in cluster.pod_templates:
        for path, container in template.containers():
            words = [
                str(w) for w in (container.get("command") or []) + (container.get("args") or [])
            ]
            for word in words:
                found = _QPS_FLAG.match(word)
                if found and int(found.group(1)) < KUBELET_QPS:
                    yield hit(template.owner, path, qps=found.group(1))


@rule("kubelet-serial-image-pulls")
def serial_image_pulls(cluster: Cluster) -> Iterator[Hit]:
    for item in cluster.of(KUBELET_CONFIG):
        if item.body.get("serializeImagePulls") is not False:
            path = ("serializeImagePulls",) if "serializeImagePulls" in item.body else ()
            yield hit(item, path)


def _runs_etcd(container: dict) -> bool:
    command = [str(w) for w in container.get("command") or []]
    return bool(command) and command[0].rsplit("/", 1)[-1] == "etcd"


def _control_plane(template) -> bool:
    """The etcd behind the Kubernetes API: in kube-system (kubeadm's static pod) or labelled as
    the control plane's, not an application's own etcd (a rendezvous store, a cache)."""
    labels = {**template.owner.labels, **template.labels}
    return template.owner.namespace == "kube-system" or labels.get("tier") == "control-plane"


@rule("etcd-default-space-quota")
def etcd_quota(cluster: Cluster) -> Iterator[Hit]:
    for template in cluster.pod_templates:
        if not _control_plane(template):
            continue
        for path, container in template.containers():
            if not _runs_etcd(container):
                continue
            words = [
                str(w) for w in (container.get("command") or []) + (container.get("args") or [])
            ]
            if any(w.startswith(("--quota-backend-bytes", "--config-file")) for w in words):
                continue
            if any(
                isinstance(e, dict) and e.get("name") == "ETCD_QUOTA_BACKEND_BYTES"
                for e in container.get("env") or []
            ):
                continue
            yield hit(template.owner, path, workload=template.owner.ref)


# Subjects that stand for everyone, or for every workload: exempting them from API Priority
# and Fairness removes the API server's protection against its own clients.
BROAD_GROUPS = frozenset(
    {"system:authenticated", "system:unauthenticated", "system:serviceaccounts"}
)


def _broad(subject: object) -> str:
    if not isinstance(subject, dict):
        return ""
    kind = subject.get("kind")
    if kind == "Group":
        name = str(dig(subject, "group", "name") or "")
        if name in BROAD_GROUPS or name.startswith("system:serviceaccounts:"):
            return name
    if kind == "ServiceAccount" and dig(subject, "serviceAccount", "name") == "*":
        return f"serviceaccount {dig(subject, 'serviceAccount', 'namespace')}/*"
    if kind == "User" and dig(subject, "user", "name") == "*":
        return "user *"
    return ""


@rule("apf-exempts-broad-subjects")
def apf_exempt(cluster: Cluster) -> Iterator[Hit]:
    exempt = {"exempt"} | {
        p.name
        for p in cluster.of("PriorityLevelConfiguration")
        if dig(p.body, "spec", "type") == "Exempt"
    }
    for item in cluster.of("FlowSchema"):
        level = dig(item.body, "spec", "priorityLevelConfiguration", "name")
        if level not in exempt or item.name == "exempt":
            continue
        rules = dig(item.body, "spec", "rules")
        for n, entry in enumerate(rules if isinstance(rules, list) else []):
            subjects = entry.get("subjects") if isinstance(entry, dict) else None
            for m, subject in enumerate(subjects if isinstance(subjects, list) else []):
                who = _broad(subject)
                if who:
                    path = ("spec", "rules", n, "subjects", m)
                    yield hit(item, path, flowschema=item.name, subjects=who, level=level)
