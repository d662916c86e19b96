"""One index over the resources being audited: by kind, and every pod template found once.

Rules ask the cluster, never walk the resources themselves, so the ways a pod template is spelt
(a Deployment, a CronJob, a PyTorchJob's replicas, a JobSet's jobs) are known in one place.
"""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Iterator
from dataclasses import dataclass
from functools import cached_property

from .manifests import Path_, Resource

# Kinds whose objects hold one pod template at a fixed place, and their default replica count
# (None: one pod per node, or not a count of copies).
_TEMPLATE_AT: dict[str, tuple[Path_, int | None]] = {
    "Deployment": (("spec", "template"), 1),
    "StatefulSet": (("spec", "template"), 1),
    "ReplicaSet": (("spec", "template"), 1),
    "ReplicationController": (("spec", "template"), 1),
    "DaemonSet": (("spec", "template"), None),
    "Job": (("spec", "template"), 1),
    "CronJob": (("spec", "jobTemplate", "spec", "template"), 1),
}
# Kubeflow's training jobs (kubeflow.org/v1, and the MPI operator's v2beta1): replica specs by
# role, each with a template.
TRAINING_REPLICAS = {
    "PyTorchJob": "pytorchReplicaSpecs",
    "TFJob": "tfReplicaSpecs",
    "MPIJob": "mpiReplicaSpecs",
    "PaddleJob": "paddleReplicaSpecs",
    "XGBoostJob": "xgbReplicaSpecs",
    "JAXJob": "jaxReplicaSpecs",
}
# JobSet and Kubeflow Trainer's runtimes: jobs of pods.
_JOBSET_AT: dict[str, Path_] = {
    "JobSet": ("spec",),
    "TrainingRuntime": ("spec", "template", "spec"),
    "ClusterTrainingRuntime": ("spec", "template", "spec"),
}
GPU_RESOURCES = ("nvidia.com/gpu",)
GPU_RESOURCE_PREFIXES = ("nvidia.com/mig-",)
CONTROLLERS = frozenset({"Deployment", "StatefulSet", "ReplicaSet", "ReplicationController"})


@dataclass(frozen=True)
class PodTemplate:
    """A pod template inside a resource (or a bare Pod's own spec)."""

    owner: Resource
    path: Path_  # from the owner's root to the template (its `metadata` and `spec` below)
    template: dict
    replicas: int | None  # pods made from it, where that means something
    role: str = ""  # a training job's replica type ("Worker") or a JobSet job's name

    @property
    def spec(self) -> dict:
        spec = self.template.get("spec")
        return spec if isinstance(spec, dict) else {}

    @property
    def spec_path(self) -> Path_:
        return (*self.path, "spec")

    @property
    def labels(self) -> dict:
        meta = self.template.get("metadata")
        labels = meta.get("labels") if isinstance(meta, dict) else None
        return labels if isinstance(labels, dict) else {}

    def containers(self, init: bool = False) -> Iterator[tuple[Path_, dict]]:
        """(path from the owner's root, container) for each container (and init containers)."""
        keys = ("containers", "initContainers") if init else ("containers",)
        for key in keys:
            listed = self.spec.get(key)
            for n, container in enumerate(listed if isinstance(listed, list) else []):
                if isinstance(container, dict):
                    yield (*self.spec_path, key, n), container

    @property
    def gpus(self) -> bool:
        """Whether any container asks for an NVIDIA GPU."""
        return any(gpu_request(c) for _, c in self.containers(init=True))

    @property
    def training(self) -> bool:
        """A distributed training job's pods: a training operator's job or a JobSet."""
        return self.owner.kind in TRAINING_REPLICAS or self.owner.kind in _JOBSET_AT


def gpu_request(container: dict) -> int:
    resources = container.get("resources")
    if not isinstance(resources, dict):
        return 0
    total = 0
    for key in ("limits", "requests"):
        amounts = resources.get(key)
        if not isinstance(amounts, dict):
            continue
        for name, value in amounts.items():
            if name in GPU_RESOURCES or str(name).startswith(GPU_RESOURCE_PREFIXES):
                total = max(total, _count(value))
    return total


def _count(value: object) -> int:
    try:
        return int(str(value))
    except ValueError:
        return 1


def dig(data: object, *path: str | int) -> object:
    """The value at `path` in nested dicts and lists, or None."""
    for step in path:
        if isinstance(step, int):
            data = data[step] if isinstance(data, list) and 0 <= step < len(data) else None
        else:
            data = data.get(step) if isinstance(data, dict) else None
        if data is None:
            return None
    return data


