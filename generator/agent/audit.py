"""The agent server's audit: manifests at paths the agent gives, checked read-only, each finding
with its object, place, fix and the library's cases it is drawn from."""

from __future__ import annotations

from pathlib import Path

from pydantic import BaseModel, Field

from ..audit.report import json_report
from ..audit.runner import AuditError, Checker, manifests_cluster
from .catalogue import CatalogueError


class AuditCase(BaseModel):
    id: str
    title: str
    url: str


class AuditObject(BaseModel):
    kind: str
    apiVersion: str  # noqa: N815 - Kubernetes' own spelling
    namespace: str
    name: str


class AuditFinding(BaseModel):
    check: str = Field(description="The check's id; its page is `url`.")
    severity: str = Field(description="high, medium or low.")
    title: str
    object: AuditObject
    file: str | None
    line: int | None
    message: str = Field(description="What was found, in the requested language.")
    fix: str = Field(description="What to change.")
    cases: list[AuditCase] = Field(description="The library's cases the check is drawn from.")
    url: str


class AuditResult(BaseModel):
    objects: int = Field(description="Kubernetes objects read.")
    counts: dict[str, int] = Field(description="Findings by severity.")
    findings: list[AuditFinding]
    checks_run: list[str]
    checks_not_run: list[str] = Field(
        description="Checks that look for something missing and so need a whole cluster "
        "(whole_cluster=true for a complete dump)."
    )
    problems: list[str] = Field(description="Inputs that could not be read, with file:line.")


def audit_paths(
    checker: Checker, paths: list[str], lang: str, checks: list[str], whole_cluster: bool
) -> AuditResult:
    """Audit the manifests at `paths` (files or folders; never standard input, which carries
    the protocol). Raises CatalogueError for a bad argument."""
    if not paths:
        raise CatalogueError("name at least one file or folder of Kubernetes manifests")
    for path in paths:
        if path == "-" or not Path(path).exists():
            raise CatalogueError(f"no such file or folder: {path!r}")
    if lang not in ("ko", "en"):
        raise CatalogueError(f"unknown language {lang!r}", ("ko", "en"))
    cluster, problems, _ = manifests_cluster(paths, whole_cluster)
    try:
        outcome = checker.run(cluster, checks)
    except AuditError as exc:
        raise CatalogueError(str(exc)) from None
    report = json_report(outcome, lang, checker.cases(), checker.check_urls())
    return AuditResult(
        objects=report["objects"],
        counts=report["counts"],
        findings=[AuditFinding(**f) for f in report["findings"]],
        checks_run=report["checks_run"],
        checks_not_run=report["checks_not_run"],
        problems=problems,
    )
