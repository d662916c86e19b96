"""`api/incidents.db`, the library as a SQLite database: opened with `sqlite3` as an analyst
would (every case, text, term link, source and related case; foreign keys that hold; views that
count as the library does), written to the same bytes by two builds, and served by Datasette
with its metadata in both languages, a facet query answered through its JSON API."""

from __future__ import annotations

import asyncio
import json
import sqlite3
from collections import Counter
from concurrent.futures import ThreadPoolExecutor
from itertools import combinations

import pytest

from generator.model.library import build_library
from generator.outputs.database import (
    DATABASE,
    METADATA,
    PAGE_SIZE,
    database_bytes,
    database_files,
)
from generator.outputs.database_schema import TABLES, VIEWS


@pytest.fixture(scope="module")
def library(repository_library):
    return repository_library


@pytest.fixture(scope="module")
def database(library, tmp_path_factory):
    path = tmp_path_factory.mktemp("db") / "incidents.db"
    files = database_files(library, "https://incidents.example.org/")
    path.write_bytes(files[DATABASE])
    (path.parent / "incidents.metadata.json").write_bytes(files[METADATA])
    return path


def rows(database, sql: str, *args) -> list[tuple]:
    connection = sqlite3.connect(f"file:{database}?mode=ro", uri=True)
    try:
        return connection.execute(sql, args).fetchall()
    finally:
        connection.close()


def test_every_case_text_term_source_and_related_case_is_there(library, database):
    names = {name for (name,) in rows(database, "SELECT name FROM sqlite_master")}
    assert {t.name for t in TABLES} | {v.name for v in VIEWS} <= names
    assert rows(database, "PRAGMA foreign_key_check") == []
    assert rows(database, "PRAGMA page_size") == [(PAGE_SIZE,)]
    assert [r[0] for r in rows(database, "SELECT id FROM incidents ORDER BY position")] == [
        i.id for i in library.incidents
    ]
    texts = {
        (i, lang): title
        for i, lang, title in rows(database, "SELECT incident, lang, title FROM texts")
    }
    assert texts == {(i.id, t.lang): t.title for i in library.incidents for t in i.texts}
    imbue = library.incident("imbue-h100-cluster-bring-up")
    (lessons,) = rows(
        database, "SELECT lessons FROM texts WHERE incident = ? AND lang = 'ko'", imbue.id
    )[0]
    assert lessons == imbue.text("ko").section("lessons")
    counted = dict(((f, t), n) for f, t, n in rows(database, "SELECT facet, id, cases FROM terms"))
    assert counted == {(t.facet, t.id): library.count(t) for t in library.taxonomy.terms()}
    links = rows(database, "SELECT facet, term, COUNT(*) FROM incident_terms GROUP BY 1, 2")
    assert {(f, t): n for f, t, n in links} == {k: v for k, v in counted.items() if v}
    sources = rows(
        database, "SELECT url FROM sources WHERE incident = ? ORDER BY position", imbue.id
    )
    assert [u for (u,) in sources] == [str(s.url) for s in imbue.meta.sources]
    related = rows(
        database, "SELECT related FROM related WHERE incident = ? ORDER BY position", imbue.id
    )
    assert [r for (r,) in related] == [r.incident.id for r in library.related(imbue)]


def test_the_views_count_as_the_library_does(library, database):
    per_year = Counter()
    together = Counter()
    for incident in library.incidents:
        year = int(y) if (y := incident.meta.occurred[:4]).isdigit() else None
        keys = [(f.id, t) for f in library.taxonomy.facets for t in incident.term_ids(f.id)]
        for facet, term in keys:
            per_year[facet, term, year] += 1
        for a, b in combinations(sorted(keys), 2):
            if a[0] != b[0]:
                together[a + b] += 1
                together[b + a] += 1
    found = rows(database, "SELECT facet, term, year, cases FROM cases_per_term_and_year")
    assert {(f, t, y): n for f, t, y, n in found} == per_year
    pairs = rows(database, "SELECT facet_a, term_a, facet_b, term_b, cases FROM cooccurring_terms")
    assert {(a, b, c, d): n for a, b, c, d, n in pairs} == together
    titles = rows(database, "SELECT id, title_en, title_ko FROM case_titles ORDER BY position")
    assert titles == [(i.id, i.text("en").title, i.text("ko").title) for i in library.incidents]


def test_two_builds_give_the_same_bytes_whatever_order_the_cases_came_in(library):
    again = build_library(library.taxonomy, list(reversed(library.incidents)))
    first, second = database_bytes(library), database_bytes(again)
    assert first == second
    assert first[:16] == b"SQLite format 3\x00"


def test_datasette_serves_it_with_both_languages_and_answers_a_facet_query(library, database):
    from datasette.app import Datasette

    metadata = json.loads((database.parent / "incidents.metadata.json").read_text("utf-8"))

    async def ask():
        datasette = Datasette([str(database)], metadata=metadata)
        facet = await datasette.client.get(
            "/incidents/incident_terms.json?facet=cause&_facet=term&_size=0"
        )
        meta = await datasette.client.get("/-/metadata.json")
        table = await datasette.client.get("/incidents/texts")
        return facet, meta, table

    # On a thread of its own: a browser test may have left an event loop on this one.
    with ThreadPoolExecutor(1) as pool:
        facet, meta, table = pool.submit(asyncio.run, ask()).result()
    assert facet.status_code == meta.status_code == table.status_code == 200
    counts = {r["value"]: r["count"] for r in facet.json()["facet_results"]["term"]["results"]}
    assert counts == {
        t.id: library.count(t) for t in library.taxonomy.facet("cause").terms if library.count(t)
    }
    served = meta.json()
    tables = served["databases"]["incidents"]["tables"]
    assert set(tables) == {t.name for t in TABLES} | {v.name for v in VIEWS}
    for described in [served["description"], *(t["description"] for t in tables.values())]:
        assert any("가" <= c <= "힣" for c in described) and any(
            c.isascii() and c.isalpha() for c in described
        )
    columns = tables["texts"]["columns"]
    assert columns["lessons"].startswith("The Lessons section") and "교훈" in columns["lessons"]
    assert "각 언어" in table.text or "언어별" in table.text
