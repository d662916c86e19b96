"""What an agent can ask of the library: search, read a case, list a facet's terms, related cases
and the components that recur in a set of cases. Pure: the agent server (adapters/mcp.py) is a
thin wrapper, and tests call this directly.

The search is the site's own (generator/search, on the corpus the site's search data is written
from), so an agent and a reader of the site get the same cases in the same order. Every bad
argument raises `CatalogueError` with a message that says what was wrong and, where one exists,
what was probably meant.
"""

from __future__ import annotations

import difflib
from collections.abc import Mapping, Sequence
from pathlib import Path

from pydantic import BaseModel, Field

from ..languages import LANGS
from ..model.incident import SECTIONS, Incident
from ..model.library import Library
from ..model.text import OCCURRED_DESCRIPTION
from ..outputs.markdown import case_markdown
from ..pages import urls
from ..search.corpus import SearchCorpus, build_corpora
from ..search.engine import Passage, passage, search

MAX_LIMIT = 50


class CatalogueError(ValueError):
    """A bad argument: the message names it; `suggestions` are what was probably meant."""

    def __init__(self, message: str, suggestions: Sequence[str] = ()) -> None:
        self.suggestions = tuple(suggestions)
        named = " or ".join(f"'{s}'" for s in self.suggestions)
        super().__init__(f"{message} (did you mean {named}?)" if named else message)


# ---- Results ----------------------------------------------------------------------------------


class TermRef(BaseModel):
    facet: str
    id: str
    label: str


class MatchedPassage(BaseModel):
    text: str = Field(description="The sentence of the case that best shows why it matched.")
    marked: str = Field(description="The same sentence with the matched words in **bold**.")


class SearchHit(BaseModel):
    id: str
    title: str
    summary: str
    text_lang: str = Field(
        description="Language of title and summary (the original's, if not translated)."
    )
    occurred: str = Field(description=OCCURRED_DESCRIPTION)
    published: str
    terms: dict[str, list[TermRef]] = Field(description="Terms by facet.")
    url: str = Field(description="The case page.")
    markdown_url: str = Field(description="The case as Markdown.")
    full_match: bool = Field(
        description="True for the results (every meaningful word of the query, or the term it "
        "names); False for a case listed after them that matches part of the query."
    )
    passage: MatchedPassage | None = None


class SearchResult(BaseModel):
    query: str
    lang: str
    filters: dict[str, list[str]]
    total: int = Field(description="Cases found (all of them, not only those returned).")
    full_matches: int = Field(
        description="The results: cases with every meaningful word of the query (or the term "
        "it names). They come first; the library page counts these."
    )
    partial_matches: int = Field(
        description="Cases after them that match part of the query (marked full_match false); "
        "the library page lists them collapsed, under their own heading."
    )
    results: list[SearchHit]
    dropped: list[str] = Field(description="Query words no case has, left out of the search.")
    corrections: list[list[str]] = Field(
        description="[typed, searched as] for words taken as typos."
    )
    ignored: list[str] = Field(description="Words past the length a query may have.")


class Source(BaseModel):
    url: str
    title: str
    publisher: str
    date: str


class IncidentDetail(BaseModel):
    id: str
    lang: str
    text_lang: str = Field(
        description="Language of the text returned (the original's if untranslated)."
    )
    title: str
    summary: str
    occurred: str = Field(description=OCCURRED_DESCRIPTION)
    ended: str | None
    published: str
    terms: dict[str, list[TermRef]]
    scale: dict[str, int]
    sections: dict[str, str] = Field(description="Markdown of each section, by key, in order.")
    not_in_sources: list[str] = Field(description="Sections the sources do not cover.")
    summary_only: list[str] = Field(
        description=(
            "Sections whose facts come only from a secondary summary of the source, not the "
            "source itself."
        )
    )
    sources: list[Source]
    url: str
    markdown: str = Field(description="The whole case as one Markdown document.")


class TermInfo(BaseModel):
    id: str
    label: str
    description: str
    aliases: list[str] = Field(description="Other names, in both languages.")
    parent: str | None
    cases: int
    url: str


class TermList(BaseModel):
    facet: str
    label: str
    description: str
    lang: str
    terms: list[TermInfo]


class RelatedHit(BaseModel):
    id: str
    title: str
    summary: str
    url: str
    shared: list[TermRef] = Field(description="The descriptive terms it shares with the case.")


class RelatedResult(BaseModel):
    id: str
    lang: str
    related: list[RelatedHit]


class ComponentCount(BaseModel):
    id: str
    label: str
    description: str
    cases: int
    incidents: list[str] = Field(description="The ids of the cases it occurs in, newest first.")


class TopComponents(BaseModel):
    facet: str = Field(description="The facet the 'check your cluster' list is made of.")
    lang: str
    cases: int = Field(description="Cases in the set the components were counted over.")
    components: list[ComponentCount]


