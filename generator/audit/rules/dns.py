"""Cluster DNS (CoreDNS or kube-dns): whether its capacity follows the cluster, and whether its
replicas share a node."""

from __future__ import annotations

from collections.abc import Iterator

from ..cluster import Cluster, PodTemplate, dig
from . import Hit, hit, rule
from .admission import is_cluster_dns

HOSTNAME = "kubernetes.io/hostname"


def dns_templates(cluster: Cluster) -> Iterator[PodTemplate]:
    return (t for t in cluster.pod_templates if is_cluster_dns(t))


def _targets(ref: object, name: str) -> bool:
    return isinstance(ref, dict) and ref.get("name") == name


def _proportional(cluster: Cluster, name: str) -> bool:
    """A cluster-proportional-autoscaler (or another container) told to scale this Deployment:
    `--target=deployment/coredns` in its arguments."""
    for template in cluster.pod_templates:
        for _, container in template.containers():
            words = [
                str(w) for w in (container.get("command") or []) + (container.get("args") or [])
            ]
            if any(
                w.lower().startswith("--target=") and w.lower().endswith("/" + name) for w in words
            ):
                return True
    return False


def autoscaled(cluster: Cluster, name: str) -> bool:
    for kind in ("HorizontalPodAutoscaler", "ScaledObject"):
        if any(_targets(dig(r.body, "spec", "scaleTargetRef"), name) for r in cluster.of(kind)):
            return True
    if any(
        _targets(dig(r.body, "spec", "targetRef"), name)
        for r in cluster.of("VerticalPodAutoscaler")
    ):
        return True
    return _proportional(cluster, name)


@rule("cluster-dns-not-autoscaled")
def not_autoscaled(cluster: Cluster) -> Iterator[Hit]:
    for template in dns_templates(cluster):
        owner = template.owner
        if not autoscaled(cluster, owner.name):
            path = (
                ("spec", "replicas") if "replicas" in (owner.body.get("spec") or {}) else ("spec",)
            )
            yield hit(owner, path, workload=owner.ref, replicas=template.replicas)


def spread_by_host(spec: dict) -> bool:
    """Anti-affinity or a topology spread constraint that keeps the pods on different nodes."""
    anti = dig(spec, "affinity", "podAntiAffinity")
    if isinstance(anti, dict):
        for key in (
            "requiredDuringSchedulingIgnoredDuringExecution",
            "preferredDuringSchedulingIgnoredDuringExecution",
        ):
            for term in anti.get(key) or []:
                term = term.get("podAffinityTerm", term) if isinstance(term, dict) else {}
                if isinstance(term, dict) and term.get("topologyKey") == HOSTNAME:
                    return True
    constraints = spec.get("topologySpreadConstraints")
    return any(
        isinstance(c, dict) and c.get("topologyKey") == HOSTNAME
        for c in (constraints if isinstance(constraints, list) else [])
    )


@rule("cluster-dns-not-spread")
def not_spread(cluster: Cluster) -> Iterator[Hit]:
    for template in dns_templates(cluster):
        if not spread_by_host(template.spec):
            yield hit(template.owner, template.spec_path, workload=template.owner.ref)
