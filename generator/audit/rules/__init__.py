"""What each check looks for: one function per check id, yielding a Hit per object it flags.

The check's words (title, explanation, fix, the finding's sentence) are reviewed data in
`checks/<id>/check.yml`; a rule supplies only the values its finding's sentence names, which
are identifiers (names, numbers, field values) and so read the same in every language.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Mapping
from dataclasses import dataclass, field
from types import MappingProxyType

from ..cluster import Cluster
from ..manifests import Path_, Resource


@dataclass(frozen=True)
class Hit:
    """One object a rule flags: the object, the value it points at, and the values its
    finding's sentence names."""

    resource: Resource
    path: Path_ = ()
    values: Mapping[str, str] = field(default_factory=lambda: MappingProxyType({}))


Rule = Callable[[Cluster], Iterable[Hit]]
_RULES: dict[str, Rule] = {}


def rule(check_id: str) -> Callable[[Rule], Rule]:
    """Register `function` as the rule of the check `check_id`."""

    def register(function: Rule) -> Rule:
        if check_id in _RULES:
            raise ValueError(f"two rules for the check {check_id}")
        _RULES[check_id] = function
        return function

    return register


def hit(resource: Resource, path: Path_ = (), **values: object) -> Hit:
    return Hit(resource, path, MappingProxyType({k: str(v) for k, v in values.items()}))


def rules() -> Mapping[str, Rule]:
    """Every rule, by check id (importing the modules that define them)."""
    from . import admission, control_plane, disruption, dns, gpu, nodes, training, workloads  # noqa: F401

    return MappingProxyType(_RULES)
