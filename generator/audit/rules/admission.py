"""Admission webhooks: what they intercept, what happens when their backend stops answering,
and the workloads that serve them."""

from __future__ import annotations

from collections.abc import Iterator

from ..cluster import Cluster, PodTemplate, dig
from ..manifests import Resource
from . import Hit, hit, rule

WEBHOOK_KINDS = ("ValidatingWebhookConfiguration", "MutatingWebhookConfiguration")
# What the control plane itself writes in kube-system (leader leases, the authentication
# ConfigMap a starting API server writes, endpoints, events, mirror pods, tokens).
SYSTEM_WRITES = frozenset(
    {
        "configmaps",
        "leases",
        "endpoints",
        "endpointslices",
        "events",
        "pods",
        "secrets",
        "serviceaccounts",
        "services",
    }
)
SYSTEM_GROUPS = frozenset({"", "*", "coordination.k8s.io", "discovery.k8s.io", "events.k8s.io"})
DEFAULT_TIMEOUT = {"admissionregistration.k8s.io/v1": 10}  # seconds; v1beta1: 30
SYSTEM_NAMESPACE = "kube-system"


def webhooks(cluster: Cluster) -> Iterator[tuple[Resource, int, dict]]:
    for item in cluster.of(*WEBHOOK_KINDS):
        listed = item.body.get("webhooks")
        for n, hook in enumerate(listed if isinstance(listed, list) else []):
            if isinstance(hook, dict):
                yield item, n, hook


def fails_closed(item: Resource, hook: dict) -> bool:
    """Whether the API server refuses a request when the webhook cannot be reached: `Fail`,
    the default of admissionregistration.k8s.io/v1 (v1beta1 defaulted to Ignore)."""
    default = "Fail" if item.api_version.endswith("/v1") else "Ignore"
    return (hook.get("failurePolicy") or default) == "Fail"


def timeout(item: Resource, hook: dict) -> int:
    value = hook.get("timeoutSeconds")
    return value if isinstance(value, int) else DEFAULT_TIMEOUT.get(item.api_version, 30)


def _rules(hook: dict) -> list[dict]:
    listed = hook.get("rules")
    return [r for r in listed if isinstance(r, dict)] if isinstance(listed, list) else []


def _listed(value: object) -> set[str]:
    return {str(v) for v in value} if isinstance(value, list) else set()


def matches_system_writes(hook: dict) -> bool:
    for entry in _rules(hook):
        operations = _listed(entry.get("operations"))
        if not operations & {"*", "CREATE", "UPDATE"}:
            continue
        if not _listed(entry.get("apiGroups")) & SYSTEM_GROUPS:
            continue
        resources = {r.split("/")[0] for r in _listed(entry.get("resources"))}
        if resources & (SYSTEM_WRITES | {"*"}):
            return True
    return False


def selector_matches(selector: object, labels: dict) -> bool:
    """Whether a Kubernetes LabelSelector selects an object with `labels` (an absent or empty
    selector selects everything)."""
    if not isinstance(selector, dict):
        return True
    wanted = selector.get("matchLabels")
    if isinstance(wanted, dict) and any(labels.get(k) != str(v) for k, v in wanted.items()):
        return False
    expressions = selector.get("matchExpressions")
    for expression in expressions if isinstance(expressions, list) else []:
        if not isinstance(expression, dict):
            continue
        key, operator = expression.get("key"), expression.get("operator")
        values = _listed(expression.get("values"))
        present = key in labels
        if operator == "In" and not (present and labels[key] in values):
            return False
        if operator == "NotIn" and present and labels[key] in values:
            return False
        if operator == "Exists" and not present:
            return False
        if operator == "DoesNotExist" and present:
            return False
    return True


def _system_namespace_labels(cluster: Cluster) -> dict:
    """kube-system's labels: the cluster's own where the Namespace is in the input, else the
    one label every namespace has had since Kubernetes 1.21."""
    found = cluster.named("Namespace", "", SYSTEM_NAMESPACE)
    labels = dict(found.labels) if found is not None else {}
    labels.setdefault("kubernetes.io/metadata.name", SYSTEM_NAMESPACE)
    return {str(k): str(v) for k, v in labels.items()}


