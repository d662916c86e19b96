"""The library as the search sees it: one corpus per language, built from the frozen Library.

Every word a case is found by is worked out here, once, in Python: the browser receives the
words (outputs/search_data.py writes them out) and never analyses a document itself, so the
browser and the agent server search the very same words.
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from dataclasses import dataclass, replace
from types import MappingProxyType

from ..languages import LANGS
from ..model.incident import SECTIONS, Incident
from ..model.library import Library
from ..model.taxonomy import Term
from .analyzer import Analyzer, default_analyzer, most_written
from .engine import Corpus, Document, named_counts, often_words, synonym_groups

EMPTY: Mapping = MappingProxyType({})
_MARKUP = re.compile(r"[`*_#>\[\]()|]|https?://\S+")
# A sentence ends at . ! ? or 。 before white space, and at a line end: `sentences` ends the line
# there. The pattern starts at the mark because one led by a lookbehind gets no fast scan.
_SENTENCE_END = re.compile(r"([.!?。])\s+")
_LINE_MARKS = re.compile(r"(?m)^[-*0-9. ]+")  # what `sentences` strips off each line's start


def plain_text(markdown: str) -> str:
    """Markdown reduced to words for searching."""
    return " ".join(_MARKUP.sub(" ", markdown).split())


def sentences(markdown: str) -> list[str]:
    """A section's text as sentences (list items and lines count as sentences too): each line
    without its leading list marks, digits and dots, as plain text, split after . ! ? and 。
    The whole section is read at once, which is far faster than line by line
    (tests/search/test_search_sentences.py holds the two readings equal)."""
    bare = _MARKUP.sub(" ", _LINE_MARKS.sub("", markdown))
    out = []
    for piece in _SENTENCE_END.sub("\\1\n", bare).split("\n"):
        sentence = " ".join(piece.split())
        if sentence:
            out.append(sentence)
    return out


def lead_text(library: Library, incident: Incident) -> str:
    """What a case is about at a glance: its titles and summaries in every language, and the
    labels of its terms in both. A word here weighs more than one in the sections. Aliases are
    not part of it: a query word that is an alias finds the term's cases through the term
    (`term_names`), weighed as a synonym, not as if the case said it."""
    parts = []
    for text in incident.texts:
        parts += [text.title, text.summary]
    for facet in library.taxonomy.facets:
        parts += [term_lead(term) for term in library.terms_of(incident, facet.id)]
    return " ".join(parts)


def term_lead(term: Term) -> str:
    """What a term adds to the lead of the cases it tags: its labels in both languages."""
    return f"{term.label_ko} {term.label_en}"


def body_text(incident: Incident) -> str:
    """Everything a case says, in every language it is written in: a reader on the Korean page
    who types an error string or a product name finds the case whose English text has it, and
    the other way round (a translation is, among other things, a list of synonyms)."""
    parts = []
    for text in incident.texts:
        parts += [text.title, text.summary, *(plain_text(text.section(k)) for k in SECTIONS)]
    return " ".join(parts)


def case_sentences(incident: Incident, lang: str) -> list[str]:
    """The sentences a result card may quote to show why the case matched."""
    text = incident.text(lang)
    out = [text.summary]
    for key in SECTIONS:
        out.extend(sentences(text.section(key)))
    return out


def term_names(library: Library, analyzer: Analyzer) -> dict[str, tuple[str, ...]]:
    """Each word that is a one-word name of terms (id, label or alias) -> those terms, as
    "facet:term": a query word that names a term finds the cases tagged with it."""
    names: dict[str, list[str]] = {}
    for facet in library.taxonomy.facets:
        for term in facet.terms:
            key = f"{facet.id}:{term.id}"
            for name in term.names():
                word = analyzer.single_word(name)
                if word and key not in names.setdefault(word, []):
                    names[word].append(key)
    return {word: tuple(keys) for word, keys in sorted(names.items())}


def term_phrases(library: Library, analyzer: Analyzer) -> dict[tuple[str, ...], tuple[str, ...]]:
    """The words of each name of several words (label or alias: "fell off the bus", "API 서버
    과부하") -> the terms it names, as "facet:term": a query with those words in a row names
    them."""
    phrases: dict[tuple[str, ...], list[str]] = {}
    for facet in library.taxonomy.facets:
        for term in facet.terms:
            key = f"{facet.id}:{term.id}"
            for name in term.names():
                words = tuple(w for w in analyzer.words(name) if analyzer.long_enough(w))
                if len(words) > 1 and key not in phrases.setdefault(words, []):
                    phrases[words].append(key)
    return {words: tuple(keys) for words, keys in sorted(phrases.items())}


@dataclass(frozen=True)
class SearchCorpus:
    """One language's corpus, with the texts its result cards quote."""

    lang: str
    corpus: Corpus
    sentences: Mapping[str, tuple[str, ...]]  # case id -> its sentences


@dataclass(frozen=True)
class Analysed:
    """One case's words as the search reads them, worked out from its text. A preview keeps
    every case's for its next rebuild, which then analyses only the cases an edit touched."""

    document: Document  # its words; its order and terms are set for each library
    forms: Mapping[tuple[str, str], int]  # how it writes its words (`Analyzer.document`)


def analyse(library: Library, incident: Incident, analyzer: Analyzer) -> Analysed:
    """A case's words, in every language it is written in (the same for the Korean and the
    English pages), and how it writes them."""
    lead, forms = analyzer.document(lead_text(library, incident))
    body, body_forms, sequence = analyzer.read(body_text(incident))
    for key, times in body_forms.items():
        forms[key] = forms.get(key, 0) + times
    title = analyzer.document_words(" ".join(text.title for text in incident.texts))
    names = {
        f"{facet.id}:{term.id}": [analyzer.name_words(name) for name in term.names()]
        for facet in library.taxonomy.facets
        for term in library.terms_of(incident, facet.id)
    }
    document = Document(
        id=incident.id,
        words=tuple(set(body).union(lead)),
        lead=tuple(sorted(set(lead))),
        terms=EMPTY,
        order=0,
        title=tuple(sorted(set(title))),
        often=often_words(body),
        named=MappingProxyType(named_counts(sequence, names)),
    )
    return Analysed(document, MappingProxyType(forms))


def index_cases(
    library: Library, kept: Mapping[str, Analysed] = EMPTY, keep: bool = False
) -> tuple[Corpus, Mapping[str, Analysed]]:
    """Every case in one index, and (with `keep`, a preview) every case's analysis. `kept`: the
    analyses of cases whose text and taxonomy are as they were, which are not worked out again.
    (Sending the words back from forked workers would cost as much as working them out: the
    build makes the index beside its render workers.)"""
    analyzer = default_analyzer()
    documents: list[Document] = []
    totals: dict[tuple[str, str], int] = {}  # how all cases write their words
    analysed: dict[str, Analysed] = {}
    for order, incident in enumerate(library.incidents):
        case = kept.get(incident.id) or analyse(library, incident, analyzer)
        terms = MappingProxyType({f.id: incident.term_ids(f.id) for f in library.taxonomy.facets})
        documents.append(replace(case.document, order=order, terms=terms))
        for key, times in case.forms.items():
            totals[key] = totals.get(key, 0) + times
        if keep:
            analysed[incident.id] = case
    synonyms, names = synonym_groups((), analyzer), term_names(library, analyzer)
    phrases = term_phrases(library, analyzer)
    corpus = Corpus(documents, synonyms, most_written([totals]), names, term_phrases=phrases)
    return corpus, MappingProxyType(analysed)


def build_index(library: Library) -> Corpus:
    """The library's cases as the engine searches them: every language's words in one index,
    the same for the Korean and the English pages."""
    return index_cases(library)[0]


def build_corpus(
    library: Library,
    lang: str,
    index: Corpus | None = None,
    kept: Mapping[str, tuple[str, ...]] = EMPTY,
) -> SearchCorpus:
    """One language's search: the index, and the sentences its result cards quote (`kept`:
    those of cases whose text is as it was)."""
    texts = {i.id: kept.get(i.id) or tuple(case_sentences(i, lang)) for i in library.incidents}
    return SearchCorpus(lang, index or build_index(library), MappingProxyType(texts))


def build_corpora(library: Library) -> dict[str, SearchCorpus]:
    """Both languages' search, over one index."""
    index = build_index(library)
    return {lang: build_corpus(library, lang, index) for lang in LANGS}
