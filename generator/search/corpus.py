"""The library as the search sees it: one corpus per language, built from the frozen Library.

Every word a case is found by is worked out here, once, in Python: the browser receives the
words (index.js, cases.js, vocab.js) and never analyses a document itself, so the site's two
engines and the agent server search the very same words.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from types import MappingProxyType

from ..languages import LANGS
from ..model.incident import SECTIONS, Incident
from ..model.library import Library
from .analyzer import Analyzer, default_analyzer
from .engine import Corpus, Document, synonym_groups

_MARKUP = re.compile(r"[`*_#>\[\]()|]|https?://\S+")
_SENTENCE = re.compile(r"(?<=[.!?。])\s+|\n+")


def plain_text(markdown: str) -> str:
    """Markdown reduced to words for searching."""
    return " ".join(_MARKUP.sub(" ", markdown).split())


def sentences(markdown: str) -> list[str]:
    """A section's text as sentences (list items and lines count as sentences too)."""
    out = []
    for line in markdown.split("\n"):
        line = plain_text(line.lstrip("-*0123456789. "))
        out.extend(s.strip() for s in _SENTENCE.split(line) if s.strip())
    return out


def lead_text(library: Library, incident: Incident) -> str:
    """What a case is about at a glance: its titles and summaries in every language, and every
    name of its terms. A word here weighs more than one in the sections."""
    parts = []
    for text in incident.texts:
        parts += [text.title, text.summary]
    for facet in library.taxonomy.facets:
        for term in library.terms_of(incident, facet.id):
            parts.extend(term.names())
    return " ".join(parts)


def body_text(incident: Incident, lang: str) -> str:
    text = incident.text(lang)
    return " ".join([text.title, text.summary, *(plain_text(text.section(k)) for k in SECTIONS)])


def case_sentences(incident: Incident, lang: str) -> list[str]:
    """The sentences a result card may quote to show why the case matched."""
    text = incident.text(lang)
    out = [text.summary]
    for key in SECTIONS:
        out.extend(sentences(text.section(key)))
    return out


def taxonomy_synonyms(library: Library) -> list[list[str]]:
    """A synonym group per term: its id, labels and aliases (those that are single words)."""
    return [[*term.names()] for term in library.taxonomy.terms()]


@dataclass(frozen=True)
class SearchCorpus:
    """One language's corpus, with the texts its result cards quote."""

    lang: str
    corpus: Corpus
    sentences: MappingProxyType  # case id -> its sentences


def build_corpus(library: Library, lang: str, analyzer: Analyzer | None = None) -> SearchCorpus:
    analyzer = analyzer or default_analyzer()
    synonyms = synonym_groups(taxonomy_synonyms(library), analyzer)
    documents = []
    texts = {}
    written = []
    for order, incident in enumerate(library.incidents):
        lead_words, body_words = lead_text(library, incident), body_text(incident, lang)
        written += [lead_words, body_words]
        lead = analyzer.document_words(lead_words)
        body = analyzer.document_words(body_words)
        title = analyzer.document_words(" ".join(text.title for text in incident.texts))
        documents.append(
            Document(
                id=incident.id,
                words=frozenset(body) | frozenset(lead),
                lead=tuple(sorted(set(lead))),
                terms=MappingProxyType(
                    {f.id: incident.term_ids(f.id) for f in library.taxonomy.facets}
                ),
                order=order,
                title=tuple(sorted(set(title))),
            )
        )
        texts[incident.id] = tuple(case_sentences(incident, lang))
    corpus = Corpus(documents, synonyms, analyzer.shown_forms(written))
    return SearchCorpus(lang, corpus, MappingProxyType(texts))


def build_corpora(library: Library) -> dict[str, SearchCorpus]:
    return {lang: build_corpus(library, lang) for lang in LANGS}
