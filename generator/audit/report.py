"""An audit's findings as text for people, JSON for tools, and SARIF 2.1.0 for code scanning.

Every finding names the object (and, for manifests, its file and line), what to change, and the
library's cases it is drawn from, with titles and URLs in the reader's language.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from urllib.parse import quote

from ..render.strings import t
from .catalogue import SEVERITIES, Check
from .engine import Finding, Outcome


@dataclass(frozen=True)
class CaseLink:
    id: str
    title: str
    url: str


Cases = Callable[[str, str], CaseLink]  # (incident id, lang) -> its title and URL there
CheckUrl = Callable[[str, str], str]  # (check id, lang) -> its page's URL

SARIF_SCHEMA = "https://json.schemastore.org/sarif-2.1.0.json"
SARIF_LEVEL = {"high": "error", "medium": "warning", "low": "note"}
TOOL = "incidents audit"


def counts(outcome: Outcome) -> dict[str, int]:
    found = {severity: 0 for severity in SEVERITIES}
    for finding in outcome.findings:
        found[finding.check.severity] += 1
    return found


def _where(finding: Finding) -> str:
    location = finding.location
    return f"{location[0]}:{location[1]}" if location else "cluster"


def text_report(outcome: Outcome, lang: str, cases: Cases) -> str:
    """Findings grouped by severity, most serious first, then a summary line."""
    lines: list[str] = []
    for severity in SEVERITIES:
        group = [f for f in outcome.findings if f.check.severity == severity]
        if not group:
            continue
        lines.append(f"== {t('severity_' + severity, lang)} ({len(group)})")
        for finding in group:
            check = finding.check
            lines.append(f"{_where(finding)}: {check.id}: {check.text('title', lang)}")
            message = finding.message(lang)
            ref = finding.resource.ref
            lines.append(f"  {message}" if ref in message else f"  {ref}: {message}")
            lines.append(f"  {t('audit_fix', lang)}: {_one_line(check.text('fix', lang))}")
            for incident in check.incidents:
                case = cases(incident, lang)
                lines.append(f"  {t('audit_cases', lang)}: {case.title} <{case.url}>")
        lines.append("")
    if not outcome.findings:
        lines.append(t("audit_none", lang))
    lines.append(summary(outcome, lang))
    if outcome.not_run:
        ids = ", ".join(c.id for c in outcome.not_run)
        lines.append(t("audit_not_run", lang, n=len(outcome.not_run), ids=ids))
    return "\n".join(lines) + "\n"


def summary(outcome: Outcome, lang: str) -> str:
    return t(
        "audit_summary", lang, objects=outcome.objects, checks=len(outcome.run), **counts(outcome)
    )


def _one_line(text: str) -> str:
    return " ".join(text.split())


def json_report(outcome: Outcome, lang: str, cases: Cases, check_url: CheckUrl) -> dict:
    """Findings and the checks that ran, for tools (stable keys, English field names)."""
    return {
        "lang": lang,
        "objects": outcome.objects,
        "counts": counts(outcome),
        "findings": [
            {
                "check": f.check.id,
                "severity": f.check.severity,
                "title": f.check.text("title", lang),
                "object": {
                    "kind": f.resource.kind,
                    "apiVersion": f.resource.api_version,
                    "namespace": f.resource.namespace,
                    "name": f.resource.name,
                },
                "file": f.location[0] if f.location else None,
                "line": f.location[1] if f.location else None,
                "message": f.message(lang),
                "fix": f.check.text("fix", lang),
                "cases": [vars(cases(i, lang)) for i in f.check.incidents],
                "url": check_url(f.check.id, lang),
            }
            for f in outcome.findings
        ],
        "checks_run": [c.id for c in outcome.run],
        "checks_not_run": [c.id for c in outcome.not_run],
    }


def sarif_report(outcome: Outcome, lang: str, cases: Cases, check_url: CheckUrl) -> dict:
    """A SARIF 2.1.0 log: one rule per check that ran, one result per finding. Findings in
    manifests point at their file and line, so code scanning annotates a pull request; findings
    in a live cluster carry the object as a logical location."""
    checks = list(outcome.run)
    index = {c.id: n for n, c in enumerate(checks)}
    return {
        "$schema": SARIF_SCHEMA,
        "version": "2.1.0",
        "runs": [
            {
                "tool": {
                    "driver": {
                        "name": TOOL,
                        "informationUri": check_url("", lang) or "https://github.com/",
                        "rules": [_sarif_rule(c, lang, cases, check_url) for c in checks],
                    }
                },
                "columnKind": "unicodeCodePoints",
                "results": [_sarif_result(f, index, lang) for f in outcome.findings],
            }
        ],
    }


def _sarif_rule(check: Check, lang: str, cases: Cases, check_url: CheckUrl) -> dict:
    links = [cases(i, lang) for i in check.incidents]
    markdown = "\n".join(
        [check.text("why", lang), "", f"**{t('check_fix', lang)}:** {check.text('fix', lang)}", ""]
        + [f"- [{c.title}]({c.url})" for c in links]
    )
    rule = {
        "id": check.id,
        "name": "".join(part.capitalize() for part in check.id.split("-")),
        "shortDescription": {"text": check.text("title", lang)},
        "fullDescription": {"text": _one_line(check.text("why", lang))},
        "help": {"text": _one_line(check.text("fix", lang)), "markdown": markdown},
        "defaultConfiguration": {"level": SARIF_LEVEL[check.severity]},
        "properties": {
            "tags": ["kubernetes", *check.term_ids("component")],
            "incidents": list(check.incidents),
        },
    }
    url = check_url(check.id, lang)
    if url.startswith(("http://", "https://")):
        rule["helpUri"] = url
    return rule


def _sarif_result(finding: Finding, index: dict[str, int], lang: str) -> dict:
    location = finding.location
    if location is not None:
        where = {
            "physicalLocation": {
                "artifactLocation": {"uri": _uri(location[0])},
                "region": {"startLine": max(1, location[1])},
            }
        }
    else:
        where = {
            "logicalLocations": [{"fullyQualifiedName": finding.resource.ref, "kind": "resource"}]
        }
    return {
        "ruleId": finding.check.id,
        "ruleIndex": index[finding.check.id],
        "level": SARIF_LEVEL[finding.check.severity],
        "message": {"text": f"{finding.resource.ref}: {finding.message(lang)}"},
        "locations": [where],
    }


def _uri(path: str) -> str:
    """A file path as a SARIF URI reference: relative with forward slashes (code scanning
    resolves it against the repository), absolute as a file: URI."""
    posix = path.replace("\\", "/")
    if posix.startswith("/"):
        return "file://" + quote(posix)
    return quote(posix.removeprefix("./"))
