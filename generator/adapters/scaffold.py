"""`incidents new`: write a canonical incident file and its translation, ready to fill in.

The front matter has a field for every facet the taxonomy declares, in its order. Values given
on the command line are checked as `incidents check` checks them: a value that cannot be right
(a date that is not a date, a URL that is not http(s), an id the checker refuses) stops the
command with the same message; a term the taxonomy lacks is written as given, so the checker
names it with a suggestion, and every value not given is a TODO the checker flags.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path

from ..languages import LANGS, other
from ..load.project import ProjectPaths
from ..model.incident import SECTION_HEADINGS, SECTIONS, _http_url
from ..model.taxonomy import Taxonomy
from ..model.text import SLUG_PATTERN, parse_occurred, parse_partial_date
from ..pages.urls import RESERVED_INCIDENT_IDS
from ..validate.diagnostics import closest

_PLACEHOLDER = {
    "en": {
        "symptoms": "TODO: what people saw.",
        "trigger": "TODO: what set it off.",
        "detection": "TODO: how it was noticed (alerts, health checks, metrics, users).",
        "actions": "- TODO: what was done during the incident.",
        "follow_ups": "- TODO: lasting changes made afterwards.",
        "lessons": "TODO: what other operators should take away.",
    },
    "ko": {
        "symptoms": "TODO: 무엇이 보였는지.",
        "trigger": "TODO: 무엇이 촉발했는지.",
        "detection": "TODO: 어떻게 알아챘는지(경보, 헬스 체크, 지표, 사용자).",
        "actions": "- TODO: 사고 중에 한 일.",
        "follow_ups": "- TODO: 이후에 남긴 변경.",
        "lessons": "TODO: 다른 운영자가 가져갈 교훈.",
    },
}


@dataclass(frozen=True)
class Scaffold:
    id: str
    lang: str = "en"
    title: str = ""
    occurred: str = ""
    published: str = ""
    source_url: str = ""
    terms: dict[str, tuple[str, ...]] = field(default_factory=dict)  # facet -> term ids given


def problems(spec: Scaffold, taxonomy: Taxonomy, paths: ProjectPaths, force: bool) -> list[str]:
    """What makes the scaffold impossible to write, each as `--option: what is wrong`."""
    import re

    found = []
    if not re.match(SLUG_PATTERN, spec.id) or len(spec.id) > 80:
        found.append(
            f"id '{spec.id}': an id is lowercase words joined by hyphens, e.g. acme-dns-outage, "
            "at most 80 characters"
        )
    elif spec.id in RESERVED_INCIDENT_IDS:
        found.append(f"id '{spec.id}' is the name of a page of the site; choose another")
    if spec.lang not in LANGS:
        found.append(f"--lang: '{spec.lang}' must be ko or en")
    if spec.occurred and parse_occurred(spec.occurred) is None:
        found.append(
            f"--occurred: '{spec.occurred}' is not a date: write YYYY, YYYY-MM or YYYY-MM-DD, "
            "or unknown when the sources give no date"
        )
    if spec.published and parse_partial_date(spec.published) is None:
        found.append(
            f"--published: '{spec.published}' is not a date: write YYYY, YYYY-MM or YYYY-MM-DD"
        )
    if spec.source_url:
        try:
            _http_url(spec.source_url)
        except ValueError as exc:
            found.append(f"--source-url: {exc}; write the full address, e.g. https://…")
    for facet_id, ids in spec.terms.items():
        if not taxonomy.has_facet(facet_id):
            hint = closest(facet_id, taxonomy.ids)
            found.append(
                f"--term: unknown facet '{facet_id}'"
                + (f" (did you mean '{hint}'?)" if hint else "")
            )
        elif taxonomy.facet(facet_id).single and len(ids) > 1:
            found.append(f"--{facet_id.replace('_', '-')}: a case names one {facet_id}")
    if not found and spec.lang in LANGS and not force:
        for target in targets(paths, spec):
            if target.exists():
                found.append(f"{paths.display(target)}: already exists (use --force to overwrite)")
    return found


def notes(spec: Scaffold, taxonomy: Taxonomy) -> list[str]:
    """Terms given that the taxonomy lacks: written as given, for the checker to name."""
    out = []
    for facet_id, ids in spec.terms.items():
        if not taxonomy.has_facet(facet_id):
            continue
        for term_id in ids:
            if taxonomy.term(facet_id, term_id) is None:
                hint = taxonomy.suggest(facet_id, term_id)
                out.append(
                    f"note: '{term_id}' is not yet a term of {facet_id}"
                    + (f" (did you mean '{hint}'?)" if hint else "; propose it in taxonomy.yml")
                )
    return out


def targets(paths: ProjectPaths, spec: Scaffold) -> tuple[Path, Path]:
    return (
        paths.incidents / f"{spec.id}.md",
        paths.incidents / f"{spec.id}.{other(spec.lang)}.md",
    )


def _body(lang: str) -> str:
    return "\n".join(
        f"## {SECTION_HEADINGS[lang][key]}\n\n{_PLACEHOLDER[lang][key]}\n" for key in SECTIONS
    )


def _quote(value: str) -> str:
    return '"' + value.replace("\\", "\\\\").replace('"', '\\"') + '"'


def render_original(spec: Scaffold, taxonomy: Taxonomy) -> str:
    lines = [
        "---",
        "# yaml-language-server: $schema=../schema/incident.schema.json",
        f"id: {spec.id}",
        f"title: {_quote(spec.title or 'TODO: a short, specific title')}",
        'summary: "TODO: one sentence on what happened and why it matters."',
        f"lang: {spec.lang}",
        f"occurred: {spec.occurred or 'TODO'}",
        f"published: {spec.published or 'TODO'}",
    ]
    for facet in taxonomy.facets:
        given = spec.terms.get(facet.id, ())
        if facet.single:
            lines.append(f"{facet.id}: {given[0] if given else 'TODO'}")
        else:
            shown = ", ".join(given) if given else ("TODO" if facet.required else "")
            lines.append(f"{facet.id}: [{shown}]")
    lines += [
        "scale: {}",
        "sources:",
        f"  - url: {spec.source_url or 'TODO'}",
        '    title: "TODO: title of the report, as published"',
        '    publisher: "TODO: who published it"',
        f"    date: {spec.published or 'TODO'}",
        "---",
        "",
        _body(spec.lang),
    ]
    return "\n".join(lines)


def render_translation(spec: Scaffold) -> str:
    return f"""---
# yaml-language-server: $schema=../schema/translation.schema.json
title: "TODO: translated title"
summary: "TODO: translated summary"
---

{_body(other(spec.lang))}"""


def write_scaffold(paths: ProjectPaths, spec: Scaffold, taxonomy: Taxonomy) -> list[str]:
    """Write both files (problems() has been checked); their paths as contributors see them."""
    original, translation = targets(paths, spec)
    paths.incidents.mkdir(parents=True, exist_ok=True)
    original.write_text(render_original(spec, taxonomy), encoding="utf-8")
    translation.write_text(render_translation(spec), encoding="utf-8")
    return [paths.display(original), paths.display(translation)]
