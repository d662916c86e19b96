"""The search engine, as the rules in rules.yml define it: used by the agent server, and the
reference the browser's engine (outputs/assets/search-core.js) is tested against.

A corpus is the library's cases, each with the words it is indexed by (`words`, in every
language), the words of its lead (titles, summaries, the labels of its terms), its terms and its
place in the library's order.
A query becomes groups: each query word (or the word its typo is taken for) with its synonyms
and the taxonomy terms it is a name of. A case matches a group when it has a word that starts
with one of the words (a prefix match; when no indexed word starts with it, the longest indexed
word it starts with, if that is most of it), or is tagged with one of the terms. A case must
match every group of a short query and most groups of a long one (`required_words`); when none
within the filters does, the cases that match the most groups do. These full matches come first,
then the cases that miss one group more. Within each, cases are ranked by the weights of the
groups they match: rarer words weigh more, the word as typed more than a
synonym or a term, and a word in a title or lead more than one in the body. Facets combine with
OR within a facet and AND across facets.
"""

from __future__ import annotations

import math
import re
from bisect import bisect_left
from collections import Counter, defaultdict
from collections.abc import Collection, Iterable, Mapping, Sequence
from dataclasses import dataclass, field, replace
from functools import cached_property

from .analyzer import HANGUL, Analyzer, default_analyzer, rules, same_script


@dataclass(frozen=True)
class Document:
    id: str
    words: Collection[str]  # every word the case is indexed by, lead included, each once
    lead: tuple[str, ...]  # the words of its titles, summaries and term names
    terms: Mapping[str, tuple[str, ...]]  # facet -> term ids
    order: int  # position in the library's order, newest first
    title: tuple[str, ...] = ()  # the words of its titles (part of the lead)
    often: tuple[str, ...] = ()  # the words its text says at least `often.mentions` times
    # "facet:term" -> how often its own text says one of the names of a term it is tagged with
    # (`named_counts`): among cases that score the same, the one that names the term more comes
    # first.
    named: Mapping[str, int] = field(default_factory=dict)


@dataclass(frozen=True)
class Group:
    """One query word, or a phrase that names a term: what was typed, and what a case must have
    to match it (one of the alternatives, every word of the phrase, or one of the terms)."""

    typed: str
    alternatives: tuple[str, ...]  # the word (as typed, or corrected), then its synonyms
    correction: str | None = None  # the indexed word a typo was taken for
    terms: tuple[str, ...] = ()  # "facet:term" of the terms the word or phrase is a name of
    phrase: tuple[str, ...] = ()  # the words of a phrase that names `terms` (no alternatives)
    forms: tuple[str, ...] = ()  # the indexed words it matched (set by `search`; marks passages)


@dataclass(frozen=True)
class Result:
    ids: tuple[str, ...]  # every matching case, best first
    total: int
    counts: Mapping[str, Mapping[str, int]]  # facet -> term -> cases it would give
    groups: tuple[Group, ...]  # the groups used
    dropped: tuple[str, ...]  # words no case has, as typed
    ignored: tuple[str, ...]  # words past the cap, as typed
    corrections: tuple[tuple[str, str], ...]  # (typed, taken as: the word as cases write it)
    weights: Mapping[str, float] = field(default_factory=dict)  # typed word -> its weight
    required: int = 0  # how many of the groups a case must have to be a full match
    exact: int = 0  # the first `exact` results are full matches; the rest miss one group more
    partial: int = 0  # how many cases follow them, matching part of the query


def often_words(words: Iterable[str]) -> tuple[str, ...]:
    """The words a case's text (`Analyzer.document_words`, one entry per mention) says at least
    `often.mentions` times: what the case is about, more than a passing mention."""
    least = rules()["often"]["mentions"]
    return tuple(sorted(w for w, n in Counter(words).items() if n >= least))


