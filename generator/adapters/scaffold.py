"""`incidents new`: write a canonical incident file and its translation, ready to fill in."""

from __future__ import annotations

import re
from dataclasses import dataclass
from pathlib import Path

from ..load.project import ProjectPaths
from ..model.incident import SECTION_HEADINGS, SECTIONS
from ..model.text import SLUG_PATTERN

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
    lang: str
    title: str
    organization: str
    domain: str
    occurred: str
    source_url: str


def _body(lang: str) -> str:
    parts = []
    for key in SECTIONS:
        parts.append(f"## {SECTION_HEADINGS[lang][key]}\n\n{_PLACEHOLDER[lang][key]}\n")
    return "\n".join(parts)


def _quote(value: str) -> str:
    return '"' + value.replace("\\", "\\\\").replace('"', '\\"') + '"'


def render_original(spec: Scaffold) -> str:
    return f"""---
# yaml-language-server: $schema=../schema/incident.schema.json
id: {spec.id}
title: {_quote(spec.title)}
summary: "TODO: one sentence on what happened and why it matters."
lang: {spec.lang}
occurred: {spec.occurred}
published: {spec.occurred}
organization: {spec.organization}
domain: [{spec.domain}]
symptom: [TODO]
cause: [TODO]
component: [TODO]
contributing_factor: []
scale: {{}}
sources:
  - url: {spec.source_url}
    title: "TODO: title of the report"
    publisher: "TODO: who published it"
    date: {spec.occurred}
---

{_body(spec.lang)}"""


def render_translation(spec: Scaffold) -> str:
    other = "ko" if spec.lang == "en" else "en"
    return f"""---
# yaml-language-server: $schema=../schema/translation.schema.json
title: "TODO: translated title"
summary: "TODO: translated summary"
---

{_body(other)}"""


def write_scaffold(paths: ProjectPaths, spec: Scaffold, force: bool = False) -> list[Path]:
    if not re.match(SLUG_PATTERN, spec.id):
        raise ValueError(
            f"id '{spec.id}' must be lowercase words joined by hyphens, e.g. acme-dns-outage"
        )
    if spec.lang not in SECTION_HEADINGS:
        raise ValueError(f"language '{spec.lang}' must be ko or en")
    other = "ko" if spec.lang == "en" else "en"
    original = paths.incidents / f"{spec.id}.md"
    translation = paths.incidents / f"{spec.id}.{other}.md"
    for target in (original, translation):
        if target.exists() and not force:
            raise FileExistsError(paths.display(target))
    paths.incidents.mkdir(parents=True, exist_ok=True)
    original.write_text(render_original(spec), encoding="utf-8")
    translation.write_text(render_translation(spec), encoding="utf-8")
    return [Path(paths.display(original)), Path(paths.display(translation))]
