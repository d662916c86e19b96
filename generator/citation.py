"""How to cite a case: plain text and BibTeX, with a stable permalink. Pure."""

from __future__ import annotations

import re
from dataclasses import dataclass

from . import urls
from .incident import Incident
from .library import Library

_BIBTEX_SPECIAL = re.compile(r"([&%$#_{}~^\\])")


@dataclass(frozen=True)
class Citation:
    permalink: str
    text: str
    bibtex: str


def _bibtex_escape(value: str) -> str:
    def replace(match: re.Match) -> str:
        char = match.group(1)
        return {
            "~": r"\textasciitilde{}",
            "^": r"\textasciicircum{}",
            "\\": r"\textbackslash{}",
        }.get(char, "\\" + char)

    return _BIBTEX_SPECIAL.sub(replace, value)


def cite(library: Library, incident: Incident, lang: str, site_url: str) -> Citation:
    """The citation of a case page; the permalink is the page's address, which never changes."""
    base = site_url if site_url.endswith("/") else site_url + "/"
    permalink = base + urls.case(lang, incident.id)
    text = incident.text(lang)
    organization = library.terms_of(incident, "organization")
    org = organization[0].label(lang) if organization else ""
    year = incident.meta.published[:4]
    if lang == "ko":
        plain = f'Incident Library 기여자. "{text.title}". Incident Library, {year}. {permalink}'
    else:
        plain = (
            f'Incident Library contributors. "{text.title}". Incident Library, {year}. {permalink}'
        )
    first = incident.meta.sources[0]
    note = f"Case summary of {first.publisher}, {first.title}, {first.date}"
    fields = [
        ("title", "{" + _bibtex_escape(text.title) + "}"),
        ("author", "{Incident Library contributors}"),
        ("year", year),
        ("howpublished", "{\\url{" + permalink + "}}"),
        ("note", "{" + _bibtex_escape(note) + "}"),
        ("keywords", "{" + _bibtex_escape(", ".join(filter(None, [org, incident.id]))) + "}"),
    ]
    body = ",\n".join(f"  {key} = {value}" for key, value in fields)
    key = "incident-library:" + incident.id
    return Citation(permalink, plain, f"@misc{{{key},\n{body}\n}}")
