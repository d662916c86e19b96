"""Workloads: how their images are pulled, what they ask of a node, and what node agents ask of
the API server."""

from __future__ import annotations

import re
from collections.abc import Iterator

from ..cluster import Cluster, dig, same_namespace
from ..manifests import Resource
from . import Hit, hit, rule

# An image reference: registry and repository in lower case, then a tag or a digest.
IMAGE = re.compile(r"^[a-z0-9][a-z0-9._/:-]*(?::[\w][\w.-]{0,127})?(?:@[a-z0-9]+:[0-9a-f]+)?$")


def pull_policy(container: dict) -> tuple[str, bool]:
    """(the effective imagePullPolicy, whether it is written out): unset, it is Always for an
    image tagged `latest` or not tagged, IfNotPresent otherwise."""
    image = str(container.get("image") or "")
    if not IMAGE.match(image):
        return "", False  # a placeholder a template or operator fills in, not an image
    written = container.get("imagePullPolicy")
    if written:
        return str(written), True
    if "@" in image:
        return "IfNotPresent", False
    name = image.rsplit("/", 1)[-1]
    tag = name.partition(":")[2]
    return ("Always" if tag in ("", "latest") else "IfNotPresent"), False


@rule("image-pull-always")
def image_pull_always(cluster: Cluster) -> Iterator[Hit]:
    for template in cluster.pod_templates:
        for path, container in template.containers(init=True):
            policy, written = pull_policy(container)
            if policy == "Always" and container.get("image"):
                where = (*path, "imagePullPolicy") if written else (*path, "image")
                yield hit(
                    template.owner,
                    where,
                    container=container.get("name", ""),
                    image=container.get("image"),
                )


def _limits(container: dict) -> dict:
    limits = dig(container, "resources", "limits")
    return limits if isinstance(limits, dict) else {}


@rule("job-without-limits")
def job_without_limits(cluster: Cluster) -> Iterator[Hit]:
    for template in cluster.pod_templates:
        if template.owner.kind not in ("Job", "CronJob"):
            continue
        for path, container in template.containers():
            missing = [r for r in ("cpu", "memory") if r not in _limits(container)]
            if missing:
                yield hit(
                    template.owner,
                    path,
                    workload=template.owner.ref,
                    container=container.get("name", ""),
                    missing=", ".join(missing),
                )


@rule("cpu-request-missing")
def cpu_request_missing(cluster: Cluster) -> Iterator[Hit]:
    for template in cluster.pod_templates:
        if template.owner.kind not in ("Deployment", "StatefulSet", "DaemonSet", "ReplicaSet"):
            continue
        for path, container in template.containers():
            requests = dig(container, "resources", "requests")
            if not (isinstance(requests, dict) and "cpu" in requests) and "cpu" not in _limits(
                container
            ):
                yield hit(
                    template.owner,
                    path,
                    workload=template.owner.ref,
                    container=container.get("name", ""),
                )


# What an agent on every node watches across the whole cluster: each node's copy adds the same
# load, and an Endpoints watch grows with the square of the node count (EndpointSlices are the
# fix). Resources an agent can watch for its own node alone (pods and nodes, by a field
# selector) are left out: the role cannot say whether it does.
WIDE_RESOURCES = frozenset({"endpoints", "*"})
WIDE_GROUPS = frozenset({"", "*"})
WATCH_VERBS = frozenset({"watch", "*"})
# Built-in roles that watch Endpoints.
BUILT_IN_WIDE = {
    "cluster-admin": "*",
    "admin": "endpoints",
    "edit": "endpoints",
    "view": "endpoints",
}


def _wide_reads(role: dict) -> list[str]:
    found: set[str] = set()
    for entry in role.get("rules") or []:
        if not isinstance(entry, dict):
            continue
        verbs = {str(v) for v in entry.get("verbs") or []}
        groups = {str(g) for g in entry.get("apiGroups") or []}
        if verbs & WATCH_VERBS and groups & WIDE_GROUPS:
            found |= {str(r) for r in entry.get("resources") or []} & WIDE_RESOURCES
    return sorted(found)


@rule("daemonset-watches-cluster")
def daemonset_watches_cluster(cluster: Cluster) -> Iterator[Hit]:
    roles = {r.name: r.body for r in cluster.of("ClusterRole")}
    bindings: dict[str, list[tuple[str, Resource]]] = {}  # account -> (namespace, binding)
    for binding in cluster.of("ClusterRoleBinding"):
        for subject in binding.body.get("subjects") or []:
            if isinstance(subject, dict) and subject.get("kind") == "ServiceAccount":
                entry = (str(subject.get("namespace") or ""), binding)
                bindings.setdefault(str(subject.get("name")), []).append(entry)
    for template in cluster.pod_templates:
        owner = template.owner
        if owner.kind != "DaemonSet":
            continue
        account = str(
            template.spec.get("serviceAccountName")
            or template.spec.get("serviceAccount")
            or "default"
        )
        for namespace, binding in bindings.get(account, []):
            if not same_namespace(namespace, owner.namespace):
                continue
            role = str(dig(binding.body, "roleRef", "name") or "")
            if dig(binding.body, "roleRef", "kind") != "ClusterRole":
                continue
            if role in roles:
                wide = ", ".join(_wide_reads(roles[role]))
            else:
                wide = BUILT_IN_WIDE.get(role, "")
            if wide:
                path = (*template.spec_path, "serviceAccountName")
                if "serviceAccountName" not in template.spec:
                    path = template.spec_path
                yield hit(owner, path, workload=owner.ref, role=role, resources=wide)
                break
