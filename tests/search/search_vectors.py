"""The search vectors (generator/search/vectors.yml) as data both implementations read: the
corpus's words worked out by the Python analyser, as the build does for the site."""

from __future__ import annotations

from importlib import resources
from types import MappingProxyType

import yaml

from generator.search.analyzer import default_analyzer
from generator.search.engine import Corpus, Document, named_counts, often_words, synonym_groups


def vectors() -> dict:
    text = (resources.files("generator.search") / "vectors.yml").read_text(encoding="utf-8")
    return yaml.safe_load(text)


def corpus() -> Corpus:
    data = vectors()
    analyzer = default_analyzer()
    term_words = {
        key: [analyzer.words(name) for name in names]
        for key, names in data.get("term_names", {}).items()
    }
    documents = []
    for order, case in enumerate(data["corpus"]):
        title = analyzer.document_words(case.get("title", ""))
        lead = [*title, *analyzer.document_words(case["lead"])]
        body = analyzer.document_words(case["body"])
        terms = {facet: tuple(ids) for facet, ids in case["terms"].items()}
        documents.append(
            Document(
                id=case["id"],
                words=frozenset(body) | frozenset(lead),
                lead=tuple(sorted(set(lead))),
                title=tuple(sorted(set(title))),
                often=often_words([*lead, *body]),
                terms=MappingProxyType(terms),
                order=order,
                named=named_counts(
                    analyzer.words(f"{case.get('title', '')} {case['lead']} {case['body']}"),
                    {
                        key: words
                        for key, words in term_words.items()
                        if key.partition(":")[2] in terms.get(key.partition(":")[0], ())
                    },
                ),
            )
        )
    texts = [f"{case.get('title', '')} {case['lead']} {case['body']}" for case in data["corpus"]]
    names: dict[str, tuple[str, ...]] = {}
    phrases: dict[tuple[str, ...], tuple[str, ...]] = {}
    for key, term_names in data.get("term_names", {}).items():
        for name in term_names:
            if word := analyzer.single_word(name):
                names[word] = (*names.get(word, ()), key)
            elif len(words := tuple(analyzer.words(name))) > 1:
                phrases[words] = (*phrases.get(words, ()), key)
    return Corpus(
        documents,
        synonym_groups(data["synonyms"], analyzer),
        analyzer.shown_forms(texts),
        names,
        term_phrases=phrases,
    )
