"""GPU nodes: whether their errors are collected, whether a failing node is taken out of
service, and whether the NVIDIA stack is pinned to versions someone chose."""

from __future__ import annotations

from collections.abc import Iterator

from ..cluster import Cluster, dig
from ..manifests import Resource
from . import Hit, hit, rule

# The NVIDIA GPU stack's images, by the last part of their repository name.
NVIDIA_STACK = (
    "k8s-device-plugin",
    "gpu-operator",
    "container-toolkit",
    "driver",
    "dcgm-exporter",
    "gpu-feature-discovery",
    "k8s-driver-manager",
    "gpu-operator-validator",
    "dcgm",
    "nvidia-container-toolkit",
)
HEALTH_KINDS = ("NodeHealthCheck", "MachineHealthCheck")


def _images(cluster: Cluster) -> Iterator[str]:
    for template in cluster.pod_templates:
        for _, container in template.containers(init=True):
            yield str(container.get("image") or "")


def _gpu_anchor(cluster: Cluster) -> tuple[Resource, tuple, int]:
    """The object a cluster-wide GPU finding is attached to (the first GPU workload, else a GPU
    node or the GPU operator's policy) and how many GPU workloads there are."""
    templates = cluster.gpu_templates
    owners = {id(t.owner): t.owner for t in templates}
    if templates:
        return templates[0].owner, templates[0].spec_path, len(owners)
    found = (cluster.of("ClusterPolicy") or cluster.of("Node"))[0]
    return found, (), 0


def _dcgm_from_operator(cluster: Cluster) -> bool:
    return any(
        dig(p.body, "spec", "dcgmExporter", "enabled") is not False
        for p in cluster.of("ClusterPolicy")
    )


@rule("gpu-metrics-exporter-missing")
def no_exporter(cluster: Cluster) -> Iterator[Hit]:
    if not cluster.uses_gpus or _dcgm_from_operator(cluster):
        return
    if any("dcgm-exporter" in image for image in _images(cluster)):
        return
    anchor, path, count = _gpu_anchor(cluster)
    yield hit(anchor, path, workload=anchor.ref, workloads=count)


@rule("node-health-checks-missing")
def no_node_health(cluster: Cluster) -> Iterator[Hit]:
    if not cluster.uses_gpus or cluster.of(*HEALTH_KINDS):
        return
    if any("node-problem-detector" in image for image in _images(cluster)):
        return
    anchor, path, count = _gpu_anchor(cluster)
    yield hit(anchor, path, workload=anchor.ref, workloads=count)


def _unpinned(image: str) -> bool:
    if "@" in image:
        return False
    name = image.rsplit("/", 1)[-1]
    repository, _, tag = name.partition(":")
    return repository in NVIDIA_STACK and "nvidia" in image.lower() and tag in ("", "latest")


@rule("gpu-stack-unpinned")
def stack_unpinned(cluster: Cluster) -> Iterator[Hit]:
    for template in cluster.pod_templates:
        for path, container in template.containers(init=True):
            image = str(container.get("image") or "")
            if _unpinned(image):
                yield hit(
                    template.owner, (*path, "image"), workload=template.owner.ref, image=image
                )
    for policy in cluster.of("ClusterPolicy"):
        spec = policy.body.get("spec") or {}
        for component in ("driver", "toolkit", "devicePlugin", "dcgmExporter", "gfd"):
            version = dig(spec, component, "version")
            if str(version) == "latest":
                path = ("spec", component, "version")
                yield hit(policy, path, workload=policy.ref, image=f"{component}: latest")
