"""What an agent can ask of the library: search or list cases (by words, facets, dates and the
language they were written in, a page at a time, with counts per facet), read a case, list a
facet's terms, related cases and the components that recur in a set of cases. Pure: the agent
server (adapters/mcp.py) is a thin wrapper, and tests call this directly.

The search is the site's own (generator/search, on the corpus the site's search data is written
from), so an agent and a reader of the site get the same cases in the same order. Every answer
is bounded (answers.py). Every bad argument raises `CatalogueError` (arguments.py).
"""

from __future__ import annotations

import threading
from collections.abc import Mapping, Sequence
from pathlib import Path

from ..model.incident import SECTIONS, Incident
from ..model.library import Library
from ..outputs.markdown import case_markdown
from ..pages import urls
from ..search.analyzer import HANGUL
from ..search.corpus import SearchCorpus, build_corpus, build_index
from ..search.engine import Corpus, Passage, Result, passage, search
from . import arguments as check
from .answers import (
    ANSWER_LIMIT,
    FACET_TERMS,
    MAX_IDS,
    PASSAGE_CHARS,
    ComponentCount,
    FacetCounts,
    IncidentDetail,
    MatchedPassage,
    RelatedHit,
    RelatedResult,
    SearchHit,
    SearchResult,
    Source,
    TermCount,
    TermInfo,
    TermList,
    TermRef,
    TopComponents,
    fitting,
    size,
)
from .arguments import CatalogueError, closest

__all__ = ["Catalogue", "CatalogueError", "Selection"]

Filters = Mapping[str, Sequence[str] | str] | None


class Selection:
    """Which cases a call is about: a query and filters as the site reads them, a date range
    and the language the cases were written in, checked."""

    def __init__(
        self,
        catalogue: Catalogue,
        query: str = "",
        filters: Filters = None,
        lang: str | None = None,
        occurred_from: str | None = None,
        occurred_to: str | None = None,
        original_language: str | None = None,
    ) -> None:
        taxonomy = catalogue.library.taxonomy
        self.query = query or ""
        self.filters = check.filters(taxonomy, filters)
        # A term named by its Korean label says the agent reads Korean; an id says nothing.
        named = [str(v) for values in (filters or {}).values() for v in _listed(values)]
        self.lang = check.lang_of(lang, self.query, *(v for v in named if HANGUL.search(v)))
        self.occurred_from = check.partial_date("occurred_from", occurred_from)
        self.occurred_to = check.partial_date("occurred_to", occurred_to)
        self.original_language = check.original_language(original_language)
        self.within = self._within(catalogue.library)

    def _within(self, library: Library) -> frozenset[str] | None:
        if not (self.occurred_from or self.occurred_to or self.original_language):
            return None
        return frozenset(
            i.id
            for i in library.incidents
            if check.in_range(i.meta.occurred, self.occurred_from, self.occurred_to)
            and self.original_language in (None, i.meta.lang)
        )

    @property
    def narrowed(self) -> bool:
        return bool(self.query.strip() or self.filters or self.within is not None)


