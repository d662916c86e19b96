"""The library: validated incidents and the taxonomy joined into one immutable, indexed value.

Everything derived from the incidents as a whole (indexes by term, related cases, the terms that
occur together) is worked out here, once, when the library is built; nothing writes into it
afterwards, so every later stage reads the same frozen value.
"""

from __future__ import annotations

import heapq
from collections import Counter, defaultdict
from collections.abc import Mapping
from dataclasses import dataclass, field
from itertools import combinations
from types import MappingProxyType

from .incident import Incident
from .taxonomy import Taxonomy, Term
from .text import date_key, is_known

RELATED_LIMIT = 5  # related cases shown per case
RELATED_POOL = 100  # newest cases of a term that are candidates for "related"
COOCCURRING_LIMIT = 5  # terms per facet under "often seen with"


def newest_first(incident: Incident) -> tuple:
    """Sort key: newest occurrence first, then newest publication, then id for stability. A
    case whose sources give no date (`occurred: unknown`) takes its publication's place: it
    happened no later than that, and the publication is when readers first heard of it."""
    meta = incident.meta
    published = date_key(meta.published)
    occurred = date_key(meta.occurred) if is_known(meta.occurred) else published
    return (tuple(-p for p in occurred), tuple(-p for p in published), incident.id)


@dataclass(frozen=True)
class Related:
    incident: Incident
    shared: tuple[Term, ...]


Cooccurring = tuple[tuple[str, tuple[tuple[Term, int], ...]], ...]


@dataclass(frozen=True)
class Library:
    taxonomy: Taxonomy
    incidents: tuple[Incident, ...]  # newest first
    _by_id: Mapping[str, Incident] = field(repr=False, compare=False)
    _rank: Mapping[str, int] = field(repr=False, compare=False)  # position, newest first
    _by_term: Mapping[tuple[str, str], tuple[Incident, ...]] = field(repr=False, compare=False)
    _terms_of: Mapping[tuple[str, str], tuple[Term, ...]] = field(repr=False, compare=False)
    _related: Mapping[str, tuple[Related, ...]] = field(repr=False, compare=False)
    _cooccurring: Mapping[tuple[str, str], Cooccurring] = field(repr=False, compare=False)
    _pairs: Mapping[tuple[Term, Term], int] = field(repr=False, compare=False)

    def incident(self, incident_id: str) -> Incident:
        return self._by_id[incident_id]

    def has_incident(self, incident_id: str) -> bool:
        return incident_id in self._by_id

    def rank(self, incident_id: str) -> int:
        """The incident's position in the library's order (0 is the newest)."""
        return self._rank[incident_id]

    def cases_with(self, term: Term) -> tuple[Incident, ...]:
        """Incidents tagged with `term`, newest first."""
        return self._by_term.get(term.key, ())

    def count(self, term: Term) -> int:
        return len(self.cases_with(term))

    def terms_of(self, incident: Incident, facet: str) -> tuple[Term, ...]:
        return self._terms_of.get((incident.id, facet), ())

    def descriptive_terms(self, incident: Incident) -> tuple[Term, ...]:
        return tuple(t for f in self.taxonomy.descriptive for t in self.terms_of(incident, f.id))

    def byline(self, incident: Incident) -> tuple[Term, ...]:
        """The terms of the byline facet (who had the incident), if the taxonomy has one."""
        facet = self.taxonomy.byline
        return self.terms_of(incident, facet.id) if facet is not None else ()

    def related(self, incident: Incident) -> tuple[Related, ...]:
        """Other incidents ranked by how many descriptive terms they share with this one."""
        return self._related.get(incident.id, ())

    def cooccurring(self, term: Term) -> Cooccurring:
        """For each other descriptive facet, the terms seen most often together with `term`."""
        return self._cooccurring.get(term.key, ())

    def pairs(self) -> Mapping[tuple[Term, Term], int]:
        """How many incidents each pair of descriptive terms (in term order) shares."""
        return self._pairs

    def used_terms(self, facet: str) -> tuple[Term, ...]:
        return tuple(t for t in self.taxonomy.facet(facet).terms if self.count(t))


