"""The agent server driven as an agent that knows nothing of the library drives it, through the
official SDK's client over stdio: it finds the facets and languages in the tools' schemas, lists
each facet's terms with their counts, pages through every case, lists cases by filters alone and
reads the counts per facet, and every answer it gets stays under the stated bound. Also: the
handshake and the tool list are answered before the library has loaded."""

from __future__ import annotations

import asyncio
import json
import threading
from concurrent.futures import ThreadPoolExecutor

import pytest
from conftest import REPO
from test_adapters_mcp import session

from generator.agent.answers import ANSWER_LIMIT


@pytest.fixture(scope="module")
def library(repository_library):
    return repository_library


def test_an_agent_discovers_the_facets_pages_through_the_library_and_counts(library):
    answers: list = []

    async def call(client, tool: str, arguments: dict) -> dict:
        result = await client.call_tool(tool, arguments)
        assert not result.is_error, (tool, arguments, result.content[0].text)
        answers.append(result)
        return result.structured_content

    async def body(client):
        tools = {t.name: t for t in (await client.list_tools()).tools}
        schema = tools["search_incidents"].input_schema["properties"]
        (filters,) = [s for s in schema["filters"]["anyOf"] if s.get("type") == "object"]
        facets = list(filters["properties"])
        names = filters["propertyNames"]["enum"]
        langs = [v for v in schema["lang"]["enum"] if v]
        assert tools["list_terms"].input_schema["properties"]["facet"]["enum"] == names

        terms: dict[str, dict[str, int]] = {}
        for facet in facets:
            offset, terms[facet] = 0, {}
            while offset is not None:
                page = await call(client, "list_terms", {"facet": facet, "offset": offset})
                terms[facet] |= {t["id"]: t["cases"] for t in page["terms"]}
                offset = page["next_offset"]

        pages, offset = [], 0
        while offset is not None:
            page = await call(
                client, "search_incidents", {"lang": langs[-1], "limit": 50, "offset": offset}
            )
            pages.append(page)
            offset = page["next_offset"]

        # The facet with the most terms in use, and its most frequent term, as a filter alone.
        facet = max(facets, key=lambda f: sum(1 for n in terms[f].values() if n))
        term = max(terms[facet], key=terms[facet].get)
        listed, offset = [], 0
        while offset is not None:
            page = await call(
                client,
                "search_incidents",
                {"filters": {facet: [term]}, "lang": "en", "limit": 50, "offset": offset},
            )
            listed += [r["id"] for r in page["results"]]
            offset = page["next_offset"]
        aliased = await call(
            client, "search_incidents", {"filters": {"root_cause": ["gpu-failure"]}, "limit": 1}
        )
        first = pages[0]["results"][0]["id"]
        await call(client, "get_incident", {"id": first, "lang": "ko"})
        await call(client, "related_incidents", {"id": first, "limit": 50})
        await call(client, "top_components", {"limit": 50})
        return facets, names, langs, terms, pages, (facet, term, listed), aliased

    facets, names, langs, terms, pages, by_filter, aliased = session(["--root", str(REPO)], body)

    assert facets == [f.id for f in library.taxonomy.facets]
    assert {"root_cause", "factor", "organisation"} < set(names) and langs == ["ko", "en"]
    for facet in library.taxonomy.facets:
        assert terms[facet.id] == {t.id: library.count(t) for t in facet.terms}

    ids = [r["id"] for page in pages for r in page["results"]]
    assert ids == [i.id for i in library.incidents] and len(pages) > 1
    assert all(page["total"] == len(ids) for page in pages)
    # Counts per facet of the whole library are the terms' counts.
    for counts in pages[0]["facets"]:
        for term in counts["terms"]:
            assert term["cases"] == terms[counts["facet"]][term["id"]]

    facet, term, listed = by_filter
    chosen = library.taxonomy.term(facet, term)
    assert listed == [i.id for i in library.cases_with(chosen)]
    assert aliased["filters"] == {"cause": ["gpu-failure"]} and aliased["total"] > 0

    assert len(answers) > 10
    for result in answers:
        text = result.content[0].text
        assert json.loads(text) == result.structured_content
        assert len(text) <= ANSWER_LIMIT


def test_the_handshake_and_the_tool_list_do_not_wait_for_the_library(library):
    """In process (the SDK's own in-memory client), with a library whose loading is held back
    until the client has connected and listed the tools."""
    from mcp import Client

    from generator.adapters.mcp import build_server
    from generator.agent.catalogue import Catalogue
    from generator.agent.loading import LibrarySource, Loaded

    release = threading.Event()

    def load() -> Loaded:
        assert release.wait(60), "the client never connected"
        return Loaded(Catalogue(library))

    source = LibrarySource(library.taxonomy, "a held-back library", load)

    async def body():
        async with Client(build_server(source)) as client:
            tools = (await client.list_tools()).tools
            loaded_before = source._ready.is_set()
            release.set()
            found = await client.call_tool("search_incidents", {"query": "NCCL", "limit": 1})
            return client.server_info.version, tools, loaded_before, found

    with ThreadPoolExecutor(1) as pool:
        version, tools, loaded_before, found = pool.submit(asyncio.run, body()).result()
    assert version and "search_incidents" in {t.name for t in tools} and not loaded_before
    assert not found.is_error and found.structured_content["results"]