def named_counts(
    words: Sequence[str], names: Mapping[str, Sequence[Sequence[str]]]
) -> dict[str, int]:
    """How often `words` (a text's words in order, `Analyzer.words`) say a name of each term in
    `names` ("facet:term" -> the words of each of its names): a name of several words counts
    where its words stand in a row, up to `named_most` times. Terms never named are left out."""
    most = rules()["named_most"]
    firsts = {name[0] for term_names in names.values() for name in term_names if name}
    at: dict[str, list[int]] = {}
    for position, word in enumerate(words):
        if word in firsts:
            at.setdefault(word, []).append(position)
    counts: dict[str, int] = {}
    for key, term_names in names.items():
        times = 0
        for name in term_names:
            name = tuple(name)
            if name:
                size = len(name)
                times += sum(1 for p in at.get(name[0], ()) if tuple(words[p : p + size]) == name)
        if times:
            counts[key] = min(times, most)
    return counts


def synonym_groups(extra: Iterable[Iterable[str]] = (), analyzer: Analyzer | None = None):
    """Word -> the other words of its synonym groups (the reviewed synonyms and names, then
    `extra`), all
    analysed; names of more than one word are left out. Groups that share a word are not
    merged."""
    analyzer = analyzer or default_analyzer()
    minimum = rules()["min_synonym_length"]
    table: dict[str, list[str]] = {}
    for group in [*rules()["synonyms"], *rules()["names"], *extra]:
        words = []
        for name in group:
            word = analyzer.single_word(str(name))
            if word and word not in words:
                words.append(word)
        for word in words:
            table.setdefault(word, [])
            for other in words:
                shortest = minimum["hangul" if HANGUL.match(other) else "latin"]
                if other != word and len(other) >= shortest and other not in table[word]:
                    table[word].append(other)
    return {word: tuple(others) for word, others in table.items()}


class Corpus:
    """One language's cases, indexed for the engine."""

    def __init__(
        self,
        documents: Sequence[Document],
        synonyms: Mapping[str, tuple[str, ...]] | None = None,
        shown: Mapping[str, str] | None = None,
        term_names: Mapping[str, tuple[str, ...]] | None = None,
        term_phrases: Mapping[tuple[str, ...], tuple[str, ...]] | None = None,
    ) -> None:
        self.documents = tuple(documents)
        # A word -> the "facet:term" of the terms it is a one-word name of ("oom" -> the
        # resource-exhaustion cause): the cases tagged with them match the word.
        self.term_names = dict(term_names or {})
        # The words of a name of several words -> the "facet:term" of the terms it names ("fell
        # off the bus" -> the gpu-failure cause): a query with those words in a row names them.
        self.term_phrases = dict(term_phrases or {})
        # Gathered in lists, then frozen: a set copied for every case it gains would grow with
        # the square of a term's cases.
        tagged: dict[str, list[int]] = {}
        for index, document in enumerate(self.documents):
            for facet, ids in document.terms.items():
                for term in ids:
                    tagged.setdefault(f"{facet}:{term}", []).append(index)
        self._tagged: dict[str, frozenset[int]] = {k: frozenset(v) for k, v in tagged.items()}
        # An indexed word as the cases write it, where that differs ("coredn" -> "coredns"):
        # how a correction is shown.
        self.shown = dict(shown or {})
        self._postings, self.vocabulary = _postings(self.documents)
        self.by_id = {d.id: i for i, d in enumerate(self.documents)}
        # A synonym no case has a word for is never searched: it would only find what the
        # longest indexed word it starts with finds ("outofmemory" finding "out").
        self.synonyms = {
            word: kept
            for word, others in (synonyms or {}).items()
            if (kept := tuple(o for o in others if self.has_prefix(o)))
        }

    def known(self, word: str) -> bool:
        """A word the engine knows without the index having it: a synonym or a term's name."""
        return word in self.synonyms or word in self.term_names

    def expand(self, word: str) -> tuple[str, ...]:
        """The indexed words a query word stands for: itself, if indexed (`exact_first`); else
        the indexed words that start with it; else the longest indexed word it starts with, if
        that is most of it (`fallback`)."""
        if rules()["exact_first"] and word in self._postings:
            return (word,)
        found = self.starting_with(word)
        if found:
            return found
        for end in range(len(word) - 1, shortest_fallback(word) - 1, -1):
            if word[:end] in self._postings:
                return (word[:end],)
        return ()

    def cases(self, words: Iterable[str]) -> frozenset[int]:
        """Positions of the cases indexed by any of `words`."""
        found: set[int] = set()
        for word in words:
            found.update(self._postings.get(word, ()))
        return frozenset(found)

    def in_lead(self, words: Iterable[str]) -> frozenset[int]:
        """Positions of the cases with any of `words` in their lead."""
        return frozenset(i for w in words for i in self._fields[0].get(w, ()))

    def in_title(self, words: Iterable[str]) -> frozenset[int]:
        """Positions of the cases with any of `words` in their titles."""
        return frozenset(i for w in words for i in self._fields[1].get(w, ()))

    def in_often(self, words: Iterable[str]) -> frozenset[int]:
        """Positions of the cases that say any of `words` often (`Document.often`)."""
        return frozenset(i for w in words for i in self._fields[2].get(w, ()))

    @cached_property
    def _fields(self) -> tuple[dict[str, list[int]], ...]:
        lead: dict[str, list[int]] = {}
        title: dict[str, list[int]] = {}
        often: dict[str, list[int]] = {}
        for index, document in enumerate(self.documents):
            for word in set(document.lead):
                lead.setdefault(word, []).append(index)
            for word in set(document.title):
                title.setdefault(word, []).append(index)
            for word in set(document.often):
                often.setdefault(word, []).append(index)
        return lead, title, often

    def frequency(self, word: str) -> int:
        return len(self._postings.get(word, ()))

    def exact(self, word: str) -> frozenset[int]:
        """Positions of the cases indexed by exactly this word."""
        return frozenset(self._postings.get(word, ()))

    def has_prefix(self, word: str) -> bool:
        at = bisect_left(self.vocabulary, word)
        return at < len(self.vocabulary) and self.vocabulary[at].startswith(word)

    def starting_with(self, start: str) -> tuple[str, ...]:
        """The indexed words that start with `start`, in order."""
        at = bisect_left(self.vocabulary, start)
        end = at
        while end < len(self.vocabulary) and self.vocabulary[end].startswith(start):
            end += 1
        return self.vocabulary[at:end]

    def tagged(self, key: str) -> frozenset[int]:
        """Positions of the cases tagged with the term "facet:term"."""
        return self._tagged.get(key, frozenset())

    def postings(self, word: str) -> frozenset[int]:
        """Cases with one of the indexed words `word` stands for (`expand`)."""
        return self.cases(self.expand(word))


