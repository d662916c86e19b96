"""The Python engine (generator/search/) against the search vectors."""

from __future__ import annotations

import pytest
from search_vectors import corpus, vectors

from generator.search.analyzer import default_analyzer
from generator.search.engine import passage, query_groups, search

DATA = vectors()


@pytest.mark.parametrize("case", DATA["words"], ids=lambda c: c["text"])
def test_query_words(case):
    assert default_analyzer().words(case["text"]) == case["words"]


@pytest.mark.parametrize("case", DATA["document_words"], ids=lambda c: c["text"])
def test_document_words(case):
    assert default_analyzer().document_words(case["text"]) == case["words"]


@pytest.mark.parametrize("case", DATA["searches"], ids=lambda c: c["query"] or "(filters)")
def test_searches(case):
    result = search(corpus(), case["query"], case.get("filters"))
    assert list(result.ids) == case["ids"]
    assert list(result.dropped) == case.get("dropped", [])
    assert [list(c) for c in result.corrections] == case.get("corrections", [])
    if "required" in case:
        assert result.required == case["required"]
    assert result.exact == case.get("exact", len(result.ids))
    for facet, expected in case.get("counts", {}).items():
        assert dict(result.counts[facet]) == expected


@pytest.mark.parametrize("case", DATA["passages"], ids=lambda c: c["query"])
def test_passages(case):
    groups, _ = query_groups(case["query"], corpus())
    found = passage(case["sentences"], groups)
    assert found is not None
    assert found.text == case["text"]
    assert [list(m) for m in found.marks] == case["marks"]
