"""Run the checks over a cluster: each rule's hits joined with its check's reviewed data."""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from dataclasses import dataclass

from ..render.strings import fill
from .catalogue import Check
from .cluster import Cluster
from .manifests import Path_, Resource
from .rules import rules


@dataclass(frozen=True)
class Finding:
    check: Check
    resource: Resource
    path: Path_
    values: Mapping[str, str]

    def message(self, lang: str) -> str:
        """The finding's sentence in `lang`, with the rule's values filled in."""
        return fill(self.check.text("finding", lang), lang, self.values)

    @property
    def location(self) -> tuple[str, int] | None:
        return self.resource.location(self.path)

    def sort_key(self) -> tuple:
        where = self.location or ("", 0)
        return (self.check.rank, self.check.id, where, self.resource.ref)


@dataclass(frozen=True)
class Outcome:
    findings: tuple[Finding, ...]
    run: tuple[Check, ...]  # the checks that ran
    not_run: tuple[Check, ...]  # cluster-wide checks left out: the input is not a whole cluster
    objects: int


def audit(checks: Iterable[Check], cluster: Cluster) -> Outcome:
    """Every finding of `checks` on `cluster`, most serious first. Checks of the `cluster`
    scope look for what is missing, so they run only on a whole cluster (`cluster.whole`)."""
    from ..pipeline.executor import bulk_collection

    registered = rules()
    findings: list[Finding] = []
    ran: list[Check] = []
    skipped: list[Check] = []
    with bulk_collection():
        for check in checks:
            if check.scope == "cluster" and not cluster.whole:
                skipped.append(check)
                continue
            ran.append(check)
            for hit in registered[check.id](cluster):
                findings.append(Finding(check, hit.resource, hit.path, hit.values))
    findings.sort(key=Finding.sort_key)
    return Outcome(tuple(findings), tuple(ran), tuple(skipped), len(cluster.resources))
