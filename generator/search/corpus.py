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
from .engine import Corpus, Document, often_words, synonym_groups

EMPTY: Mapping = MappingProxyType({})
_MARKUP = re.compile(r"[`*_#>\[\]()|]|https?://\S+")
# A sentence ends at . ! ? or 。 before white space, and at a line end: `sentences` ends the line
# there (a pattern led by a lookbehind gets no fast scan: it took half the time).
_SENTENCE_END = re.compile(r"([.!?。])\s+")
_LINE_MARKS = re.compile(r"(?m)^[-*0-9. ]+")  # what `sentences` strips off each line's start


def plain_text(markdown: str) -> str:
    """Markdown reduced to words for searching."""
    return " ".join(_MARKUP.sub(" ", markdown).split())


def sentences(markdown: str) -> list[str]:
    """A section's text as sentences (list items and lines count as sentences too): each line
    without its leading list marks, digits and dots, as plain text, split after . ! ? and 。
    The whole section is read at once: line by line, this was a fifth of the search corpus at
    10,000 cases (tests/search/test_search_sentences.py holds the two readings equal)."""
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
    sentences: MappingProxyType  # case id -> its sentences


def build_index(
    library: Library,
    analyzer: Analyzer | None = None,
    unchanged: Mapping[str, Document] = EMPTY,
    forms: Mapping[str, Mapping[tuple[str, str], int]] = EMPTY,
    keep_forms: bool = False,
    previous: Corpus | None = None,
) -> Corpus:
    """The library's cases as the engine searches them: every language's words in one index,
    the same for the Korean and the English pages. `unchanged`: documents of a previous build
    whose incidents (and taxonomy) are the same, whose words need not be worked out again;
    `forms`: how those cases write their words (a previous corpus's `forms`). `keep_forms`
    keeps each case's in the corpus for the next rebuild (a preview; a build needs none), and
    their sum. `previous` (the corpus `unchanged` and `forms` come from): its postings and that
    sum are changed where cases differ, not worked out again."""
    analyzer = analyzer or default_analyzer()
    synonyms = synonym_groups((), analyzer)
    documents = []
    # How all cases write their words: the previous corpus's sum, less the cases not kept
    # (below), or added up here.
    last = previous.totals if previous is not None and keep_forms else None
    totals: dict[tuple[str, str], int] = dict(last) if last is not None else {}
    kept: dict[str, Mapping[tuple[str, str], int]] = {}  # how each case does, if kept
    reused: set[str] = set()  # the cases whose forms are counted in `last`
    for order, incident in enumerate(library.incidents):
        terms = MappingProxyType({f.id: incident.term_ids(f.id) for f in library.taxonomy.facets})
        old = unchanged.get(incident.id)
        # Kept only with its document (`old`): a new or edited case is analysed from its text.
        case_forms = forms.get(incident.id) if old is not None else None
        if case_forms is None:
            lead, case_forms = analyzer.document(lead_text(library, incident))
            body, body_forms = analyzer.document(body_text(incident))
            for key, times in body_forms.items():
                case_forms[key] = case_forms.get(key, 0) + times
            _add(totals, case_forms, 1)
        elif last is None:
            _add(totals, case_forms, 1)
        else:
            reused.add(incident.id)
        if keep_forms:
            kept[incident.id] = case_forms
        if old is not None:
            documents.append(replace(old, order=order, terms=terms))
            continue
        titles = " ".join(text.title for text in incident.texts)
        title = analyzer.document_words(titles)
        documents.append(
            Document(
                id=incident.id,
                words=tuple(set(body).union(lead)),
                lead=tuple(sorted(set(lead))),
                terms=terms,
                order=order,
                title=tuple(sorted(set(title))),
                often=often_words(body),
            )
        )
    if last is not None:
        for case_id, case_forms in forms.items():
            if case_id not in reused:
                _add(totals, case_forms, -1)
    shown, names = most_written([totals]), term_names(library, analyzer)
    phrases = term_phrases(library, analyzer)
    if not keep_forms:
        return Corpus(documents, synonyms, shown, names, term_phrases=phrases)
    return Corpus(
        documents, synonyms, shown, names, MappingProxyType(kept), previous, totals, phrases
    )


def _add(totals: dict[tuple[str, str], int], forms: Mapping[tuple[str, str], int], sign: int):
    """Add (sign 1) or take away (-1) one case's forms; a form no case writes is dropped."""
    for key, times in forms.items():
        left = totals.get(key, 0) + sign * times
        if left:
            totals[key] = left
        else:
            del totals[key]


def build_corpus(
    library: Library,
    lang: str,
    index: Corpus | None = None,
    unchanged: Mapping[str, tuple[str, ...]] = EMPTY,
) -> SearchCorpus:
    """One language's search: the index, and the sentences its result cards quote (`unchanged`:
    those of a previous build's unchanged incidents)."""
    texts = {i.id: unchanged.get(i.id) or tuple(case_sentences(i, lang)) for i in library.incidents}
    return SearchCorpus(lang, index or build_index(library), MappingProxyType(texts))


def build_corpora(
    library: Library,
    previous: tuple[Library, Mapping[str, SearchCorpus]] | None = None,
    keep_forms: bool = False,
) -> dict[str, SearchCorpus]:
    """Both languages' search. `previous` (a preview's last library and corpora): the incidents
    it has unchanged, under the same taxonomy, keep their analysed words, how they write them
    and their sentences (at 1,000 cases, working them out again was most of a preview's
    rebuild). `keep_forms`: see `build_index`. (On forked workers, sending the words back
    cost as much as working them out: the build makes the corpus beside its render workers.)"""
    same: set[str] = set()
    if previous is not None and previous[0].taxonomy == library.taxonomy and previous[1]:
        old = {i.id: i for i in previous[0].incidents}
        same = {i.id for i in library.incidents if old.get(i.id) == i}
    if same:
        corpora = previous[1]
        first = next(iter(corpora.values())).corpus
        documents = {d.id: d for d in first.documents if d.id in same}
        index = build_index(
            library, unchanged=documents, forms=first.forms, keep_forms=keep_forms, previous=first
        )
        return {
            lang: build_corpus(
                library,
                lang,
                index,
                {k: v for k, v in corpora[lang].sentences.items() if k in same}
                if lang in corpora
                else EMPTY,
            )
            for lang in LANGS
        }
    index = build_index(library, keep_forms=keep_forms)
    return {lang: build_corpus(library, lang, index) for lang in LANGS}
