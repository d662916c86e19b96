"""Data for the library page's live filtering, shipped as classic scripts. Pure.

Two files per language, both plain `<script src>` files so they load from `file://` too:
- `terms.js`: facets, term labels and every name readers may type (for recommended filters and
  for labelling chips), and the interface strings; small, loaded on every library page.
- `cases.js`: every case with its text, for searching and filtering when Pagefind cannot load
  (a site opened from disk); loaded only there.
"""

from __future__ import annotations

import json
import re

from . import urls
from .i18n import strings_for
from .incident import SECTIONS, Incident
from .library import Library
from .taxonomy import FACETS

FILTER_FACETS: tuple[str, ...] = FACETS
_MARKUP = re.compile(r"[`*_#>\[\]()]|https?://\S+")


def sort_key(partial_date: str) -> str:
    """A sortable YYYY-MM-DD string for a partial date (missing parts sort first)."""
    parts = partial_date.split("-") + ["00", "00"]
    return "-".join(parts[:3])


_ID_CHARS = "-0123456789abcdefghijklmnopqrstuvwxyz"
_REVERSED_ID = str.maketrans(_ID_CHARS, _ID_CHARS[::-1])


def order_key(incident: Incident) -> str:
    """A string whose descending order is the library's order (newest occurrence, then newest
    publication, then id A to Z): the date sort of the search index and of cases.js, so a
    list sorted by date matches the pages built from the library, ties included."""
    meta = incident.meta
    # Ids are [a-z0-9-]; each character is replaced by its mirror in that alphabet, and '~'
    # (after every one of them) ends the id, so descending order of the result is A to Z.
    reversed_id = incident.id.lower().translate(_REVERSED_ID) + "~"
    return f"{sort_key(meta.occurred)} {sort_key(meta.published)} {reversed_id}"


def plain_text(markdown: str) -> str:
    """Markdown reduced to words for searching."""
    return " ".join(_MARKUP.sub(" ", markdown).split())


def terms_payload(library: Library, lang: str) -> dict:
    facets = []
    for facet_id in FILTER_FACETS:
        facet = library.taxonomy.facet(facet_id)
        terms = []
        for term in facet.terms:
            names = sorted({name for name in term.names() if name}, key=lambda n: (n.casefold(), n))
            terms.append(
                {
                    "id": term.id,
                    "label": term.label(lang),
                    "names": names,
                    "count": library.count(term),
                    "url": urls.term(lang, term)[len(lang) + 1 :],
                }
            )
        facets.append({"id": facet.id, "label": facet.label(lang), "terms": terms})
    return {
        "lang": lang,
        "total": len(library.incidents),
        "facets": facets,
        "strings": strings_for(lang),
    }


def cases_payload(library: Library, lang: str) -> list[dict]:
    cases = []
    for incident in library.incidents:
        text = incident.text(lang)
        organization = library.terms_of(incident, "organization")
        term_names = [
            name
            for facet in FACETS
            for t in library.terms_of(incident, facet)
            for name in t.names()
        ]
        body = " ".join(plain_text(text.section(key)) for key in SECTIONS)
        cases.append(
            {
                "id": incident.id,
                "url": urls.case(lang, incident.id)[len(lang) + 1 :],
                "title": text.title,
                "summary": text.summary,
                "lang": text.lang,
                "date": incident.meta.occurred,
                "sort": order_key(incident),
                "org": organization[0].label(lang) if organization else "",
                "terms": {f: list(incident.term_ids(f)) for f in FILTER_FACETS},
                "text": " ".join([text.title, text.summary, body, *term_names]),
            }
        )
    return cases


def as_script(variable: str, payload: object) -> str:
    """A classic script that sets `IncidentLibraryData.<variable>`; safe to inline nowhere else."""
    data = json.dumps(payload, ensure_ascii=False, separators=(",", ":"), sort_keys=False)
    # JSON is valid JavaScript; escape "</" so the data can never close a script element.
    data = data.replace("</", "<\\/")
    return (
        "window.IncidentLibraryData=window.IncidentLibraryData||{};"
        f"window.IncidentLibraryData.{variable}={data};\n"
    )
