"""The library: validated incidents and the taxonomy joined into one immutable, indexed value."""

from __future__ import annotations

import heapq
from collections import Counter, defaultdict
from dataclasses import dataclass, field

from .incident import Incident
from .taxonomy import FACETS, Taxonomy, Term
from .text import date_key

RELATED_POOL = 100
# Facets that describe what went wrong; these drive "related cases" and co-occurrence.
DESCRIPTIVE_FACETS: tuple[str, ...] = ("symptom", "cause", "component", "contributing_factor")


def newest_first(incident: Incident) -> tuple:
    """Sort key: newest occurrence first, then newest publication, then id for stability."""
    occurred = date_key(incident.meta.occurred)
    published = date_key(incident.meta.published)
    return (tuple(-p for p in occurred), tuple(-p for p in published), incident.id)


@dataclass(frozen=True)
class Related:
    incident: Incident
    shared: tuple[Term, ...]


@dataclass(frozen=True)
class Library:
    taxonomy: Taxonomy
    incidents: tuple[Incident, ...]  # newest first
    _by_id: dict[str, Incident] = field(repr=False, compare=False)
    _by_term: dict[tuple[str, str], tuple[Incident, ...]] = field(repr=False, compare=False)
    _rank: dict[str, int] = field(repr=False, compare=False)  # position, newest first
    # Derived values that renderers keep for reuse (one build reads one library).
    memo: dict = field(default_factory=dict, repr=False, compare=False)

    def incident(self, incident_id: str) -> Incident:
        return self._by_id[incident_id]

    def cases_with(self, term: Term) -> tuple[Incident, ...]:
        """Incidents tagged with `term`, newest first."""
        return self._by_term.get(term.key, ())

    def count(self, term: Term) -> int:
        return len(self.cases_with(term))

    def terms_of(self, incident: Incident, facet: str) -> tuple[Term, ...]:
        key = ("terms_of", incident.id, facet)  # asked for over and over by every page
        found = self.memo.get(key)
        if found is None:
            terms = (self.taxonomy.term(facet, term_id) for term_id in incident.term_ids(facet))
            found = self.memo[key] = tuple(t for t in terms if t is not None)
        return found

    def descriptive_terms(self, incident: Incident) -> tuple[Term, ...]:
        return tuple(t for facet in DESCRIPTIVE_FACETS for t in self.terms_of(incident, facet))

    def related(self, incident: Incident, limit: int = 5) -> tuple[Related, ...]:
        """Other incidents ranked by how many descriptive terms they share with this one.

        Rare terms say more than common ones, so each shared term counts 1 plus a small bonus
        for rarity (which only breaks ties). For terms that thousands of cases share, only the
        newest RELATED_POOL of them are candidates: that bounds the work on a large library, and a
        case that shares nothing but very common terms is a weak "related" case anyway."""
        return self.related_from(incident, self.related_ids(incident, limit))

    def related_ids(self, incident: Incident, limit: int = 5) -> list[str]:
        """The ids `related` ranks first (the costly part, kept apart so a worker can do it)."""
        own = self.descriptive_terms(incident)
        total = max(len(self.incidents), 1)
        scores: dict[str, float] = {}
        for term in own:
            cases = self.cases_with(term)
            bonus = 1.0 - len(cases) / total
            for other in cases[:RELATED_POOL]:
                if other.id != incident.id:
                    scores[other.id] = scores.get(other.id, 0.0) + 1.0 + bonus * 0.01
        rank = self._rank
        return heapq.nsmallest(limit, scores, key=lambda i: (-scores[i], rank[i]))

    def related_from(self, incident: Incident, ranked: list[str]) -> tuple[Related, ...]:
        out = []
        own_keys = {t.key for t in self.descriptive_terms(incident)}
        for other_id in ranked:
            other = self._by_id[other_id]
            shared = tuple(t for t in self.descriptive_terms(other) if t.key in own_keys)
            out.append(Related(other, shared))
        return tuple(out)

    def cooccurring(
        self, term: Term, limit: int = 5
    ) -> tuple[tuple[str, tuple[tuple[Term, int], ...]], ...]:
        """For each other descriptive facet, the terms seen most often together with `term`."""
        counts: dict[str, Counter[Term]] = defaultdict(Counter)
        for incident in self.cases_with(term):
            for facet in DESCRIPTIVE_FACETS:
                if facet == term.facet:
                    continue
                for other in self.terms_of(incident, facet):
                    counts[facet][other] += 1
        result = []
        for facet in DESCRIPTIVE_FACETS:
            if facet == term.facet or not counts[facet]:
                continue
            top = sorted(counts[facet].items(), key=lambda item: (-item[1], item[0]))[:limit]
            result.append((facet, tuple(top)))
        return tuple(result)

    def used_terms(self, facet: str) -> tuple[Term, ...]:
        return tuple(t for t in self.taxonomy.facet(facet).terms if self.count(t))


def build_library(taxonomy: Taxonomy, incidents: tuple[Incident, ...] | list[Incident]) -> Library:
    """Index incidents by id and by term; order everything deterministically."""
    ordered = tuple(sorted(incidents, key=newest_first))
    by_term: dict[tuple[str, str], list[Incident]] = defaultdict(list)
    for incident in ordered:
        for facet in FACETS:
            for term_id in incident.term_ids(facet):
                by_term[(facet, term_id)].append(incident)
    return Library(
        taxonomy=taxonomy,
        incidents=ordered,
        _by_id={i.id: i for i in ordered},
        _rank={i.id: n for n, i in enumerate(ordered)},
        _by_term={key: tuple(value) for key, value in by_term.items()},
    )
