"""A preview's corpus changes the last one's postings where cases' words changed
(generator/search/engine.py, `_edited_postings`): after any edits it is the corpus built afresh."""

from __future__ import annotations

import random
from dataclasses import replace
from types import MappingProxyType

from generator.search import engine
from generator.search.engine import Corpus, Document

WORDS = [f"w{n}" for n in range(40)]


def documents(rng: random.Random, count: int) -> list[Document]:
    return [
        Document(
            id=f"case-{n}",
            words=tuple(rng.sample(WORDS, rng.randint(0, 8))),
            lead=(),
            terms=MappingProxyType({"cause": (rng.choice(("a", "b")),)}),
            order=n,
        )
        for n in range(count)
    ]


def same_index(a: Corpus, b: Corpus) -> None:
    assert a.vocabulary == b.vocabulary
    assert a._postings == b._postings
    for word in WORDS:
        assert a.postings(word) == b.postings(word)
        assert a.frequency(word) == b.frequency(word)


def test_edits_that_add_and_remove_words_give_a_fresh_corpus(monkeypatch):
    rng = random.Random(7)
    docs = documents(rng, 30)
    corpus = Corpus(docs)
    built: list[int] = []
    whole = engine._postings

    def counting(documents):
        built.append(len(documents))
        return whole(documents)

    monkeypatch.setattr(engine, "_postings", counting)
    for _ in range(200):
        index = rng.randrange(len(docs))
        words = set(docs[index].words)
        words ^= set(rng.sample(WORDS, rng.randint(1, 4)))  # some gone, some new
        docs[index] = replace(docs[index], words=tuple(words))
        edited = Corpus(docs, previous=corpus)
        same_index(edited, Corpus(docs))
        corpus = edited
    assert len(built) == 200  # the fresh corpora only: the edited ones changed the last one's


def test_a_word_no_case_has_any_more_leaves_the_vocabulary_and_a_new_one_joins_it():
    docs = [Document(f"c{n}", ("shared", f"own{n}"), (), MappingProxyType({}), n) for n in range(3)]
    corpus = Corpus(docs)
    docs[1] = replace(docs[1], words=("shared", "fresh"))
    edited = Corpus(docs, previous=corpus)
    assert "own1" not in edited.vocabulary and "fresh" in edited.vocabulary
    assert edited.postings("fresh") == {1} and edited.postings("shared") == {0, 1, 2}
    same_index(edited, Corpus(docs))


def test_other_cases_or_another_order_build_the_postings_afresh():
    docs = [Document(f"c{n}", (f"w{n}",), (), MappingProxyType({}), n) for n in range(3)]
    corpus = Corpus(docs)
    reordered = [replace(d, order=n) for n, d in enumerate(reversed(docs))]
    same_index(Corpus(reordered, previous=corpus), Corpus(reordered))
    fewer = docs[:2]
    same_index(Corpus(fewer, previous=corpus), Corpus(fewer))
