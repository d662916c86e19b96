"""The library as a SQLite database (`api/incidents.db`), for SQL and Datasette. Pure: the
database is made in memory and handed over as bytes.

One table per concept (facets, terms and their aliases, incidents, their texts per language,
the terms of each incident, sources, sections the sources do not cover or that only a summary of
them supports, related and distinct cases), with foreign keys and indexes, and views for the
common questions (cases per term and year, terms that occur together). The tables, their
columns and what each means are declared once, in database_schema.py: the schema and the
Datasette metadata (`api/incidents.metadata.json`, titles and descriptions in both languages)
are both made from that declaration.

Two builds of the same library give the same bytes: a fixed page size, rows in the library's
order (or by key), no timestamps, and a VACUUM before the bytes are taken.
"""

from __future__ import annotations

import json
import sqlite3
from collections.abc import Iterator

from ..languages import LANGS
from ..model.incident import SECTIONS
from ..model.library import Library
from ..pages import urls
from ..render.strings import t
from .database_schema import INDEXES, TABLES, VIEWS, Table

DATABASE = "api/incidents.db"
METADATA = "api/incidents.metadata.json"
PAGE_SIZE = 4096
FORMAT_VERSION = 1  # PRAGMA user_version: changes only when tables or columns are removed


def _create(table: Table) -> str:
    parts = [f"{c.name} {c.kind}" for c in table.columns] + list(table.constraints)
    # A table of short rows keyed by several columns is stored in its key's order, without a
    # second copy of the key (about half the size of the links between cases and terms).
    tail = " WITHOUT ROWID" if table.by_key else ""
    return f"CREATE TABLE {table.name} (\n  " + ",\n  ".join(parts) + "\n)" + tail


def _rows(library: Library) -> Iterator[tuple[str, tuple]]:
    """(table, row) for every row, each table's in a stable order."""
    taxonomy = library.taxonomy
    for n, f in enumerate(taxonomy.facets):
        terms_per_case = "one" if f.single else "many"
        yield "facets", (f.id, n, f.label_en, f.label_ko, f.description_en, f.description_ko,
                         terms_per_case, int(f.required), f.role)  # fmt: skip
    for f in taxonomy.facets:
        for n, term in enumerate(f.terms):
            yield "terms", (f.id, term.id, n, term.label_en, term.label_ko, term.description_en,
                            term.description_ko, term.parent, library.count(term))  # fmt: skip
            for lang in LANGS:
                for alias in dict.fromkeys(term.aliases(lang)):
                    yield "aliases", (f.id, term.id, lang, alias)
    for position, incident in enumerate(library.incidents):
        meta, scale = incident.meta, incident.meta.scale
        year = meta.occurred[:4]
        yield "incidents", (
            incident.id, position, meta.occurred, int(year) if year.isdigit() else None,
            meta.ended, meta.published, meta.lang,
            *(getattr(scale, k) if scale else None for k in ("gpus", "hosts", "nodes", "clusters")),
            urls.case("en", incident.id), urls.case("ko", incident.id),
        )  # fmt: skip
        for text in incident.texts:
            yield "texts", (incident.id, text.lang, int(text.lang != meta.lang), text.title,
                            text.summary, *(text.section(k) for k in SECTIONS))  # fmt: skip
        for f in taxonomy.facets:
            for n, term_id in enumerate(incident.term_ids(f.id)):
                yield "incident_terms", (incident.id, f.id, term_id, n)
        for n, source in enumerate(meta.sources):
            yield "sources", (incident.id, n, str(source.url), source.title, source.publisher,
                              source.date)  # fmt: skip
        for key in dict.fromkeys(meta.not_in_sources):
            yield "not_in_sources", (incident.id, key)
        for key in dict.fromkeys(meta.summary_only):
            yield "summary_only", (incident.id, key)
        for n, entry in enumerate(library.related(incident)):
            yield "related", (incident.id, n, entry.incident.id, len(entry.shared))
        for other in dict.fromkeys(meta.distinct_from):
            yield "distinct_from", (incident.id, other)


def database_bytes(library: Library) -> bytes:
    """The library as a SQLite database file."""
    connection = sqlite3.connect(":memory:")
    try:
        connection.execute(f"PRAGMA page_size = {PAGE_SIZE}")
        connection.execute(f"PRAGMA user_version = {FORMAT_VERSION}")
        for table in TABLES:
            connection.execute(_create(table))
        for index in INDEXES:
            connection.execute(index)
        for view in VIEWS:
            connection.execute(f"CREATE VIEW {view.name} AS\n{view.sql}")
        width = {table.name: len(table.columns) for table in TABLES}
        batches: dict[str, list[tuple]] = {table.name: [] for table in TABLES}
        for name, row in _rows(library):
            batches[name].append(row)
        for name, rows in batches.items():
            marks = ", ".join("?" * width[name])
            connection.executemany(f"INSERT INTO {name} VALUES ({marks})", rows)
        connection.commit()
        problems = connection.execute("PRAGMA foreign_key_check").fetchall()
        if problems:  # the library is validated: this is a defect of this module
            raise ValueError(f"incidents.db: rows without what they refer to: {problems[:3]}")
        connection.execute("VACUUM")
        return connection.serialize()
    finally:
        connection.close()


def datasette_metadata(library: Library, site_url: str = "") -> dict:
    """Datasette's metadata for the database: titles and descriptions in both languages."""

    def both(en: str, ko: str) -> str:
        return en if en == ko else f"{en} / {ko}"

    tables = {
        table.name: {
            "title": table.name,
            "description": both(table.en, table.ko),
            "columns": {c.name: both(c.en, c.ko) for c in table.columns},
            **({"facets": list(table.facets)} if table.facets else {}),
        }
        for table in TABLES
    }
    for view in VIEWS:
        tables[view.name] = {
            "title": view.name,
            "description": both(view.en, view.ko),
            **({"facets": list(view.facets)} if view.facets else {}),
        }
    title = both(t("site_title", "en"), t("site_title", "ko"))
    description = both(t("library_intro", "en"), t("library_intro", "ko"))
    database = {"title": title, "description": description, "tables": tables}
    if site_url:
        database |= {"source": t("site_title", "en"), "source_url": site_url}
    return {"title": title, "description": description, "databases": {"incidents": database}}


def database_files(library: Library, site_url: str = "") -> dict[str, bytes]:
    """Site-relative path -> content of the database and its Datasette metadata."""
    metadata = json.dumps(datasette_metadata(library, site_url), ensure_ascii=False, indent=1)
    return {DATABASE: database_bytes(library), METADATA: (metadata + "\n").encode("utf-8")}
