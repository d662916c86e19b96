"""What `incidents status` and `incidents stats` print: coverage and counts. Pure."""

from __future__ import annotations

from ..languages import LANGS
from ..languages import name as language_name
from ..model.library import Library


def status_lines(library: Library) -> list[str]:
    """Translation coverage per language, and terms that no incident uses yet."""
    total = len(library.incidents)
    lines = [f"incidents: {total}"]
    for lang in LANGS:
        name = language_name(lang, "en")
        missing = [i.id for i in library.incidents if not i.has_language(lang)]
        covered = total - len(missing)
        share = f"{covered / total:.0%}" if total else "n/a"
        lines.append(f"{name} text: {covered}/{total} ({share})")
        lines.extend(f"  missing: {incident_id}" for incident_id in missing)
    unused = [t for t in library.taxonomy.terms() if library.count(t) == 0]
    lines.append(f"terms without incidents: {len(unused)}")
    lines.extend(f"  {t.facet}: {t.id} ({t.label_en} / {t.label_ko})" for t in unused)
    return lines


def stats_rows(library: Library) -> list[tuple[str, str, str, str, int]]:
    """(facet, term id, English label, Korean label, incidents) for every term, most used first."""
    rows = []
    for facet in library.taxonomy.facets:
        ranked = sorted(facet.terms, key=lambda t: (-library.count(t), t.id))
        rows.extend((facet.id, t.id, t.label_en, t.label_ko, library.count(t)) for t in ranked)
    return rows


def stats_lines(library: Library) -> list[str]:
    rows = stats_rows(library)
    width = max((len(r[1]) for r in rows), default=10)
    lines = []
    for facet in library.taxonomy.facets:
        facet_id = facet.id
        facet_rows = [r for r in rows if r[0] == facet_id]
        used = sum(1 for r in facet_rows if r[4])
        lines.append(f"{facet_id} ({used}/{len(facet_rows)} terms used)")
        lines.extend(f"  {r[4]:>5}  {r[1]:<{width}}  {r[2]} / {r[3]}" for r in facet_rows)
    return lines
