"""Drains, upgrades and evictions: the descheduler's policy, disruption budgets, StatefulSets
that never roll out, and node labels that an upgrade removes."""

from __future__ import annotations

from collections.abc import Iterator

import yaml

from ..cluster import CONTROLLERS, Cluster, PodTemplate, dig, same_namespace
from ..manifests import Path_, Resource
from . import Hit, hit, rule
from .admission import selector_matches

UNSCHEDULABLE = "node.kubernetes.io/unschedulable"  # the taint a cordon puts on a node
EVICTION_LIMITS = (
    "maxNoOfPodsToEvictPerNode",
    "maxNoOfPodsToEvictPerNamespace",
    "maxNoOfPodsToEvictTotal",
)
NODE_TAINTS = "RemovePodsViolatingNodeTaints"


def descheduler_policies(cluster: Cluster) -> list[tuple[Resource, Path_, dict]]:
    """Descheduler policies: DeschedulerPolicy objects, and the ones ConfigMaps carry (the
    descheduler reads its policy from a ConfigMap's `policy.yaml`), parsed once per cluster."""
    return cluster.memo("descheduler-policies", lambda: list(_policies(cluster)))


def _policies(cluster: Cluster) -> Iterator[tuple[Resource, Path_, dict]]:
    for item in cluster.of("DeschedulerPolicy"):
        yield item, (), item.body
    for item in cluster.of("ConfigMap"):
        data = item.body.get("data")
        for key, text in sorted(data.items()) if isinstance(data, dict) else ():
            if not isinstance(text, str) or "DeschedulerPolicy" not in text:
                continue
            try:
                policy = yaml.load(text, Loader=getattr(yaml, "CSafeLoader", yaml.SafeLoader))
            except yaml.YAMLError:
                continue
            if isinstance(policy, dict) and policy.get("kind") == "DeschedulerPolicy":
                yield item, ("data", key), policy


def _taint_args(policy: dict) -> Iterator[dict]:
    """The arguments of every enabled RemovePodsViolatingNodeTaints (v1alpha2 profiles, or a
    v1alpha1 strategy)."""
    for profile in policy.get("profiles") or []:
        if not isinstance(profile, dict):
            continue
        enabled = dig(profile, "plugins", "deschedule", "enabled") or []
        if NODE_TAINTS not in enabled:
            continue
        args: dict = {}
        for config in profile.get("pluginConfig") or []:
            if isinstance(config, dict) and config.get("name") == NODE_TAINTS:
                args = config.get("args") or {}
        yield args if isinstance(args, dict) else {}
    strategy = dig(policy, "strategies", NODE_TAINTS)
    if isinstance(strategy, dict) and strategy.get("enabled") is not False:
        params = strategy.get("params") or {}
        yield {
            "excludedTaints": dig(params, "excludedTaints") or [],
            "includedTaints": dig(params, "includedTaints") or [],
        }


def _names_unschedulable(entries: object) -> bool:
    return any(
        str(e) == UNSCHEDULABLE or str(e).startswith(UNSCHEDULABLE + "=")
        for e in (entries if isinstance(entries, list) else [])
    )


@rule("descheduler-evicts-cordoned-nodes")
def evicts_cordoned(cluster: Cluster) -> Iterator[Hit]:
    for item, path, policy in descheduler_policies(cluster):
        for args in _taint_args(policy):
            if _names_unschedulable(args.get("excludedTaints")):
                continue
            included = args.get("includedTaints")
            if included and not _names_unschedulable(included):
                continue
            yield hit(item, path, policy=_name(item))
            break


@rule("descheduler-unlimited-evictions")
def unlimited_evictions(cluster: Cluster) -> Iterator[Hit]:
    for item, path, policy in descheduler_policies(cluster):
        if not any(isinstance(policy.get(key), int) for key in EVICTION_LIMITS):
            yield hit(item, path, policy=_name(item))


def _name(item: Resource) -> str:
    """A policy's name: its ConfigMap's, or the file of a DeschedulerPolicy (which has none)."""
    if item.name:
        return item.name
    return item.source.path.rsplit("/", 1)[-1] if item.source else item.kind