def build_library(
    taxonomy: Taxonomy, incidents, executor=None, previous: Library | None = None
) -> Library:
    """Index incidents by id and by term, rank related cases and count co-occurring terms.

    `executor` (see pipeline/executor.py) shares the ranking of related cases, the costly part on
    a large library, among workers; by default it runs here. `previous` (a preview's last
    library): when every case has the same descriptive terms in the same order, under the same
    taxonomy, the ranking is its ranking (an edit of a case's text changes none of it)."""
    ordered = tuple(sorted(incidents, key=newest_first))
    rank = {i.id: n for n, i in enumerate(ordered)}
    by_term: dict[tuple[str, str], list[Incident]] = defaultdict(list)
    terms_of: dict[tuple[str, str], tuple[Term, ...]] = {}
    for incident in ordered:
        for facet in taxonomy.facets:
            found = []
            for term_id in incident.term_ids(facet.id):
                by_term[(facet.id, term_id)].append(incident)
                term = taxonomy.term(facet.id, term_id)
                if term is not None:
                    found.append(term)
            terms_of[(incident.id, facet.id)] = tuple(found)
    by_term_frozen = {key: tuple(value) for key, value in by_term.items()}
    descriptive = tuple(f.id for f in taxonomy.descriptive)

    def own_terms(incident: Incident) -> tuple[Term, ...]:
        return tuple(t for f in descriptive for t in terms_of[(incident.id, f)])

    total = max(len(ordered), 1)
    # Each term's candidates as ids, and its rarity bonus, worked out once: the ranking below
    # runs once per (case, shared term, candidate), 2.8 million times at 1,000 cases.
    candidates = {key: tuple(i.id for i in cases[:RELATED_POOL]) for key, cases in by_term.items()}
    bonus_of = {key: (1.0 - len(cases) / total) * 0.01 for key, cases in by_term.items()}

    def rank_related(n: int) -> list[str]:
        """The ids of the cases most like `ordered[n]`. Rare terms say more than common ones,
        so each shared term counts 1 plus a small bonus for rarity (which only breaks ties).
        For terms that thousands of cases share, only the newest RELATED_POOL are candidates:
        that bounds the work, and a case sharing only very common terms is a weak match."""
        own = ordered[n].id
        scores: dict[str, float] = {}
        score = scores.get
        for term in own_terms(ordered[n]):
            bonus = bonus_of.get(term.key, 0.0)
            for other in candidates.get(term.key, ()):
                if other != own:
                    scores[other] = score(other, 0.0) + 1.0 + bonus
        return heapq.nsmallest(RELATED_LIMIT, scores, key=lambda i: (-scores[i], rank[i]))

    by_id = {i.id: i for i in ordered}
    related: dict[str, tuple[Related, ...]] = {}
    # What depends on the cases' order and terms alone is `previous`'s when those are (a
    # preview's edit of a case's text): the ranking reads the descriptive terms, the pairs and
    # the terms seen together read every facet's.
    every_facet = tuple(f.id for f in taxonomy.facets)
    ranked_alike = _alike(previous, taxonomy, ordered, terms_of, descriptive)
    tagged_alike = ranked_alike and _alike(previous, taxonomy, ordered, terms_of, every_facet)
    if ranked_alike:
        ranked = [[r.incident.id for r in previous.related(i)] for i in ordered]
    elif executor is not None:
        ranked = executor.map(rank_related, len(ordered))
    else:
        ranked = [rank_related(n) for n in range(len(ordered))]
    for incident, ids in zip(ordered, ranked, strict=True):
        keys = {t.key for t in own_terms(incident)}
        related[incident.id] = tuple(
            Related(by_id[i], tuple(t for t in own_terms(by_id[i]) if t.key in keys)) for i in ids
        )

    if tagged_alike:
        assert previous is not None
        pairs, cooccurring = dict(previous._pairs), dict(previous._cooccurring)
    else:
        pairs, cooccurring = _pairs_and_cooccurring(taxonomy, ordered, terms_of, own_terms)
    return Library(
        taxonomy=taxonomy,
        incidents=ordered,
        _by_id=MappingProxyType(by_id),
        _rank=MappingProxyType(rank),
        _by_term=MappingProxyType(by_term_frozen),
        _terms_of=MappingProxyType(terms_of),
        _related=MappingProxyType(related),
        _cooccurring=MappingProxyType(cooccurring),
        _pairs=MappingProxyType(dict(pairs)),
    )


def _pairs_and_cooccurring(taxonomy: Taxonomy, ordered, terms_of, own_terms) -> tuple:
    """How many cases each pair of descriptive terms shares, and each term's most frequent
    companions of every other descriptive facet."""
    descriptive = tuple(f.id for f in taxonomy.descriptive)
    pairs: Counter = Counter()
    together: dict[tuple[str, str], dict[str, Counter]] = defaultdict(lambda: defaultdict(Counter))
    for incident in ordered:
        terms = sorted(own_terms(incident))
        for a, b in combinations(terms, 2):
            pairs[(a, b)] += 1
        context = [t for f in taxonomy.context for t in terms_of[(incident.id, f.id)]]
        for a in (*terms, *context):
            for b in terms:
                if a.facet != b.facet:
                    together[a.key][b.facet][b] += 1
    cooccurring = {}
    for key, by_facet in together.items():
        cooccurring[key] = tuple(
            (
                facet,
                tuple(
                    sorted(by_facet[facet].items(), key=lambda item: (-item[1], item[0]))[
                        :COOCCURRING_LIMIT
                    ]
                ),
            )
            for facet in descriptive
            if by_facet.get(facet)
        )
    return pairs, cooccurring


def _alike(
    previous: Library | None, taxonomy: Taxonomy, ordered, terms_of, facets: tuple[str, ...]
) -> bool:
    """Whether `ordered` are `previous`'s cases in its order, under the same taxonomy, each
    with the terms of `facets` it had there."""
    if previous is None or previous.taxonomy != taxonomy or len(previous.incidents) != len(ordered):
        return False
    old = previous._terms_of
    return all(a.id == b.id for a, b in zip(previous.incidents, ordered, strict=True)) and all(
        old.get((i.id, f)) == terms_of[(i.id, f)] for i in ordered for f in facets
    )
