"""Machine-readable outputs of the library: JSON exports with their schemas, and Atom feeds. Pure.

The export formats are pydantic models, so the JSON Schema published beside each export is
generated from the same definition that builds it and the two cannot drift apart.
"""

from __future__ import annotations

import functools
import json
import uuid
from xml.sax.saxutils import escape, quoteattr

from pydantic import BaseModel, ConfigDict, Field

from ..languages import LANGS
from ..model.incident import SECTIONS
from ..model.library import Library
from ..model.text import OCCURRED_DESCRIPTION, OCCURRED_PATTERN
from ..pages import urls
from ..render import strings
from .database import database_files
from .schema import incident_schema

EXPORT_VERSION = 1
FEED_SIZE = 20


class _Export(BaseModel):
    model_config = ConfigDict(extra="forbid")


class ExportTerm(_Export):
    facet: str
    id: str
    label: dict[str, str] = Field(description="Label by language (ko, en).")


class ExportText(_Export):
    lang: str = Field(description="Language of this text.")
    translated: bool = Field(description="False for the original text.")
    title: str
    summary: str
    sections: dict[str, str] = Field(description="Markdown of each section, by section key.")


class ExportSource(_Export):
    url: str
    title: str
    publisher: str
    date: str


class ExportIncident(_Export):
    id: str
    occurred: str = Field(pattern=OCCURRED_PATTERN, description=OCCURRED_DESCRIPTION)
    ended: str | None
    published: str
    original_language: str
    terms: dict[str, list[ExportTerm]] = Field(description="Terms by facet.")
    scale: dict[str, int] = Field(description="gpus, hosts, nodes, clusters where known.")
    not_in_sources: list[str] = Field(
        description="Sections the sources do not cover (the case is partial there)."
    )
    summary_only: list[str] = Field(
        default_factory=list,
        description="Sections whose facts come only from a secondary summary of the source.",
    )
    distinct_from: list[str] = Field(
        default_factory=list,
        description="Ids of cases that look alike but are different incidents (reviewed).",
    )
    sources: list[ExportSource]
    texts: dict[str, ExportText] = Field(description="Text by language, where it exists.")
    pages: dict[str, str] = Field(description="Site-relative URL of the case page, by language.")


class IncidentsExport(_Export):
    version: int = Field(description="Format version; changes only when fields are removed.")
    site_url: str | None = Field(
        default=None,
        description="The site's address, when the build knew it; page URLs are relative to it.",
    )
    count: int
    incidents: list[ExportIncident] = Field(description="Newest first.")


class ExportTaxonomyTerm(_Export):
    id: str
    label: dict[str, str]
    description: dict[str, str]
    aliases: dict[str, list[str]]
    parent: str | None
    cases: int = Field(description="Number of incidents tagged with the term.")
    pages: dict[str, str]


class ExportFacet(_Export):
    id: str
    label: dict[str, str]
    description: dict[str, str]
    terms_per_case: str = Field(description="`one` or `many`, as taxonomy.yml declares.")
    required: bool
    role: str = Field(description="`context` or `descriptive`.")
    color: str
    case_section: str | None
    checklist: bool
    byline: bool
    terms: list[ExportTaxonomyTerm]


class TaxonomyExport(_Export):
    version: int
    graph: list[str] = Field(description="The facets the library page's graph draws.")
    matrices: list[list[str]] = Field(description="Co-occurrence tables, rows × columns.")
    facets: list[ExportFacet]


def _term(term) -> ExportTerm:
    return ExportTerm(
        facet=term.facet, id=term.id, label={"ko": term.label_ko, "en": term.label_en}
    )


def incidents_export(library: Library, site_url: str = "") -> IncidentsExport:
    out = []
    for incident in library.incidents:
        meta = incident.meta
        texts = {
            text.lang: ExportText(
                lang=text.lang,
                translated=text.lang != meta.lang,
                title=text.title,
                summary=text.summary,
                sections={key: text.section(key) for key in SECTIONS},
            )
            for text in incident.texts
        }
        scale = meta.scale.model_dump(exclude_none=True) if meta.scale else {}
        out.append(
            ExportIncident(
                id=incident.id,
                occurred=meta.occurred,
                ended=meta.ended,
                published=meta.published,
                original_language=meta.lang,
                terms={
                    f.id: [_term(t) for t in library.terms_of(incident, f.id)]
                    for f in library.taxonomy.facets
                },
                scale=scale,
                not_in_sources=list(meta.not_in_sources),
                summary_only=list(meta.summary_only),
                distinct_from=list(meta.distinct_from),
                sources=[ExportSource(**s.model_dump()) for s in meta.sources],
                texts=texts,
                pages={lang: urls.case(lang, incident.id) for lang in LANGS},
            )
        )
    return IncidentsExport(
        version=EXPORT_VERSION, site_url=site_url or None, count=len(out), incidents=out
    )


def taxonomy_export(library: Library) -> TaxonomyExport:
    facets = []
    for facet in library.taxonomy.facets:
        terms = [
            ExportTaxonomyTerm(
                id=t.id,
                label={"ko": t.label_ko, "en": t.label_en},
                description={"ko": t.description_ko, "en": t.description_en},
                aliases={"ko": list(t.aliases_ko), "en": list(t.aliases_en)},
                parent=t.parent,
                cases=library.count(t),
                pages={lang: urls.term(lang, t) for lang in LANGS},
            )
            for t in facet.terms
        ]
        facets.append(
            ExportFacet(
                id=facet.id,
                label={"ko": facet.label_ko, "en": facet.label_en},
                description={"ko": facet.description_ko, "en": facet.description_en},
                terms_per_case="one" if facet.single else "many",
                required=facet.required,
                role=facet.role,
                color=facet.color,
                case_section=facet.case_section,
                checklist=facet.checklist,
                byline=facet.byline,
                terms=terms,
            )
        )
    taxonomy = library.taxonomy
    return TaxonomyExport(
        version=EXPORT_VERSION,
        graph=list(taxonomy.graph),
        matrices=[list(pair) for pair in taxonomy.matrices],
        facets=facets,
    )


