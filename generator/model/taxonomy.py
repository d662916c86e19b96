"""The reviewed vocabulary as values: facets, as `taxonomy.yml` declares them, and their terms.

A facet's declaration says everything the rest of the program needs to know about it: how many
terms a case names, whether it is required, whether it describes what went wrong (descriptive)
or where it happened (context), its colour, where its chips sit on a case page, whether it is the
byline or the "check your cluster" list. The taxonomy also says which facets the graph draws and
which pairs get co-occurrence tables. Nothing else names a facet.
"""

from __future__ import annotations

from collections.abc import Iterator, Mapping
from dataclasses import dataclass, field
from types import MappingProxyType
from typing import Literal

Role = Literal["context", "descriptive"]


@dataclass(frozen=True, order=True)
class Term:
    """A term of one facet; ordered and hashed by (facet position, id)."""

    facet_index: int
    id: str
    facet: str
    label_ko: str
    label_en: str
    description_ko: str
    description_en: str
    aliases_ko: tuple[str, ...]
    aliases_en: tuple[str, ...]
    parent: str | None

    @property
    def key(self) -> tuple[str, str]:
        return self.facet, self.id

    def label(self, lang: str) -> str:
        return self.label_ko if lang == "ko" else self.label_en

    def description(self, lang: str) -> str:
        return self.description_ko if lang == "ko" else self.description_en

    def aliases(self, lang: str) -> tuple[str, ...]:
        return self.aliases_ko if lang == "ko" else self.aliases_en

    def names(self) -> tuple[str, ...]:
        """Every way a reader may name this term, in both languages."""
        return (self.id, self.label_ko, self.label_en, *self.aliases_ko, *self.aliases_en)


@dataclass(frozen=True)
class Facet:
    id: str
    label_ko: str
    label_en: str
    description_ko: str
    description_en: str
    terms: tuple[Term, ...]
    position: int = 0
    single: bool = False  # a case names exactly one term (`organization: acme`), not a list
    required: bool = True  # a case names at least one term
    role: Role = "descriptive"
    color: str = "#4a4a4a"
    case_section: str | None = None  # descriptive chips shown under this prose section
    checklist: bool = False  # listed by the "check whether your cluster has it too" block
    byline: bool = False  # who had the incident: on case cards, feed entries and citations

    @property
    def slug(self) -> str:
        """The facet as it appears in URLs."""
        return self.id.replace("_", "-")

    @property
    def descriptive(self) -> bool:
        return self.role == "descriptive"

    def label(self, lang: str) -> str:
        return self.label_ko if lang == "ko" else self.label_en

    def description(self, lang: str) -> str:
        return self.description_ko if lang == "ko" else self.description_en


@dataclass(frozen=True)
class Taxonomy:
    facets: tuple[Facet, ...]
    matrices: tuple[tuple[str, str], ...] = ()  # co-occurrence tables, rows × columns
    graph: tuple[str, ...] = ()  # the facets the graph draws, in legend order
    _index: Mapping[tuple[str, str], Term] = field(
        init=False, repr=False, compare=False, hash=False
    )
    _facets: Mapping[str, Facet] = field(init=False, repr=False, compare=False, hash=False)

    def __post_init__(self) -> None:
        # Made from the facets, read-only; `dataclasses.replace` makes them afresh.
        object.__setattr__(self, "_facets", MappingProxyType({f.id: f for f in self.facets}))
        index = {t.key: t for f in self.facets for t in f.terms}
        object.__setattr__(self, "_index", MappingProxyType(index))

    def facet(self, facet_id: str) -> Facet:
        return self._facets[facet_id]

    def has_facet(self, facet_id: str) -> bool:
        return facet_id in self._facets

    def term(self, facet_id: str, term_id: str) -> Term | None:
        return self._index.get((facet_id, term_id))

    def terms(self) -> Iterator[Term]:
        for facet in self.facets:
            yield from facet.terms

    def ancestors(self, facet_id: str, term_id: str) -> tuple[str, ...]:
        """The ids of a term's parent, its parent's parent and so on (the loader refuses
        cycles, so the chain ends)."""
        found: list[str] = []
        term = self.term(facet_id, term_id)
        while term is not None and term.parent and term.parent not in found:
            found.append(term.parent)
            term = self.term(facet_id, term.parent)
        return tuple(found)

    @property
    def ids(self) -> tuple[str, ...]:
        return tuple(f.id for f in self.facets)

    @property
    def descriptive(self) -> tuple[Facet, ...]:
        """Facets that describe what went wrong, in their declared order."""
        return tuple(f for f in self.facets if f.descriptive)

    @property
    def context(self) -> tuple[Facet, ...]:
        return tuple(f for f in self.facets if not f.descriptive)

    @property
    def filter_order(self) -> tuple[Facet, ...]:
        """The order applied filters are listed in, as the reference page lists them: what the
        cases are about (the descriptive facets), then their context (organization, domain)."""
        return self.descriptive + self.context

    @property
    def graphed(self) -> tuple[Facet, ...]:
        """The facets the graph draws, in the order of its legend."""
        return tuple(self._facets[f] for f in self.graph)

    @property
    def checklist(self) -> Facet | None:
        return next((f for f in self.facets if f.checklist), None)

    @property
    def byline(self) -> Facet | None:
        return next((f for f in self.facets if f.byline), None)

    def suggest(self, facet_id: str, word: str) -> str | None:
        """The id of the term a contributor probably meant by `word` (an id, label or alias)."""
        from ..validate.diagnostics import closest

        facet = self.facet(facet_id)
        by_name: dict[str, str] = {}
        for term in facet.terms:
            for name in term.names():
                by_name.setdefault(name.lower(), term.id)
        if word.lower() in by_name:
            return by_name[word.lower()]
        match = closest(word, by_name)
        return by_name[match.lower()] if match else None

    def facet_of(self, term_id: str) -> tuple[Facet, ...]:
        """The facets that have a term with this id (for "that term belongs to …" hints)."""
        return tuple(f for f in self.facets if (f.id, term_id) in self._index)
