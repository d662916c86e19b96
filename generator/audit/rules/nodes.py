"""Nodes as the cluster reports them: disks that differ from their peers'."""

from __future__ import annotations

import re
from collections.abc import Iterator
from statistics import median

from ..cluster import Cluster, dig
from . import Hit, hit, rule

_QUANTITY = re.compile(r"^([0-9.]+)([KMGTPE]i?|k|m)?$")
_FACTOR = {
    "": 1,
    "k": 10**3,
    "K": 10**3,
    "M": 10**6,
    "G": 10**9,
    "T": 10**12,
    "P": 10**15,
    "E": 10**18,
    "Ki": 2**10,
    "Mi": 2**20,
    "Gi": 2**30,
    "Ti": 2**40,
    "Pi": 2**50,
    "Ei": 2**60,
    "m": 10**-3,
}
GIB = 2**30


def quantity(value: object) -> float | None:
    """A Kubernetes quantity (`20Gi`, `104845292Ki`) in units, or None."""
    found = _QUANTITY.match(str(value).strip())
    if not found:
        return None
    return float(found.group(1)) * _FACTOR[found.group(2) or ""]


@rule("node-disk-smaller-than-peers")
def small_disk(cluster: Cluster) -> Iterator[Hit]:
    sizes = []
    for node in cluster.of("Node"):
        size = quantity(dig(node.body, "status", "capacity", "ephemeral-storage"))
        if size:
            sizes.append((node, size))
    if len(sizes) < 2:
        return
    middle = median(size for _, size in sizes)
    for node, size in sizes:
        if size < middle / 2:
            yield hit(
                node,
                ("status", "capacity", "ephemeral-storage"),
                node=node.name,
                size=f"{size / GIB:.0f} GiB",
                median=f"{middle / GIB:.0f} GiB",
            )