def _json(value) -> str:
    return json.dumps(value, ensure_ascii=False, indent=1, sort_keys=False) + "\n"


def _incidents_json(export: IncidentsExport) -> bytes:
    """The export as JSON with one incident per line, each written compactly by pydantic's own
    serializer: a reader, grep or a diff still goes case by case, and an indented json.dumps of
    the whole would be written by Python character by character, several times slower. As
    UTF-8 bytes, joined once: as text, the same JSON holds Korean in two bytes a character,
    hundreds of megabytes more at a large build's peak."""
    compact = functools.partial(json.dumps, ensure_ascii=False, separators=(",", ":"))
    head = export.model_dump(mode="json", exclude={"incidents"})
    parts: list[bytes] = []
    for name in type(export).model_fields:
        parts.append(b",\n" if parts else b"{\n")
        if name != "incidents":
            parts.append(f"{compact(name)}:{compact(head[name])}".encode())
            continue
        parts.append(b'"incidents":[')
        for n, row in enumerate(export.incidents):
            parts.append(b",\n" if n else b"\n")
            parts.append(row.model_dump_json().encode())  # a row's text is brief
        parts.append(b"\n]" if export.incidents else b"]")
    parts.append(b"\n}\n")
    return b"".join(parts)


def api_files(library: Library, site_url: str = "") -> dict[str, bytes]:
    """Site-relative path -> content of every file under /api/: the JSON exports and their
    schemas (UTF-8), the SQLite database and its Datasette metadata."""
    texts = {
        "api/incidents.schema.json": _json(IncidentsExport.model_json_schema()),
        "api/taxonomy.json": _json(taxonomy_export(library).model_dump(mode="json")),
        "api/taxonomy.schema.json": _json(TaxonomyExport.model_json_schema()),
        "api/incident-front-matter.schema.json": _json(incident_schema(library.taxonomy)),
    }
    files = {path: text.encode("utf-8") for path, text in texts.items()}
    export = incidents_export(library, site_url)
    return {
        "api/incidents.json": _incidents_json(export),
        **files,
        **database_files(library, site_url),
    }


def _timestamp(partial_date: str) -> str:
    parts = (partial_date.split("-") + ["01", "01"])[:3]
    return f"{parts[0]}-{parts[1]}-{parts[2]}T00:00:00Z"


# Where a feed's ids come from when the site's address is unknown (see `atom_feed`).
_FEED_IDS = uuid.uuid5(uuid.NAMESPACE_URL, "urn:incident-library:feed")


def atom_feed(library: Library, lang: str, site_url: str) -> str:
    """An Atom feed of the newest cases in `lang`; dates come from the data, never the clock.

    Atom ids are absolute. Without the site's address (`site_url` ""), links are relative to the
    feed (it is `<lang>/feed.xml`) and each id is a name-based UUID of the page's path: stable
    from build to build, claiming no address, and different once the address is set (the
    build's warning says so)."""
    base = site_url if not site_url or site_url.endswith("/") else site_url + "/"
    here = f"{lang}/feed.xml"

    def address(path: str) -> str:
        return base + path if base else urls.relative(here, path)

    def identity(path: str) -> str:
        return base + path if base else uuid.uuid5(_FEED_IDS, path).urn

    newest = sorted(library.incidents, key=lambda i: (i.meta.published, i.id), reverse=True)
    entries = newest[:FEED_SIZE]
    updated = _timestamp(entries[0].meta.published) if entries else "1970-01-01T00:00:00Z"
    title = strings.t("feed_title", lang)
    lines = [
        '<?xml version="1.0" encoding="utf-8"?>',
        f'<feed xmlns="http://www.w3.org/2005/Atom" xml:lang="{lang}">',
        f"  <title>{escape(title)}</title>",
        f"  <id>{escape(identity(here))}</id>",
        f'  <link rel="self" href={quoteattr(address(here))}/>',
        f'  <link rel="alternate" type="text/html" href={quoteattr(address(urls.home(lang)))}/>',
        f"  <updated>{updated}</updated>",
        "  <author><name>Incident Library contributors</name></author>",
    ]
    for incident in entries:
        text = incident.text(lang)
        byline = library.byline(incident)
        path = urls.case(lang, incident.id)
        page = address(path)
        lines += [
            "  <entry>",
            f"    <id>{escape(identity(path))}</id>",
            f"    <title>{escape(text.title)}</title>",
            f'    <link rel="alternate" type="text/html" href={quoteattr(page)}/>',
            f"    <published>{_timestamp(incident.meta.published)}</published>",
            f"    <updated>{_timestamp(incident.meta.published)}</updated>",
            f"    <summary>{escape(text.summary)}</summary>",
        ]
        for author in byline:
            lines.append(f"    <author><name>{escape(author.label(lang))}</name></author>")
        for term in library.descriptive_terms(incident):
            key = quoteattr(term.facet + ":" + term.id)
            lines.append(f"    <category term={key} label={quoteattr(term.label(lang))}/>")
        lines.append("  </entry>")
    lines.append("</feed>")
    return "\n".join(lines) + "\n"