class Catalogue:
    def __init__(self, library: Library, site_url: str = "") -> None:
        self.library = library
        self.site_url = site_url
        self._index: Corpus | None = None
        self._corpora: dict[str, SearchCorpus] = {}
        self._lock = threading.Lock()

    @classmethod
    def from_export(cls, path: Path, site_url: str | None = None) -> Catalogue:
        """The library of a site's exports; its URLs start at `site_url`, or at the address the
        exports were built for (relative when neither is known)."""
        from ..load.export import read_export

        library, built_for = read_export(path)
        return cls(library, built_for if site_url is None else site_url)

    def corpus(self, lang: str) -> SearchCorpus:
        """A language's search (the site's), worked out on first use: the index of every case
        once, the sentences a result quotes per language (reading a case needs neither)."""
        with self._lock:
            if self._index is None:
                self._index = build_index(self.library)
            if lang not in self._corpora:
                self._corpora[lang] = build_corpus(self.library, lang, self._index)
            return self._corpora[lang]

    # -- helpers --

    def url(self, path: str) -> str:
        return f"{self.site_url.rstrip('/')}/{path}" if self.site_url else path

    def _incident(self, incident_id: str) -> Incident:
        if isinstance(incident_id, str) and self.library.has_incident(incident_id):
            return self.library.incident(incident_id)
        ids = [i.id for i in self.library.incidents]
        raise CatalogueError(f"no incident has the id '{incident_id}'", closest(incident_id, ids))

    def _terms(self, incident: Incident, lang: str) -> dict[str, list[TermRef]]:
        return {
            f.id: [
                TermRef(facet=f.id, id=t.id, label=t.label(lang))
                for t in self.library.terms_of(incident, f.id)
            ]
            for f in self.library.taxonomy.facets
        }

    def _found(self, selection: Selection) -> Result:
        corpus = self.corpus(selection.lang).corpus
        found = search(corpus, selection.query, selection.filters, within=selection.within)
        if selection.query.strip() and not found.groups and not found.dropped:
            raise CatalogueError(
                f"the query '{selection.query}' has no word to search for (words of one letter "
                "or syllable, and words such as 'the' or '및', are left out)"
            )
        return found

    def _facet_counts(self, found: Result, lang: str) -> list[FacetCounts]:
        out = []
        for facet in self.library.taxonomy.facets:
            counts = found.counts.get(facet.id, {})
            place = {t.id: n for n, t in enumerate(facet.terms)}
            ranked = sorted(
                (t for t in counts if counts[t] and t in place),
                key=lambda t: (-counts[t], place[t]),
            )
            out.append(
                FacetCounts(
                    facet=facet.id,
                    label=facet.label(lang),
                    terms=[
                        TermCount(
                            id=t,
                            label=self.library.taxonomy.term(facet.id, t).label(lang),
                            cases=counts[t],
                        )
                        for t in ranked[:FACET_TERMS]
                    ],
                    more=max(0, len(ranked) - FACET_TERMS),
                )
            )
        return out

    # -- operations --

    def search(
        self,
        query: str = "",
        filters: Filters = None,
        lang: str | None = None,
        limit: int = 10,
        offset: int = 0,
        occurred_from: str | None = None,
        occurred_to: str | None = None,
        original_language: str | None = None,
    ) -> SearchResult:
        """The site's search (same words, synonyms, typo corrections, matching and ranking), or
        with no query the cases of the filters and dates, newest first (every case when nothing
        narrows them): a page of `limit` from `offset`, and counts per facet."""
        limit, offset = check.limit(limit), check.offset(offset)
        chosen = Selection(
            self, query, filters, lang, occurred_from, occurred_to, original_language
        )
        lang = chosen.lang
        found = self._found(chosen)
        sentences = self.corpus(lang).sentences
        hits = []
        for position, case_id in enumerate(found.ids[offset : offset + limit], start=offset):
            incident = self.library.incident(case_id)
            text = incident.text(lang)
            quoted = None
            if found.groups:
                best = passage(sentences[case_id], found.groups, found.weights)
                quoted = _passage(best) if best else None
            page = urls.case(lang, case_id)
            hits.append(
                SearchHit(
                    id=case_id,
                    title=text.title,
                    summary=text.summary,
                    text_lang=text.lang,
                    original_language=incident.meta.lang,
                    occurred=incident.meta.occurred,
                    published=incident.meta.published,
                    terms=self._terms(incident, lang),
                    url=self.url(page),
                    markdown_url=self.url(urls.case_markdown(lang, case_id)),
                    full_match=position < found.exact,
                    passage=quoted,
                )
            )
        answer = SearchResult(
            query=chosen.query,
            lang=lang,
            filters=chosen.filters,
            occurred_from=chosen.occurred_from,
            occurred_to=chosen.occurred_to,
            original_language=chosen.original_language,
            total=found.total,
            full_matches=found.exact,
            partial_matches=found.partial,
            offset=offset,
            next_offset=None,
            results=[],
            facets=self._facet_counts(found, lang),
            dropped=list(found.dropped),
            corrections=[list(pair) for pair in found.corrections],
            ignored=list(found.ignored),
        )
        answer.results = fitting(answer, hits)
        end = offset + len(answer.results)
        answer.next_offset = end if end < found.total else None
        return answer

    def get(
        self, incident_id: str, lang: str | None = None, sections: Sequence[str] | None = None
    ) -> IncidentDetail:
        """One case in full, or the `sections` asked for. A case longer than an answer may be
        has its longest sections shortened, and says which (`cut`)."""
        lang = check.lang_of(lang)
        incident = self._incident(incident_id)
        keys = list(SECTIONS) if not sections else _sections(sections)
        text, meta = incident.text(lang), incident.meta
        answer = IncidentDetail(
            id=incident.id,
            lang=lang,
            text_lang=text.lang,
            original_language=meta.lang,
            title=text.title,
            summary=text.summary,
            occurred=meta.occurred,
            ended=meta.ended,
            published=meta.published,
            terms=self._terms(incident, lang),
            scale=meta.scale.model_dump(exclude_none=True) if meta.scale else {},
            sections={},
            cut=[],
            not_in_sources=list(meta.not_in_sources),
            summary_only=list(meta.summary_only),
            distinct_from=list(meta.distinct_from),
            sources=[Source(**s.model_dump(mode="json")) for s in meta.sources],
            url=self.url(urls.case(lang, incident.id)),
            markdown_url=self.url(urls.case_markdown(lang, incident.id)),
        )
        full = {key: text.section(key) for key in keys}
        answer.sections, answer.cut = _shortened(full, ANSWER_LIMIT - size(answer))
        return answer

    def markdown(self, incident_id: str, lang: str | None = None) -> str:
        lang = check.lang_of(lang)
        return case_markdown(self.library, self._incident(incident_id), lang, self.site_url)

    def terms(
        self, facet_id: str, lang: str | None = None, limit: int | None = None, offset: int = 0
    ) -> TermList:
        """A facet's terms, in the taxonomy's order, a page at a time."""
        lang, offset = check.lang_of(lang), check.offset(offset)
        facet = check.facet(self.library.taxonomy, facet_id)
        end = offset + check.limit(limit, check.MAX_TERMS) if limit is not None else None
        chosen = facet.terms[offset:end]
        other = "en" if lang == "ko" else "ko"
        infos = [
            TermInfo(
                id=t.id,
                label=t.label(lang),
                description=t.description(lang),
                aliases=list(dict.fromkeys([*t.aliases(lang), *t.aliases(other)])),
                parent=t.parent,
                cases=self.library.count(t),
                url=self.url(urls.term(lang, t)),
            )
            for t in chosen
        ]
        answer = TermList(
            facet=facet.id,
            label=facet.label(lang),
            description=facet.description(lang),
            lang=lang,
            total=len(facet.terms),
            offset=offset,
            next_offset=None,
            terms=[],
        )
        answer.terms = fitting(answer, infos)
        after = offset + len(answer.terms)
        answer.next_offset = after if after < len(facet.terms) else None
        return answer

    def related(self, incident_id: str, lang: str | None = None, limit: int = 5) -> RelatedResult:
        lang, limit = check.lang_of(lang), check.limit(limit)
        incident = self._incident(incident_id)
        related = []
        for entry in self.library.related(incident)[:limit]:
            text = entry.incident.text(lang)
            related.append(
                RelatedHit(
                    id=entry.incident.id,
                    title=text.title,
                    summary=text.summary,
                    url=self.url(urls.case(lang, entry.incident.id)),
                    shared=[
                        TermRef(facet=t.facet, id=t.id, label=t.label(lang)) for t in entry.shared
                    ],
                )
            )
        return RelatedResult(id=incident.id, lang=lang, related=related)

    def top_components(
        self,
        filters: Filters = None,
        query: str = "",
        lang: str | None = None,
        limit: int = 5,
        offset: int = 0,
        occurred_from: str | None = None,
        occurred_to: str | None = None,
        original_language: str | None = None,
    ) -> TopComponents:
        """The components that recur in a set of cases (those the same arguments give in
        `search`; every case when nothing narrows them), most frequent first, each with its
        count and newest cases: what the library page's "check whether your cluster has it
        too" block lists."""
        limit, offset = check.limit(limit), check.offset(offset)
        facet = self.library.taxonomy.checklist
        if facet is None:
            raise CatalogueError("the taxonomy declares no facet as the checklist")
        chosen = Selection(
            self, query, filters, lang, occurred_from, occurred_to, original_language
        )
        if chosen.narrowed:
            ids = self._found(chosen).ids
        else:
            ids = tuple(i.id for i in self.library.incidents)
        counted: dict[str, list[str]] = {}
        rank = self.library.rank
        for case_id in ids:
            for term in self.library.terms_of(self.library.incident(case_id), facet.id):
                counted.setdefault(term.id, []).append(case_id)
        ranked = sorted(counted.items(), key=lambda item: (-len(item[1]), item[0]))
        components = []
        for term_id, cases in ranked[offset : offset + limit]:
            term = self.library.taxonomy.term(facet.id, term_id)
            components.append(
                ComponentCount(
                    id=term_id,
                    label=term.label(chosen.lang),
                    description=term.description(chosen.lang),
                    cases=len(cases),
                    incidents=sorted(cases, key=rank)[:MAX_IDS],
                )
            )
        answer = TopComponents(
            facet=facet.id,
            lang=chosen.lang,
            cases=len(ids),
            total=len(ranked),
            offset=offset,
            next_offset=None,
            components=[],
        )
        answer.components = fitting(answer, components)
        after = offset + len(answer.components)
        answer.next_offset = after if after < len(ranked) else None
        return answer


