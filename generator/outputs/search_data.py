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

from ..model.incident import SECTIONS
from ..model.library import Library, order_key
from ..pages import urls
from ..render.strings import strings_for

_MARKUP = re.compile(r"[`*_#>\[\]()]|https?://\S+")


def plain_text(markdown: str) -> str:
    """Markdown reduced to words for searching."""
    return " ".join(_MARKUP.sub(" ", markdown).split())


def terms_payload(library: Library, lang: str) -> dict:
    facets = []
    for facet in library.taxonomy.facets:
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
        facets.append(
            {
                "id": facet.id,
                "label": facet.label(lang),
                # What the browser does with the facet, as taxonomy.yml declares it.
                "descriptive": facet.descriptive,
                "byline": facet.byline,
                "checklist": facet.checklist,
                "terms": terms,
            }
        )
    return {
        "lang": lang,
        "total": len(library.incidents),
        "graph": list(library.taxonomy.graph),
        "facets": facets,
        "strings": strings_for(lang),
    }


def cases_payload(library: Library, lang: str) -> list[dict]:
    cases = []
    for incident in library.incidents:
        text = incident.text(lang)
        byline = library.byline(incident)
        term_names = [
            name
            for facet in library.taxonomy.facets
            for t in library.terms_of(incident, facet.id)
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
                "org": ", ".join(t.label(lang) for t in byline),
                "terms": {f.id: list(incident.term_ids(f.id)) for f in library.taxonomy.facets},
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