def _postings(documents: Sequence[Document]) -> tuple[dict[str, tuple[int, ...]], tuple[str, ...]]:
    """Each word's cases, in library order, and the words in order."""
    # Built as lists: a library has millions of (case, word) pairs, and a set per word takes
    # three times the memory of a tuple. (A defaultdict makes no list for a word it has.)
    postings: defaultdict[str, list[int]] = defaultdict(list)
    for index, document in enumerate(documents):
        for word in document.words:
            postings[word].append(index)
    return {word: tuple(found) for word, found in postings.items()}, tuple(sorted(postings))


def shortest_fallback(word: str) -> int:
    """The fewest characters of `word` an indexed word it starts with must have to stand for it
    ("kubernetesx" -> "kubernetes", "느려졌는데" -> "느려"; not "crashloopbackoff" -> "crash")."""
    numerator, denominator = rules()["fallback"]["hangul" if HANGUL.match(word) else "latin"]
    return max(1, -(-len(word) * numerator // denominator))


def edit_distance(a: str, b: str, limit: int) -> int:
    """Edits (insert, delete, replace, or swap two neighbours: "etdc" is one from "etcd") from
    `a` to `b`, or limit + 1 as soon as it must exceed `limit`."""
    if abs(len(a) - len(b)) > limit:
        return limit + 1
    before: list[int] = []
    previous = list(range(len(b) + 1))
    for i, ca in enumerate(a, 1):
        current = [i]
        for j, cb in enumerate(b, 1):
            value = min(previous[j] + 1, current[j - 1] + 1, previous[j - 1] + (ca != cb))
            if i > 1 and j > 1 and ca == b[j - 2] and a[i - 2] == cb:
                value = min(value, before[j - 2] + 1)
            current.append(value)
        # A row's smallest value bounds every later one (a swap included), so stop early.
        if min(current) > limit:
            return limit + 1
        before, previous = previous, current
    return previous[-1]


def start_of(word: str) -> str:
    """The characters a correction of `word` keeps, and the part of the vocabulary (the browser's
    words/<start>.js) where the word and its corrections are."""
    same = rules()["typo"]["same_start"]
    return word[: same["hangul"] if HANGUL.match(word) else same["latin"]]


def correction(word: str, corpus: Corpus, typed: str = "") -> str | None:
    """The word a typo was probably meant as: an indexed word, synonym or term name that starts
    the same way, within the distance its length allows; the most frequent, then the first in
    order ("인피니벤드" -> "인피니밴드", a synonym of the "infiniband" cases write). `typed`, the
    word as typed where its stem differs, is compared too, and first at the same distance (a
    typo's stem is no stem: "linkred" is "linkerd", not "linkr" -> "link")."""
    typo = rules()["typo"]
    korean = bool(HANGUL.match(word))
    if len(word) < (typo["korean_min_length"] if korean else typo["min_length"]):
        return None
    limit = 0
    for length, distance in typo["max_distance"]:
        if len(word) >= length:
            limit = distance
    if korean:
        limit = 1
    start = start_of(word)
    known = sorted(w for w in {*corpus.synonyms, *corpus.term_names} if w.startswith(start))
    forms = [typed, word] if typed and typed != word else [word]
    best: tuple[int, int, int, str] | None = None
    for candidate in (*corpus.starting_with(start), *known):
        for rank, form in enumerate(forms):
            if abs(len(candidate) - len(form)) > limit:
                continue
            distance = edit_distance(form, candidate, limit)
            if distance <= limit:
                key = (distance, rank, -corpus.frequency(candidate), candidate)
                if best is None or key < best:
                    best = key
    return best[3] if best else None


def _units(
    query: str, corpus: Corpus, analyzer: Analyzer
) -> list[tuple[str, str, tuple[str, ...]]]:
    """The query as (typed, the word as typed, words): one word each (two in a row that the
    index has as one word joined, `join_words`), or the words of a phrase that names a term (the
    longest that starts at each word, left to right)."""
    words: list[tuple[str, str]] = []  # (typed, analysed)
    joinable = False  # the word before was kept as typed: it may be joined with this one
    before = ""  # the word before as typed, kept or too short, unless it was joined
    for raw in analyzer.raw_words(query):
        raw = raw[: rules()["max_word_chars"]]
        word = analyzer.stem(raw)
        if rules()["join_words"] and before:
            joined = analyzer.stem(before + raw)
            if same_script(before, raw) and joinable and corpus.frequency(joined):
                words[-1] = (f"{before} {raw}", joined)
                joinable, before = False, ""
                continue
            if not same_script(before, raw) and corpus.known(joined):
                # A name typed half in Hangul ("챗GPT"): a synonym or term name as one word.
                if joinable:
                    words.pop()
                words.append((before + raw, joined))
                joinable, before = False, ""
                continue
        joinable = analyzer.long_enough(word)
        before = raw
        if joinable:
            words.append((raw, word))
    longest = max((len(p) for p in corpus.term_phrases), default=0)
    units = []
    at = 0
    while at < len(words):
        for size in range(min(longest, len(words) - at), 1, -1):
            phrase = tuple(w for _, w in words[at : at + size])
            if phrase in corpus.term_phrases:
                typed = " ".join(raw for raw, _ in words[at : at + size])
                units.append((typed, typed, phrase))
                at += size
                break
        else:
            raw = words[at][0]
            units.append((raw, raw.replace(" ", ""), (words[at][1],)))
            at += 1
    return units


def bounded_query(query: str) -> str:
    """The part of `query` the engines read (`max_query_chars` code points)."""
    return query[: rules()["max_query_chars"]]


def query_groups(query: str, corpus: Corpus, analyzer: Analyzer | None = None):
    """(groups, ignored words): the query's words and the phrases in it that name a term, each
    with its alternatives; filler left out of a query that has other words."""
    analyzer = analyzer or default_analyzer()
    query = bounded_query(query)
    cap = rules()["max_query_words"]
    most = rules()["max_alternatives"]
    units: list[tuple[str, tuple[str, ...]]] = []
    seen: set[tuple[str, ...]] = set()
    for typed, raw, words in _units(query, corpus, analyzer):
        if words not in seen:
            seen.add(words)
            units.append((typed, raw, words))
    filler = analyzer.filler
    meaningful = [u for u in units if len(u[2]) > 1 or u[2][0] not in filler]
    units = meaningful or units
    groups: list[Group] = []
    ignored: list[str] = []
    for typed, raw, words in units:
        if len(groups) >= cap:
            ignored.append(typed)
            continue
        if len(words) > 1:
            groups.append(Group(typed, (), None, corpus.term_phrases[words], words))
            continue
        word = words[0]
        fixed = None
        if not corpus.has_prefix(word) and not corpus.known(word):
            fixed = correction(word, corpus, raw)  # nothing starts with it: perhaps a typo
        chosen = fixed or word
        alternatives = [chosen, *(s for s in corpus.synonyms.get(chosen, ()) if s != chosen)]
        terms = corpus.term_names.get(chosen, ())
        groups.append(Group(typed, tuple(alternatives[:most]), fixed, terms))
    return tuple(groups), tuple(ignored)


def required_words(count: int) -> int:
    """How many of `count` query words a case must have: all of a short query, a share of a
    long one (rounded up; integer arithmetic, so both runtimes agree)."""
    rule = rules()["matching"]
    if count <= rule["all_words_up_to"]:
        return count
    numerator, denominator = rule["share_of_words"]
    return -(-count * numerator // denominator)


def _matches_filters(
    document: Document, filters: Mapping[str, Sequence[str]], skip: str = ""
) -> bool:
    """OR within a facet, AND across facets; `skip` leaves one facet out (for its counts)."""
    for facet, wanted in filters.items():
        if facet == skip or not wanted:
            continue
        if not set(wanted) & set(document.terms.get(facet, ())):
            return False
    return True


def _score_key(score: float) -> int:
    # Sums of logarithms may differ in the last bit between runtimes; compare rounded (half up,
    # as JavaScript's Math.round does).
    return math.floor(score * 1_000_000 + 0.5)


def search(
    corpus: Corpus,
    query: str,
    filters: Mapping[str, Sequence[str]] | None = None,
    analyzer: Analyzer | None = None,
    within: Collection[str] | None = None,
) -> Result:
    """`within`: the ids of the cases to search among, when a caller narrows them further than
    facets do (the agent server's date range); None for every case."""
    filters = {f: tuple(v) for f, v in (filters or {}).items() if v}
    documents = corpus.documents
    allowed = frozenset(
        i
        for i, d in enumerate(documents)
        if _matches_filters(d, filters) and (within is None or d.id in within)
    )
    groups, ignored = query_groups(query, corpus, analyzer)
    # group, cases, literal (the word as typed, or every word of the phrase), lead, title, often
    matched: list[tuple[Group, frozenset[int], ...]] = []
    dropped: list[str] = []
    for group in groups:
        tagged = frozenset().union(*(corpus.tagged(key) for key in group.terms))
        if group.phrase:
            forms = [corpus.expand(w) for w in group.phrase]
            literal = frozenset.intersection(*(corpus.cases(f) for f in forms))
            lead = tagged | frozenset.intersection(*(corpus.in_lead(f) for f in forms))
            title = frozenset.intersection(*(corpus.in_title(f) for f in forms))
            often = frozenset.intersection(*(corpus.in_often(f) for f in forms))
            every = tuple(w for f in forms for w in f)
            found = literal | tagged
        else:
            forms = [corpus.expand(a) for a in group.alternatives]
            literal = corpus.cases(forms[0])
            every = tuple(w for f in forms for w in f)
            lead, title = corpus.in_lead(every), corpus.in_title(every)
            often = corpus.in_often(every)
            found = corpus.cases(every) | tagged
        if found:
            matched.append((replace(group, forms=every), found, literal, lead, title, often))
        else:
            dropped.append(group.typed)  # no case has it, nor anything it was taken for
    hits = [0] * len(documents)
    for _, found, *_ in matched:
        for index in found:
            hits[index] += 1
    required = required_words(len(matched))
    if matched:
        # When no case within the filters has enough of the words, the cases with the most do.
        best = max((hits[i] for i in allowed), default=0)
        required = max(1, min(required, best))
        # After them, the cases that miss one word more (a reader who describes a problem
        # rarely uses every word the case does); they are told apart (`exact`).
        least = max(1, required - 1)
        words_set = frozenset(i for i, n in enumerate(hits) if n >= least)
    else:
        words_set = frozenset(range(len(documents))) if not groups else frozenset()
    chosen = words_set & allowed
    total = max(len(documents), 1)
    weights = [math.log(1 + total / len(found)) for _, found, *_ in matched]
    bonus, title_bonus = rules()["lead_bonus"], rules()["title_bonus"]
    synonym = rules()["synonym_weight"]
    often_bonus = rules()["often"]["bonus"]

    def score(index: int) -> float:
        value = 0.0
        for (_, found, literal, lead, title, often), weight in zip(matched, weights, strict=True):
            if index in found:
                share = 1.0 if index in literal else synonym
                value += (
                    weight
                    * share
                    * (
                        1
                        + bonus * (index in lead)
                        + title_bonus * (index in title)
                        + often_bonus * (index in often)
                    )
                )
        return value

    def named(index: int) -> int:
        # How often the case names the terms the query names: the tie-breaker of equal scores.
        said = documents[index].named
        return sum(said.get(key, 0) for group, *_ in matched for key in group.terms)

    if matched:
        ranked = sorted(
            chosen,
            key=lambda i: (
                hits[i] < required,
                -_score_key(score(i)),
                -named(i),
                documents[i].order,
            ),
        )
    else:
        ranked = sorted(chosen, key=lambda i: documents[i].order)
    counts: dict[str, dict[str, int]] = {}
    facets = {f for d in documents for f in d.terms}
    for facet in sorted(facets):
        tally: dict[str, int] = {}
        for index in words_set:
            document = documents[index]
            if within is not None and document.id not in within:
                continue
            if _matches_filters(document, filters, skip=facet):
                for term in document.terms.get(facet, ()):
                    tally[term] = tally.get(term, 0) + 1
        counts[facet] = dict(sorted(tally.items()))
    return Result(
        ids=tuple(documents[i].id for i in ranked),
        total=len(ranked),
        counts=counts,
        groups=tuple(g for g, *_ in matched),
        dropped=tuple(dropped),
        ignored=ignored,
        required=required if matched else 0,
        exact=(exact := sum(1 for i in ranked if not matched or hits[i] >= required)),
        partial=len(ranked) - exact,
        corrections=tuple(
            (g.typed, corpus.shown.get(g.correction, g.correction)) for g in groups if g.correction
        ),
        weights={g.typed: w for (g, *_), w in zip(matched, weights, strict=True)},
    )


@dataclass(frozen=True)
class Passage:
    text: str
    marks: tuple[tuple[int, int], ...] = field(default=())  # [start, end) of matched words


_SPAN = re.compile(rules()["word_pattern"])


def passage(
    sentences: Sequence[str],
    groups: Sequence[Group],
    weights: Mapping[str, float] | None = None,
    analyzer: Analyzer | None = None,
) -> Passage | None:
    """The sentence that best shows why a case matched: the one with the most weight of
    matched query words (the first of equals), with those words marked."""
    analyzer = analyzer or default_analyzer()
    best: tuple[float, int, Passage] | None = None
    for position, sentence in enumerate(sentences):
        marks, matched = _marks(sentence, groups, analyzer)
        if not marks:
            continue
        value = sum((weights or {}).get(g.typed, 1.0) for g in matched)
        if best is None or _score_key(value) > _score_key(best[0]):
            best = (value, position, Passage(sentence, tuple(marks)))
    return best[2] if best else None


def _marks(sentence: str, groups: Sequence[Group], analyzer: Analyzer):
    """A sentence word is marked when it, or its stem, is one of the indexed words a group
    matched (`Group.forms`)."""
    lowered = sentence.lower()
    marks: list[tuple[int, int]] = []
    matched: list[Group] = []
    for match in _SPAN.finditer(lowered):
        raw = match.group()
        word = analyzer.stem(raw)
        hit = [g for g in groups if word in g.forms or raw in g.forms]
        if hit:
            marks.append((match.start(), match.end()))
            matched.extend(g for g in hit if g not in matched)
    return marks, matched