@rule("webhook-fail-closed-system-namespaces")
def fail_closed_on_system(cluster: Cluster) -> Iterator[Hit]:
    system = _system_namespace_labels(cluster)
    for item, n, hook in webhooks(cluster):
        if not fails_closed(item, hook) or not matches_system_writes(hook):
            continue
        if not selector_matches(hook.get("namespaceSelector"), system):
            continue
        if not selector_matches(hook.get("objectSelector"), {}):
            continue
        yield hit(item, ("webhooks", n), webhook=hook.get("name", n))


@rule("webhook-matches-everything")
def matches_everything(cluster: Cluster) -> Iterator[Hit]:
    for item, n, hook in webhooks(cluster):
        for m, entry in enumerate(_rules(hook)):
            resources = _listed(entry.get("resources"))
            if "*" in _listed(entry.get("apiGroups")) and resources & {"*", "*/*"}:
                yield hit(item, ("webhooks", n, "rules", m), webhook=hook.get("name", n))
                break


@rule("webhook-long-timeout")
def long_timeout(cluster: Cluster) -> Iterator[Hit]:
    for item, n, hook in webhooks(cluster):
        seconds = timeout(item, hook)
        if fails_closed(item, hook) and seconds > 10:
            path = (
                ("webhooks", n, "timeoutSeconds") if "timeoutSeconds" in hook else ("webhooks", n)
            )
            yield hit(item, path, webhook=hook.get("name", n), seconds=seconds)


def backends(cluster: Cluster, hook: dict) -> tuple[PodTemplate, ...]:
    """The pod templates that serve a webhook: its Service's selector, where both are in the
    input (a backend that is not there is not judged)."""
    service = dig(hook, "clientConfig", "service")
    if not isinstance(service, dict):
        return ()
    found = cluster.named("Service", str(service.get("namespace") or ""), str(service.get("name")))
    selector = dig(found.body, "spec", "selector") if found is not None else None
    if not isinstance(selector, dict):
        return ()
    return cluster.templates_selected(found.namespace, selector)


@rule("webhook-backend-without-probes")
def backend_without_probes(cluster: Cluster) -> Iterator[Hit]:
    seen: set[int] = set()
    for item, _, hook in webhooks(cluster):
        if not fails_closed(item, hook):
            continue
        for template in backends(cluster, hook):
            for path, container in template.containers():
                if "livenessProbe" in container or id(container) in seen:
                    continue
                seen.add(id(container))
                yield hit(
                    template.owner,
                    path,
                    webhook=hook.get("name", ""),
                    container=container.get("name", ""),
                )


def _autoscaled(cluster: Cluster, owner: Resource) -> bool:
    """Whether a HorizontalPodAutoscaler keeps at least two copies of `owner`."""
    for hpa in cluster.of("HorizontalPodAutoscaler"):
        target = dig(hpa.body, "spec", "scaleTargetRef")
        if (
            isinstance(target, dict)
            and target.get("kind") == owner.kind
            and target.get("name") == owner.name
            and hpa.namespace == owner.namespace
        ):
            low = dig(hpa.body, "spec", "minReplicas")
            return not isinstance(low, int) or low >= 2
    return False


def is_cluster_dns(template: PodTemplate) -> bool:
    owner = template.owner
    if owner.kind != "Deployment" or owner.namespace not in (SYSTEM_NAMESPACE, ""):
        return False
    return template.labels.get("k8s-app") in ("kube-dns", "coredns") or owner.name in (
        "coredns",
        "kube-dns",
    )


@rule("critical-single-replica")
def critical_single_replica(cluster: Cluster) -> Iterator[Hit]:
    serving: dict[int, str] = {}
    for item, _, hook in webhooks(cluster):
        if fails_closed(item, hook):
            for template in backends(cluster, hook):
                serving.setdefault(id(template.owner), str(hook.get("name", "")))
    for template in cluster.pod_templates:
        owner = template.owner
        if owner.kind not in ("Deployment", "StatefulSet") or template.replicas != 1:
            continue
        # Serving a fail-closed webhook or the cluster's DNS is what makes one replica an
        # outage; a priority class alone does not (singletons such as an audit loop carry one).
        if id(owner) in serving:
            serves = serving[id(owner)]
        elif is_cluster_dns(template):
            serves = "kube-dns"
        else:
            continue
        if _autoscaled(cluster, owner):
            continue
        path = ("spec", "replicas") if "replicas" in (owner.body.get("spec") or {}) else ("spec",)
        yield hit(owner, path, workload=owner.ref, serves=serves)