@rule("no-disruption-budget")
def no_budget(cluster: Cluster) -> Iterator[Hit]:
    budgets: dict[str, list[dict]] = {}
    for budget in cluster.of("PodDisruptionBudget"):
        selector = dig(budget.body, "spec", "selector")
        if isinstance(selector, dict):
            budgets.setdefault(budget.namespace, []).append(selector)
    for template in cluster.pod_templates:
        owner = template.owner
        if owner.kind not in ("Deployment", "StatefulSet") or (template.replicas or 0) < 2:
            continue
        nearby = (
            [
                s
                for ns, found in budgets.items()
                if same_namespace(ns, owner.namespace)
                for s in found
            ]
            if not owner.namespace
            else (budgets.get(owner.namespace, []) + budgets.get("", []))
        )
        covered = any(selector_matches(s, template.labels) for s in nearby)
        if not covered:
            yield hit(owner, ("spec", "replicas"), workload=owner.ref, replicas=template.replicas)


@rule("statefulset-on-delete")
def on_delete(cluster: Cluster) -> Iterator[Hit]:
    for item in cluster.of("StatefulSet"):
        if dig(item.body, "spec", "updateStrategy", "type") == "OnDelete":
            yield hit(item, ("spec", "updateStrategy", "type"), workload=item.ref)


MASTER = "node-role.kubernetes.io/master"  # gone from kubeadm's nodes since Kubernetes 1.24
CONTROL_PLANE = "node-role.kubernetes.io/control-plane"
CALICO_GROUPS = ("crd.projectcalico.org", "projectcalico.org")


def _master_selectors(template: PodTemplate) -> Iterator[tuple[Path_, str]]:
    spec, at = template.spec, template.spec_path
    selector = spec.get("nodeSelector")
    if isinstance(selector, dict) and MASTER in selector:
        yield (*at, "nodeSelector", MASTER), "nodeSelector"
    affinity = dig(spec, "affinity", "nodeAffinity")
    if isinstance(affinity, dict):
        required = dig(
            affinity, "requiredDuringSchedulingIgnoredDuringExecution", "nodeSelectorTerms"
        )
        for n, term in enumerate(required if isinstance(required, list) else []):
            for m, expr in enumerate(dig(term, "matchExpressions") or []):
                if isinstance(expr, dict) and expr.get("key") == MASTER:
                    path = (
                        "affinity",
                        "nodeAffinity",
                        "requiredDuringSchedulingIgnoredDuringExecution",
                        "nodeSelectorTerms",
                        n,
                        "matchExpressions",
                        m,
                    )
                    yield (*at, *path), "nodeAffinity"
    tolerations = spec.get("tolerations")
    tolerations = tolerations if isinstance(tolerations, list) else []
    keys = {t.get("key") for t in tolerations if isinstance(t, dict)}
    everything = any(
        isinstance(t, dict) and not t.get("key") and t.get("operator") == "Exists"
        for t in tolerations
    )
    if MASTER in keys and CONTROL_PLANE not in keys and not everything:
        n = next(
            i for i, t in enumerate(tolerations) if isinstance(t, dict) and t.get("key") == MASTER
        )
        yield (*at, "tolerations", n), "tolerations"


def _strings(data: object, path: Path_) -> Iterator[tuple[Path_, str, str]]:
    """(path, key, text) of every string under a key that ends in 'elector'."""
    if isinstance(data, dict):
        for key, value in data.items():
            if isinstance(value, str) and str(key).endswith(("elector", "electors")):
                yield (*path, key), str(key), value
            else:
                yield from _strings(value, (*path, key))
    elif isinstance(data, list):
        for n, value in enumerate(data):
            yield from _strings(value, (*path, n))


@rule("removed-master-node-label")
def master_label(cluster: Cluster) -> Iterator[Hit]:
    for template in cluster.pod_templates:
        for path, where in _master_selectors(template):
            yield hit(template.owner, path, workload=template.owner.ref, field=where)
    for item in cluster.resources:
        if item.group in CALICO_GROUPS:
            for path, key, text in _strings(item.body.get("spec"), ("spec",)):
                if MASTER in text:
                    yield hit(item, path, workload=item.ref, field=key)


@rule("service-selects-scaled-to-zero")
def scaled_to_zero(cluster: Cluster) -> Iterator[Hit]:
    for item in cluster.of("Service"):
        selector = dig(item.body, "spec", "selector")
        if not isinstance(selector, dict) or not selector:
            continue
        matched = cluster.templates_selected(item.namespace, selector)
        if matched and all(
            t.owner.kind in CONTROLLERS and dig(t.owner.body, "spec", "replicas") == 0
            for t in matched
        ):
            yield hit(item, ("spec", "selector"), service=item.ref, workload=matched[0].owner.ref)