# ---- The catalogue ----------------------------------------------------------------------------


class Catalogue:
    def __init__(self, library: Library, site_url: str = "") -> None:
        self.library = library
        self.site_url = site_url
        self.corpora: dict[str, SearchCorpus] = build_corpora(library)

    @classmethod
    def from_export(cls, path: Path, site_url: str | None = None) -> Catalogue:
        """The library of a site's exports; its URLs start at `site_url`, or at the address the
        exports were built for (relative when neither is known)."""
        from ..load.export import read_export

        library, built_for = read_export(path)
        return cls(library, built_for if site_url is None else site_url)

    # -- arguments --

    def _lang(self, lang: str) -> str:
        if lang not in LANGS:
            raise CatalogueError(
                f"unknown language '{lang}'; the library is written in {', '.join(LANGS)}",
                _closest(lang, LANGS),
            )
        return lang

    def _incident(self, incident_id: str) -> Incident:
        incident = (
            self.library.incident(incident_id)
            if isinstance(incident_id, str) and self.library.has_incident(incident_id)
            else None
        )
        if incident is None:
            ids = [i.id for i in self.library.incidents]
            raise CatalogueError(
                f"no incident has the id '{incident_id}'", _closest(incident_id, ids)
            )
        return incident

    def _facet(self, facet_id: str):
        taxonomy = self.library.taxonomy
        facet = (
            taxonomy.facet(facet_id)
            if isinstance(facet_id, str) and taxonomy.has_facet(facet_id)
            else None
        )
        if facet is None:
            ids = [f.id for f in self.library.taxonomy.facets]
            raise CatalogueError(
                f"unknown facet '{facet_id}'; the facets are {', '.join(ids)}",
                _closest(facet_id.replace("-", "_"), ids),
            )
        return facet

    def _filters(self, filters: Mapping[str, Sequence[str]] | None) -> dict[str, list[str]]:
        """Facet -> term ids, checked; a term may be given by id, label or alias."""
        out: dict[str, list[str]] = {}
        for facet_id, values in (filters or {}).items():
            facet = self._facet(facet_id)
            if isinstance(values, str):
                values = [values]
            chosen = out.setdefault(facet.id, [])
            for value in values:
                term = _term_named(facet, value)
                if term is None:
                    names = [n for t in facet.terms for n in (t.id, t.label_en, t.label_ko)]
                    raise CatalogueError(
                        f"'{value}' is not a term of facet '{facet.id}'",
                        _closest(value, names),
                    )
                if term.id not in chosen:
                    chosen.append(term.id)
        return {facet: ids for facet, ids in out.items() if ids}

    def _limit(self, limit: int) -> int:
        if not 1 <= limit <= MAX_LIMIT:
            raise CatalogueError(f"limit must be between 1 and {MAX_LIMIT}, not {limit}")
        return limit

    # -- helpers --

    def url(self, path: str) -> str:
        return f"{self.site_url.rstrip('/')}/{path}" if self.site_url else path

    def _terms(self, incident: Incident, lang: str) -> dict[str, list[TermRef]]:
        return {
            f.id: [
                TermRef(facet=f.id, id=t.id, label=t.label(lang))
                for t in self.library.terms_of(incident, f.id)
            ]
            for f in self.library.taxonomy.facets
        }

    # -- operations --

    def search(
        self,
        query: str = "",
        filters: Mapping[str, Sequence[str]] | None = None,
        lang: str = "ko",
        limit: int = 10,
    ) -> SearchResult:
        """The site's search: the same words, synonyms, typo corrections, matching and ranking."""
        lang, limit = self._lang(lang), self._limit(limit)
        chosen = self._filters(filters)
        if not (query or "").strip() and not chosen:
            raise CatalogueError(
                "give a query, filters, or both (an empty query with no filter would list "
                "every case; list_terms shows what filters there are)"
            )
        corpus = self.corpora[lang]
        found = search(corpus.corpus, query or "", chosen)
        if (query or "").strip() and not found.groups and not found.dropped:
            raise CatalogueError(
                f"the query '{query}' has no word to search for (words of one letter or syllable, "
                "and words such as 'the' or '및', are left out)"
            )
        hits = []
        for position, case_id in enumerate(found.ids[:limit]):
            incident = self.library.incident(case_id)
            text = incident.text(lang)
            quoted = None
            if found.groups:
                best = passage(corpus.sentences[case_id], found.groups, found.weights)
                quoted = _passage(best) if best else None
            page = urls.case(lang, case_id)
            hits.append(
                SearchHit(
                    id=case_id,
                    title=text.title,
                    summary=text.summary,
                    text_lang=text.lang,
                    occurred=incident.meta.occurred,
                    published=incident.meta.published,
                    terms=self._terms(incident, lang),
                    url=self.url(page),
                    markdown_url=self.url(page.removesuffix(".html") + ".md"),
                    full_match=position < found.exact,
                    passage=quoted,
                )
            )
        return SearchResult(
            query=query or "",
            lang=lang,
            filters=chosen,
            total=found.total,
            full_matches=found.exact,
            partial_matches=found.partial,
            results=hits,
            dropped=list(found.dropped),
            corrections=[list(pair) for pair in found.corrections],
            ignored=list(found.ignored),
        )

    def get(self, incident_id: str, lang: str = "ko") -> IncidentDetail:
        lang = self._lang(lang)
        incident = self._incident(incident_id)
        text, meta = incident.text(lang), incident.meta
        return IncidentDetail(
            id=incident.id,
            lang=lang,
            text_lang=text.lang,
            title=text.title,
            summary=text.summary,
            occurred=meta.occurred,
            ended=meta.ended,
            published=meta.published,
            terms=self._terms(incident, lang),
            scale=meta.scale.model_dump(exclude_none=True) if meta.scale else {},
            sections={key: text.section(key) for key in SECTIONS},
            not_in_sources=list(meta.not_in_sources),
            summary_only=list(meta.summary_only),
            sources=[Source(**s.model_dump(mode="json")) for s in meta.sources],
            url=self.url(urls.case(lang, incident.id)),
            markdown=self.markdown(incident.id, lang),
        )

    def markdown(self, incident_id: str, lang: str = "ko") -> str:
        lang = self._lang(lang)
        return case_markdown(self.library, self._incident(incident_id), lang, self.site_url)

    def terms(self, facet_id: str, lang: str = "ko") -> TermList:
        lang = self._lang(lang)
        facet = self._facet(facet_id)
        return TermList(
            facet=facet.id,
            label=facet.label(lang),
            description=facet.description(lang),
            lang=lang,
            terms=[
                TermInfo(
                    id=t.id,
                    label=t.label(lang),
                    description=t.description(lang),
                    aliases=list(
                        dict.fromkeys(
                            [*t.aliases(lang), *t.aliases("en" if lang == "ko" else "ko")]
                        )
                    ),
                    parent=t.parent,
                    cases=self.library.count(t),
                    url=self.url(urls.term(lang, t)),
                )
                for t in facet.terms
            ],
        )

    def related(self, incident_id: str, lang: str = "ko", limit: int = 5) -> RelatedResult:
        lang, limit = self._lang(lang), self._limit(limit)
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
        filters: Mapping[str, Sequence[str]] | None = None,
        query: str = "",
        lang: str = "ko",
        limit: int = 5,
    ) -> TopComponents:
        """The components that recur in a set of cases (the cases that match `filters` and
        `query`; every case when both are empty), most frequent first, with those cases: what the
        library page's "check whether your cluster has it too" block lists."""
        lang, limit = self._lang(lang), self._limit(limit)
        facet = self.library.taxonomy.checklist
        if facet is None:
            raise CatalogueError("the taxonomy declares no facet as the checklist")
        chosen = self._filters(filters)
        if (query or "").strip() or chosen:
            ids = search(self.corpora[lang].corpus, query or "", chosen).ids
        else:
            ids = tuple(i.id for i in self.library.incidents)
        counted: dict[str, list[str]] = {}
        for case_id in ids:
            for term in self.library.terms_of(self.library.incident(case_id), facet.id):
                counted.setdefault(term.id, []).append(case_id)
        order = {i.id: n for n, i in enumerate(self.library.incidents)}
        ranked = sorted(counted.items(), key=lambda item: (-len(item[1]), item[0]))[:limit]
        components = []
        for term_id, cases in ranked:
            term = self.library.taxonomy.term(facet.id, term_id)
            components.append(
                ComponentCount(
                    id=term_id,
                    label=term.label(lang),
                    description=term.description(lang),
                    cases=len(cases),
                    incidents=sorted(cases, key=order.__getitem__),
                )
            )
        return TopComponents(facet=facet.id, lang=lang, cases=len(ids), components=components)


def _closest(value: str, options: Sequence[str], n: int = 3) -> list[str]:
    """Options that contain `value` (a shortened id), then those spelled like it."""
    value = str(value)
    containing = [o for o in options if value and value.casefold() in o.casefold()]
    close = difflib.get_close_matches(value, list(options), n=n, cutoff=0.6)
    return list(dict.fromkeys([*containing, *close]))[:n]


def _term_named(facet, value: str):
    wanted = str(value).casefold()
    for term in facet.terms:
        if wanted in {name.casefold() for name in term.names()}:
            return term
    return None


def _passage(found: Passage) -> MatchedPassage:
    marked, at = [], 0
    for start, end in found.marks:
        marked += [found.text[at:start], "**", found.text[start:end], "**"]
        at = end
    marked.append(found.text[at:])
    return MatchedPassage(text=found.text, marked="".join(marked))