def _listed(values: Sequence[str] | str) -> Sequence[str]:
    return [values] if isinstance(values, str) else values


def _sections(asked: Sequence[str]) -> list[str]:
    keys = []
    for key in asked:
        if key not in SECTIONS:
            raise CatalogueError(
                f"unknown section '{key}'; the sections are {', '.join(SECTIONS)}",
                closest(key, SECTIONS),
            )
        if key not in keys:
            keys.append(key)
    return [key for key in SECTIONS if key in keys]


def _shortened(sections: dict[str, str], room: int) -> tuple[dict[str, str], list[str]]:
    """The sections, the longest cut until all fit in `room` characters of JSON (each keeps at
    least an even share), and the keys of those cut."""
    import json

    def cost(text: str) -> int:
        return len(json.dumps(text, ensure_ascii=False)) + 8  # quotes, key, separators

    if sum(cost(t) + len(k) for k, t in sections.items()) <= room:
        return sections, []
    share = max(200, room // max(len(sections), 1) - 40)
    cut = {}
    for key, text in sections.items():
        if cost(text) > share:
            # JSON escapes make the cost differ from the length: cut by characters until it fits.
            keep = share
            while keep > 0 and cost(text[:keep]) + 2 > share:
                keep -= max(1, keep // 10)
            cut[key] = text[:keep].rstrip() + " …"
    return {k: cut.get(k, t) for k, t in sections.items()}, list(cut)


def _passage(found: Passage) -> MatchedPassage:
    text, marks = found.text, found.marks
    if len(text) > PASSAGE_CHARS:
        # A long sentence is quoted around its first matched word.
        start = max(0, (marks[0][0] if marks else 0) - PASSAGE_CHARS // 3)
        end = min(len(text), start + PASSAGE_CHARS)
        head, tail = ("…" if start else ""), ("…" if end < len(text) else "")
        shift = len(head) - start
        marks = tuple((a + shift, b + shift) for a, b in marks if start <= a < b <= end)
        text = head + text[start:end] + tail
    marked, at = [], 0
    for start, end in marks:
        marked += [text[at:start], "**", text[start:end], "**"]
        at = end
    marked.append(text[at:])
    return MatchedPassage(text=text, marked="".join(marked))
