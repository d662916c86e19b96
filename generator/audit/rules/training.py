"""Distributed training jobs: what happens when a collective hangs, where checkpoints land, how
often a failed job comes back, and whether its pods are scheduled together."""

from __future__ import annotations

import re
from collections.abc import Iterator

from ..cluster import TRAINING_REPLICAS, Cluster, PodTemplate, dig
from . import Hit, hit, rule

# Settings that turn off what makes a hung collective end the process: PyTorch's asynchronous
# NCCL error handling (on by default since 2.2) and its watchdog's heartbeat monitor.
DISABLING = {
    "TORCH_NCCL_ASYNC_ERROR_HANDLING": "0",
    "NCCL_ASYNC_ERROR_HANDLING": "0",
    "TORCH_NCCL_ENABLE_MONITORING": "0",
}


@rule("nccl-error-handling-disabled")
def nccl_error_handling(cluster: Cluster) -> Iterator[Hit]:
    for template in cluster.pod_templates:
        for path, container in template.containers():
            env = container.get("env")
            for n, variable in enumerate(env if isinstance(env, list) else []):
                if not isinstance(variable, dict):
                    continue
                name, value = variable.get("name"), str(variable.get("value", "")).strip()
                if name in DISABLING and value == DISABLING[name]:
                    yield hit(
                        template.owner,
                        (*path, "env", n),
                        workload=template.owner.ref,
                        variable=name,
                        value=value,
                    )


_CHECKPOINT = re.compile(r"checkpoint|ckpt", re.I)
_PATH_ARG = re.compile(r"^--?[\w.-]*(?:checkpoint|ckpt)[\w.-]*=(/\S*)$", re.I)


def _volume_kinds(template: PodTemplate) -> dict[str, str]:
    kinds = {}
    for volume in template.spec.get("volumes") or []:
        if isinstance(volume, dict):
            kind = next((k for k in volume if k != "name"), "")
            kinds[str(volume.get("name"))] = kind
    return kinds


def _storage_of(path: str, container: dict, kinds: dict[str, str]) -> str:
    """What holds `path` inside the container: the kind of volume mounted deepest above it, or
    the container's own filesystem."""
    best, kind = "", "container filesystem"
    for mount in container.get("volumeMounts") or []:
        if not isinstance(mount, dict):
            continue
        at = str(mount.get("mountPath") or "").rstrip("/") or "/"
        if (path == at or path.startswith(at.rstrip("/") + "/")) and len(at) > len(best):
            best, kind = at, kinds.get(str(mount.get("name")), "")
    return kind


NODE_LOCAL = ("emptyDir", "hostPath", "container filesystem")


def _checkpoint_paths(container: dict) -> Iterator[tuple[tuple, str]]:
    """(path inside the container spec, checkpoint directory) it names: a mount, a variable,
    or a command-line flag."""
    for n, mount in enumerate(container.get("volumeMounts") or []):
        if isinstance(mount, dict) and (
            _CHECKPOINT.search(str(mount.get("mountPath")))
            or _CHECKPOINT.search(str(mount.get("name")))
        ):
            yield ("volumeMounts", n), str(mount.get("mountPath") or "")
    for n, variable in enumerate(container.get("env") or []):
        if isinstance(variable, dict) and _CHECKPOINT.search(str(variable.get("name"))):
            value = str(variable.get("value") or "")
            if value.startswith("/"):
                yield ("env", n), value
    for key in ("command", "args"):
        for n, word in enumerate(container.get(key) or []):
            found = _PATH_ARG.match(str(word))
            if found:
                yield (key, n), found.group(1)


@rule("checkpoint-on-node-local-storage")
def checkpoint_local(cluster: Cluster) -> Iterator[Hit]:
    for template in cluster.pod_templates:
        if not (template.training or template.gpus):
            continue
        kinds = _volume_kinds(template)
        for path, container in template.containers():
            for where, directory in _checkpoint_paths(container):
                storage = _storage_of(directory, container, kinds)
                if storage in NODE_LOCAL:
                    yield hit(
                        template.owner,
                        (*path, *where),
                        workload=template.owner.ref,
                        directory=directory,
                        storage=storage,
                    )
                    break


# Kubeflow's training operator counts restarts against runPolicy.backoffLimit only when one is
# set; without it, replicas that restart (OnFailure, Always, ExitCode) come back forever. The
# operator's defaults: PyTorchJob and PaddleJob restart OnFailure, the others Never.
DEFAULT_RESTART = {"PyTorchJob": "OnFailure", "PaddleJob": "OnFailure"}
RESTARTING = ("OnFailure", "Always", "ExitCode")


@rule("training-restarts-unbounded")
def restarts_unbounded(cluster: Cluster) -> Iterator[Hit]:
    for item in cluster.of(*TRAINING_REPLICAS):
        spec = item.body.get("spec") or {}
        if isinstance(dig(spec, "runPolicy", "backoffLimit"), int) or isinstance(
            spec.get("backoffLimit"), int
        ):
            continue
        replicas = spec.get(TRAINING_REPLICAS[item.kind])
        for role, replica in sorted(replicas.items()) if isinstance(replicas, dict) else ():
            policy = (replica or {}).get("restartPolicy") or DEFAULT_RESTART.get(item.kind, "Never")
            if policy in RESTARTING:
                path = ("spec", TRAINING_REPLICAS[item.kind], role)
                yield hit(item, path, workload=item.ref, role=role, policy=policy)
                break


GANG_LABELS = (
    "kueue.x-k8s.io/queue-name",
    "scheduling.x-k8s.io/pod-group",
    "pod-group.scheduling.sigs.k8s.io",
)
GANG_ANNOTATIONS = ("scheduling.k8s.io/group-name",)  # Volcano's pod group


def _meta(data: object, key: str) -> dict:
    value = dig(data, "metadata", key)
    return value if isinstance(value, dict) else {}


def _gang(item_body: dict, templates: list[PodTemplate]) -> bool:
    spec = item_body.get("spec") or {}
    if dig(spec, "runPolicy", "schedulingPolicy") or spec.get("podGroupPolicy"):
        return True
    if dig(spec, "template", "spec", "podGroupPolicy"):  # a Trainer runtime's
        return True
    marks = [_meta(item_body, "labels"), _meta(item_body, "annotations")]
    for template in templates:
        marks += [template.labels, _meta(template.template, "annotations")]
        if str(template.spec.get("schedulerName") or "default-scheduler") != "default-scheduler":
            return True
    return any(key in mark for mark in marks for key in (*GANG_LABELS, *GANG_ANNOTATIONS))


@rule("training-without-gang-scheduling")
def without_gang(cluster: Cluster) -> Iterator[Hit]:
    by_owner: dict[int, list[PodTemplate]] = {}
    for template in cluster.pod_templates:
        if template.training or (template.owner.kind == "Job" and template.gpus):
            by_owner.setdefault(id(template.owner), []).append(template)
    for templates in by_owner.values():
        owner = templates[0].owner
        pods = sum(t.replicas or 1 for t in templates)
        if pods < 2 or not any(t.gpus for t in templates) or _gang(owner.body, templates):
            continue
        yield hit(owner, templates[0].path, workload=owner.ref, pods=pods)