class Cluster:
    """The resources of one audit. `whole` says whether they are a whole cluster (a live read,
    or a dump the user says is complete): checks that look for something missing run only then."""

    def __init__(self, resources: tuple[Resource, ...], whole: bool = False) -> None:
        self.resources = resources
        self.whole = whole
        by_kind: dict[str, list[Resource]] = defaultdict(list)
        for item in resources:
            by_kind[item.kind].append(item)
        self._by_kind = {kind: tuple(items) for kind, items in by_kind.items()}
        by_name: dict[tuple[str, str], list[Resource]] = defaultdict(list)
        for item in resources:
            by_name[(item.kind, item.name)].append(item)
        self._by_name = by_name
        self._memo: dict[str, object] = {}

    def memo(self, key: str, compute):
        """What `compute()` gives, worked out once per cluster (a parse two rules share)."""
        if key not in self._memo:
            self._memo[key] = compute()
        return self._memo[key]

    def of(self, *kinds: str) -> tuple[Resource, ...]:
        """The resources of these kinds, in input order."""
        if len(kinds) == 1:
            return self._by_kind.get(kinds[0], ())
        return tuple(r for kind in kinds for r in self._by_kind.get(kind, ()))

    def named(self, kind: str, namespace: str, name: str) -> Resource | None:
        return next(
            (
                r
                for r in self._by_name.get((kind, name), ())
                if same_namespace(r.namespace, namespace)
            ),
            None,
        )

    @cached_property
    def _templates_by_namespace(self) -> dict[str, list[PodTemplate]]:
        found: dict[str, list[PodTemplate]] = defaultdict(list)
        for template in self.pod_templates:
            found[template.owner.namespace].append(template)
        return found

    def templates_in(self, namespace: str) -> list[PodTemplate]:
        """The pod templates that may be in `namespace` (see `same_namespace`)."""
        if not namespace:
            return list(self.pod_templates)
        by_namespace = self._templates_by_namespace
        return by_namespace.get(namespace, []) + by_namespace.get("", [])

    @cached_property
    def pod_templates(self) -> tuple[PodTemplate, ...]:
        """Every pod template of every resource, once."""
        found: list[PodTemplate] = []
        for item in self.resources:
            if not _made_by_controller(item):
                found.extend(_templates(item))
        return tuple(found)

    @cached_property
    def gpu_templates(self) -> tuple[PodTemplate, ...]:
        return tuple(t for t in self.pod_templates if t.gpus)

    @cached_property
    def uses_gpus(self) -> bool:
        """Whether anything here runs on NVIDIA GPUs: pods that ask for them, nodes that have
        them, or the GPU operator's policy."""
        nodes = any(
            gpu_request({"resources": {"limits": dig(n.body, "status", "capacity") or {}}})
            for n in self.of("Node")
        )
        return bool(self.gpu_templates) or nodes or bool(self.of("ClusterPolicy"))

    def templates_selected(self, namespace: str, selector: dict) -> tuple[PodTemplate, ...]:
        """The pod templates in `namespace` whose labels a Service-style selector matches."""
        if not selector:
            return ()
        wanted = selector.items()
        return tuple(t for t in self.templates_in(namespace) if wanted <= t.labels.items())


def same_namespace(a: str, b: str) -> bool:
    """Whether two objects' namespaces can be the same: a manifest that names none is applied
    to whichever namespace its user chooses."""
    return a == b or not a or not b


def _made_by_controller(item: Resource) -> bool:
    """Whether a controller in the cluster made this object from its own template (a live
    cluster's ReplicaSets and Pods): its controller's template is judged instead, once. Static
    pods, which the kubelet mirrors with a Node as owner, are judged themselves."""
    owners = dig(item.body, "metadata", "ownerReferences")
    return any(
        isinstance(o, dict) and o.get("controller") and o.get("kind") != "Node"
        for o in (owners if isinstance(owners, list) else [])
    )


def _templates(item: Resource) -> Iterator[PodTemplate]:
    body = item.body
    if item.kind == "Pod":
        yield PodTemplate(item, (), body, 1)
        return
    if item.kind in _TEMPLATE_AT:
        path, default = _TEMPLATE_AT[item.kind]
        template = dig(body, *path)
        if isinstance(template, dict):
            replicas = dig(body, "spec", "replicas") if default is not None else None
            if item.kind == "Job":
                replicas = dig(body, "spec", "parallelism")
            yield PodTemplate(item, path, template, _int(replicas, default))
        return
    if item.kind in TRAINING_REPLICAS:
        specs = dig(body, "spec", TRAINING_REPLICAS[item.kind])
        for role, spec in sorted((specs or {}).items()) if isinstance(specs, dict) else ():
            template = dig(spec, "template")
            if isinstance(template, dict):
                path = ("spec", TRAINING_REPLICAS[item.kind], role, "template")
                yield PodTemplate(item, path, template, _int(dig(spec, "replicas"), 1), role)
        return
    if item.kind in _JOBSET_AT:
        at = _JOBSET_AT[item.kind]
        jobs = dig(body, *at, "replicatedJobs")
        for n, job in enumerate(jobs if isinstance(jobs, list) else []):
            template = dig(job, "template", "spec", "template")
            if isinstance(template, dict):
                count = _int(dig(job, "replicas"), 1) * _int(
                    dig(job, "template", "spec", "parallelism"), 1
                )
                path = (*at, "replicatedJobs", n, "template", "spec", "template")
                yield PodTemplate(item, path, template, count, str(dig(job, "name") or n))


def _int(value: object, default: int | None) -> int | None:
    if isinstance(value, bool) or value is None:
        return default
    try:
        return int(value)
    except (TypeError, ValueError):
        return default
