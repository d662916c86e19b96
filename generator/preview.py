"""Live preview: which generated pages an edit touches, so `serve --dirty` rebuilds only those.

Pure. A page is rebuilt when its own incident changed, when it lists incidents (library homes,
facet pages, matrices, the terms of a changed incident), or when the taxonomy changed. Other case
pages may show a stale "related cases" title until the next full build; that is the preview's
trade for an edit showing in a second or two on a large library.
"""

from __future__ import annotations

import hashlib

from .incident import Incident
from .library import Library
from .pages import Page
from .taxonomy import FACETS

# Pages that summarise the whole library: any change may move their counts.
SUMMARY_TEMPLATES = frozenset({"facet.html", "matrix.html", "root.html"})
# Pages that list a slice of cases: rebuilt when the slice, or a case in it, changed.
LISTING_TEMPLATES = frozenset({"home.html", "term.html"})


def listing(page: Page) -> tuple[str, ...]:
    """The ids of the cases a listing page shows, in order."""
    return tuple(i.id for i in page.data["incidents"])


def incident_digest(incident: Incident) -> str:
    parts = [incident.meta.model_dump_json()]
    for text in incident.texts:
        parts += [text.lang, text.title, text.summary, *(s.markdown for s in text.sections)]
    return hashlib.sha256("\x00".join(parts).encode("utf-8")).hexdigest()


def library_digests(library: Library) -> dict[str, str]:
    """Incident id -> digest of its content, plus the taxonomy under the key ''."""
    digests = {i.id: incident_digest(i) for i in library.incidents}
    digests[""] = hashlib.sha256(repr(library.taxonomy).encode("utf-8")).hexdigest()
    return digests


def touched_pages(
    before: dict[str, str] | None,
    library: Library,
    previous: Library | None,
    pages: list[Page],
    listed: dict[str, tuple[str, ...]] | None = None,
) -> set[str]:
    """Source URIs of the pages to rebuild after an edit (all of them the first time).

    `listed` maps each listing page of the previous build to the cases it showed."""
    after = library_digests(library)
    if before is None or previous is None or before.get("") != after[""]:
        return {p.src_uri for p in pages}
    changed = {i for i in set(before) | set(after) if before.get(i) != after.get(i)}
    if not changed:
        return set()
    terms = set()
    for lib in (previous, library):
        for incident_id in changed:
            if incident_id in lib._by_id:
                incident = lib.incident(incident_id)
                terms |= {(f, t) for f in FACETS for t in incident.term_ids(f)}
    listed = listed or {}
    touched = set()
    for page in pages:
        if page.template in SUMMARY_TEMPLATES:
            touched.add(page.src_uri)
        elif page.template == "case.html":
            if page.data["incident"].id in changed:
                touched.add(page.src_uri)
        elif page.template in LISTING_TEMPLATES:
            shown = listing(page)
            own_term = page.template == "term.html" and page.data["term"].key in terms
            if (
                listed.get(page.src_uri) != shown
                or (changed & set(shown))
                or (own_term and page.data["pagination"].number == 1)
            ):
                touched.add(page.src_uri)
    return touched
