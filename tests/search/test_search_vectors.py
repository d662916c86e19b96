"""The Python engine (generator/search/) against the search vectors."""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from search_vectors import corpus, vectors

from generator.search.analyzer import HANGUL, Analyzer, default_analyzer, rules
from generator.search.engine import named_counts, passage, search

DATA = vectors()


@pytest.mark.parametrize("case", DATA["words"], ids=lambda c: c["text"])
def test_query_words(case):
    assert default_analyzer().words(case["text"]) == case["words"]


@pytest.mark.parametrize("case", DATA["document_words"], ids=lambda c: c["text"])
def test_document_words(case):
    assert default_analyzer().document_words(case["text"]) == case["words"]


@pytest.mark.parametrize(
    "case",
    DATA["searches"],
    ids=lambda c: c["query"][:40] * min(c.get("repeat", 1), 3) or "(filters)",
)
def test_searches(case):
    result = search(corpus(), case["query"] * case.get("repeat", 1), case.get("filters"))
    assert list(result.ids) == case["ids"]
    assert list(result.dropped) == case.get("dropped", [])
    assert [list(c) for c in result.corrections] == case.get("corrections", [])
    if "required" in case:
        assert result.required == case["required"]
    assert result.exact == case.get("exact", len(result.ids))
    assert result.partial == len(result.ids) - result.exact
    for facet, expected in case.get("counts", {}).items():
        assert dict(result.counts[facet]) == expected


@pytest.mark.parametrize("case", DATA["passages"], ids=lambda c: c["query"])
def test_passages(case):
    found = passage(case["sentences"], search(corpus(), case["query"]).groups)
    assert found is not None
    assert found.text == case["text"]
    assert [list(m) for m in found.marks] == case["marks"]


# The words a document is indexed by, and how it writes them, by their plain definitions: the
# analyser reads a text once and remembers each word's share (Analyzer.document).
def plain_document_words(analyzer, text: str) -> list[str]:
    out = []
    for raw in analyzer.raw_words(text):
        word = analyzer.stem(raw)
        if analyzer.long_enough(word):
            out.append(word)
        if HANGUL.match(raw):
            if word != raw and analyzer.long_enough(raw):
                out.append(raw)
            if len(raw) >= analyzer.suffix_from:
                for i in range(1, len(raw) - analyzer.suffix_min + 1):
                    tail = raw[i:]
                    if tail not in analyzer.ending_set and not any(
                        tail.startswith(name) for name in analyzer.whole_names
                    ):
                        out.append(tail)
    return out


def plain_written_forms(analyzer, text: str) -> dict[tuple[str, str], int]:
    found: dict[tuple[str, str], int] = {}
    for raw in analyzer.raw_words(text):
        word = analyzer.stem(raw)
        if word != raw:
            found[word, raw] = found.get((word, raw), 0) + 1
    return found


WORDS = st.sampled_from(
    [
        "클러스터에서",
        "클러스터가",
        "노드",
        "노드의",
        "에서",
        "는",
        "인피니밴드",
        "배선이",
        "쿠버네티스클러스터에서",
        "the",
        "nodes",
        "failing",
        "failed",
        "CoreDNS",
        "etcd",
        "v1.28",
        "4,096",
        "GPUs",
        "NCCL_TIMEOUT",
        "런타임",
        "타임아웃이",
        "a",
        "및",
    ]
)
TEXTS = st.lists(st.one_of(WORDS, st.text(max_size=12)), max_size=30).map(" ".join)


@given(TEXTS)
@settings(max_examples=300, deadline=None)
def test_one_reading_gives_the_words_and_forms_of_their_definitions(text):
    analyzer = Analyzer.from_rules()
    for _ in range(2):  # the second time from what the analyser remembers
        words, forms = analyzer.document(text)
        assert words == plain_document_words(analyzer, text)
        assert analyzer.read(text) == (words, forms, analyzer.words(text))
        assert forms == plain_written_forms(analyzer, text) == analyzer.written_forms(text)


def test_a_case_names_a_term_where_the_words_of_a_name_stand_in_a_row():
    analyzer = Analyzer.from_rules()
    names = {
        "cause:gpu-failure": [analyzer.words("fell off the bus"), analyzer.words("XID")],
        "cause:overload": [analyzer.words("thundering herd")],
    }
    text = "The GPU fell off the bus; Xid 79 again. Later the bus fell off a shelf."
    assert named_counts(analyzer.words(text), names) == {"cause:gpu-failure": 2}


def test_a_case_names_a_term_at_most_named_most_times():
    """index.js writes each count as one digit: both engines break ties by the capped count."""
    analyzer = Analyzer.from_rules()
    names = {"cause:gpu-failure": [analyzer.words("XID")]}
    most = rules()["named_most"]
    assert most == 9
    text = " ".join(["Xid 79."] * (most + 3))
    assert named_counts(analyzer.words(text), names) == {"cause:gpu-failure": most}
