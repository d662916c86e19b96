"""Data for the library page's live search and filtering, shipped as classic scripts. Pure.

Every file is a plain `<script src>` file, so it loads from `file://` too. Per language, under
`<lang>/search/`:
- `terms.js`: facets, term labels and every name readers may type (recommended filters, chip
  labels), the interface strings and the search rules; small, loaded on every library page.
- `index.js`: what the engine needs of every case, whichever way the site is opened: the cases of
  each term (facets and their counts) and how often each names it (ties of equal scores), the
  synonyms and the vocabulary parts there are. Loaded on
  the reader's first search. Cases are numbered by their position in the library's order.
- `words/<start>.js`: the indexed words that start with <start> (two letters, or one Korean
  syllable) and the cases that have each: a query word's cases and its typo correction. A
  search loads the parts of its words only.
- `text/<position>.js`: one case's card (its id included) and the sentences a result may quote;
  loaded for the cards shown.
- `ids.js`: every case's id by position; loaded only where a script asks for the ids of a whole
  result (the graph of a query), not for a list of cards.
- `cards/<id>.js` (written by the build, which has the renderer): one case's labelled sections,
  shown in place of the summary when at most `FULL_CARDS` cases remain.

All of it is the corpus of generator/search, written out: the browser analyses queries, never
documents. Lists of case positions are written compactly (`encode_positions`), and every file
but terms.js is asked for with the stamp terms.js carries (`stamp`), so that a browser's cached
copy of a file from an earlier build, whose positions may mean other cases, is never used.
"""

from __future__ import annotations

import hashlib
import json
from collections.abc import Collection, Iterable, Iterator, Mapping
from dataclasses import dataclass

from ..model.incident import Incident
from ..model.library import Library
from ..pages import urls
from ..pages.build import FULL_CARDS
from ..pages.kinds import PAGES_AROUND
from ..render.renderer import ROOT_MARK
from ..render.strings import date_text, strings_for
from ..search.analyzer import browser_rules
from ..search.corpus import SearchCorpus
from ..search.engine import Corpus, start_of

# Positions as text: each gap from the previous position (minus one; the first from -1) in base 32,
# most significant digit first, every digit but the last from _MORE and the last from _LAST. A
# gap under 32 is one character, under 1,024 two. Safe in JSON strings and file names; must match
# `decodePositions` in search-core.js (tests/search/test_search_js.py runs both on the same lists).
_LAST = "0123456789ABCDEFGHIJKLMNOPQRSTUV"
_MORE = "WXYZabcdefghijklmnopqrstuvwxyz-_"


def _gap_code(gap: int) -> str:
    digits = [_LAST[gap % 32]]
    gap //= 32
    while gap:
        digits.append(_MORE[gap % 32])
        gap //= 32
    return "".join(reversed(digits))


_SHORT_CODES = [_gap_code(gap) for gap in range(1024)]  # every gap of one or two characters


def encode_positions(positions: Iterable[int]) -> str:
    """Strictly increasing non-negative integers as a compact string (see _LAST). A large
    library has millions of (word, case) pairs: this runs once per pair."""
    positions = list(positions)
    gaps = [b - a - 1 for a, b in zip([-1, *positions], positions, strict=False)]
    if gaps and min(gaps) < 0:
        at = min(range(len(gaps)), key=gaps.__getitem__)
        previous = positions[at - 1] if at else -1
        raise ValueError(f"positions must increase: {previous} then {positions[at]}")
    short = _SHORT_CODES
    return "".join([short[gap] if gap < 1024 else _gap_code(gap) for gap in gaps])


def decode_positions(text: str) -> list[int]:
    """The inverse of `encode_positions`."""
    positions: list[int] = []
    previous = -1
    gap = 0
    for char in text:
        more = _MORE.find(char)
        if more >= 0:
            gap = gap * 32 + more
            continue
        gap = gap * 32 + _LAST.index(char)
        previous += gap + 1
        positions.append(previous)
        gap = 0
    return positions


def stamp(index: dict, ids: list[str]) -> str:
    """What names this build's search files: a digest of the index and of the cases' order."""
    digest = hashlib.sha256(_json(index).encode())
    digest.update("\n".join(ids).encode())
    return digest.hexdigest()[:12]


def terms_payload(library: Library, lang: str, stamp: str = "") -> dict:
    facets = []
    for facet in library.taxonomy.facets:
        terms = []
        for term in facet.terms:
            names = sorted({name for name in term.names() if name}, key=lambda n: (n.casefold(), n))
            terms.append(
                {
                    "id": term.id,
                    "label": term.label(lang),
                    "names": names,
                    "count": library.count(term),
                    "url": urls.term(lang, term)[len(lang) + 1 :],
                }
            )
        facets.append(
            {
                "id": facet.id,
                "label": facet.label(lang),
                # What the browser does with the facet, as taxonomy.yml declares it.
                "descriptive": facet.descriptive,
                "byline": facet.byline,
                "checklist": facet.checklist,
                "terms": terms,
            }
        )
    return {
        "lang": lang,
        "total": len(library.incidents),
        "graph": list(library.taxonomy.graph),
        "full_cards": FULL_CARDS,
        "page_size": urls.PAGE_SIZE,
        "pages_around": PAGES_AROUND,
        "root_mark": ROOT_MARK,
        "facets": facets,
        "filter_order": [facet.id for facet in library.taxonomy.filter_order],
        # Asked for with every other search file (`?v=`), so none comes from an older build.
        "stamp": stamp,
        "strings": strings_for(lang),
        "rules": browser_rules(),
    }


def term_keys(library: Library) -> list[str]:
    """Every term as "facet:term", in taxonomy order: what a case's term positions point to."""
    return [f"{facet.id}:{term.id}" for facet in library.taxonomy.facets for term in facet.terms]


def index_payload(library: Library, search: SearchCorpus) -> dict:
    """The engine's view of every case, in library order (a case's position is its order): how
    many there are, and for each of `terms` the positions of its cases (`encode_positions`).
    Which words are in a case's lead and titles is given word by word in the vocabulary parts
    (`vocabulary_parts`), and its id in its card (`text_payload`) and in ids.js: a search
    downloads them only for the words it has and the cards it shows (in a large library the
    ids would be most of this file)."""
    keys = term_keys(library)
    position = {key: n for n, key in enumerate(keys)}
    cases: list[list[int]] = [[] for _ in keys]
    named: list[list[str]] = [[] for _ in keys]
    for at, document in enumerate(search.corpus.documents):
        for facet, ids in document.terms.items():
            for term in ids:
                key = f"{facet}:{term}"
                cases[position[key]].append(at)
                named[position[key]].append(str(document.named.get(key, 0)))
    return {
        "lang": search.lang,
        "count": len(search.corpus.documents),
        "terms": keys,
        "cases": [encode_positions(found) for found in cases],
        # For each term, how often each of its cases (in the order of `cases`) names it, one
        # digit a case (up to `named_most`), trailing zeros left out: the tie-breaker of equal
        # scores (`Document.named`). As a list of numbers it was most of this file.
        "named": ["".join(digits).rstrip("0") for digits in named],
        "synonyms": {word: list(others) for word, others in sorted(search.corpus.synonyms.items())},
        # A word -> the terms it is a one-word name of: their cases match it.
        "termNames": {word: list(keys) for word, keys in search.corpus.term_names.items()},
        # The words of a name of several words -> the terms it names: a query with those
        # words in a row names them.
        "termPhrases": [[list(w), list(keys)] for w, keys in search.corpus.term_phrases.items()],
        # The parts of the vocabulary there are (words/<start>.js), so none is asked for in vain.
        "starts": sorted({start_of(word) for word in search.corpus.vocabulary}),
    }


def vocabulary_parts(
    search: SearchCorpus, starts: Collection[str] | None = None
) -> dict[str, dict]:
    """The vocabulary in parts by how words start (`start_of`): start -> {words (sorted), postings
    (the positions of the cases with each word), lead, title and often (the positions of the
    cases with it in their lead, in their titles, saying it often: a match there weighs more),
    shown (how cases write a stem, for showing a correction)}, every list of positions encoded
    (`encode_positions`). A query word needs only its own part: for its cases, their weights and
    a typo's correction.
    `starts`: only the parts of these starts."""
    corpus = search.corpus
    in_lead: dict[str, list[int]] = {}
    in_title: dict[str, list[int]] = {}
    in_often: dict[str, list[int]] = {}
    for at, document in enumerate(corpus.documents):
        for word in document.lead:
            in_lead.setdefault(word, []).append(at)
        for word in set(document.title):
            in_title.setdefault(word, []).append(at)
        for word in document.often:
            in_often.setdefault(word, []).append(at)
    parts: dict[str, dict] = {}
    for word in corpus.vocabulary:
        start = start_of(word)
        if starts is not None and start not in starts:
            continue
        part = parts.setdefault(
            start, {"words": [], "postings": [], "lead": [], "title": [], "often": [], "shown": {}}
        )
        part["words"].append(word)
        part["postings"].append(encode_positions(sorted(corpus.exact(word))))
        part["lead"].append(encode_positions(in_lead.get(word, [])))
        part["title"].append(encode_positions(in_title.get(word, [])))
        part["often"].append(encode_positions(in_often.get(word, [])))
        if word in corpus.shown:
            part["shown"][word] = corpus.shown[word]
    return parts


_SPELLING = {code: f"q{code - 0xAC00:05d}" for code in range(0xAC00, 0xD7A4)}


def spell_hangul(text: str) -> str:
    """Each Hangul syllable as `q` and its five-digit number in the Unicode block (가 -> q00000),
    so that file names are ASCII. Fixed width: a prefix of a Korean word spells a prefix of its
    spelling. Must match `spellHangul` in library.js: from disk a Korean query loads its part
    by that name (tests/site/test_site_search.py searches Korean words from disk)."""
    return text.translate(_SPELLING)


def part_file(start: str) -> str:
    """The file of a vocabulary part, under <lang>/search/words/ (Korean spelled; must match
    `vocabularyPart` in library.js)."""
    return f"{spell_hangul(start)}.js"


def text_payload(library: Library, incident: Incident, search: SearchCorpus) -> dict:
    """One case as a result card shows it, with the sentences its passage is chosen from."""
    lang = search.lang
    text = incident.text(lang)
    return {
        "id": incident.id,
        "url": urls.case(lang, incident.id)[len(lang) + 1 :],
        "title": text.title,
        "summary": text.summary,
        "lang": text.lang,
        "date": date_text(incident.meta.occurred, lang),
        "org": ", ".join(t.label(lang) for t in library.byline(incident)),
        "terms": {f.id: list(incident.term_ids(f.id)) for f in library.taxonomy.facets},
        "sentences": list(search.sentences[incident.id]),
    }


def _json(payload: object) -> str:
    data = json.dumps(payload, ensure_ascii=False, separators=(",", ":"), sort_keys=False)
    # JSON is valid JavaScript; escape "</" so the data can never close a script element.
    return data.replace("</", "<\\/")


def as_script(variable: str, payload: object) -> str:
    """A classic script that sets `IncidentLibraryData.<variable>`; safe to inline nowhere else."""
    return (
        "window.IncidentLibraryData=window.IncidentLibraryData||{};"
        f"window.IncidentLibraryData.{variable}={_json(payload)};\n"
    )


def as_keyed_script(variable: str, key: str, payload: object) -> str:
    """A classic script that sets `IncidentLibraryData.<variable>[key]` (one case's text)."""
    return (
        "window.IncidentLibraryData=window.IncidentLibraryData||{};"
        f"(window.IncidentLibraryData.{variable}=window.IncidentLibraryData.{variable}||{{}})"
        f"[{_json(key)}]={_json(payload)};\n"
    )


def card_path(lang: str, incident_id: str) -> str:
    """Where a case's full card is (`cards/<id>.js`, written by the build with its page)."""
    return f"{lang}/search/cards/{incident_id}.js"


@dataclass(frozen=True)
class LastSearch:
    """A preview's last search files and the index they were written from, handed over while
    every position means the case it meant then, under the same taxonomy (pipeline/changes.py
    decides)."""

    files: Mapping[str, bytes]
    corpus: Corpus
    edited: frozenset[int]  # the positions of the cases edited since


def search_files(
    library: Library, corpora: Mapping[str, SearchCorpus], last: LastSearch | None = None
) -> Iterator[tuple[str, str | bytes]]:
    """(site-relative path, script) for every language's search data, one file at a time (a
    large library's are hundreds of megabytes of text: a caller keeps them encoded, not all as
    text too).

    With `last`, the scripts an edit cannot have changed are the last build's bytes: the text
    of each case not edited, and the vocabulary parts with no word an edited case gained or
    lost and no stem shown otherwise (`_touched`). tests/pipeline holds the result to a fresh
    build's, byte for byte.
    """
    ids = [incident.id for incident in library.incidents]
    parts: dict[int, list[tuple[str, str | bytes]]] = {}  # a corpus's parts, for every language
    for lang, search in corpora.items():
        base = f"{lang}/search"
        index = index_payload(library, search)
        terms = terms_payload(library, lang, stamp(index, ids))
        yield f"{base}/terms.js", as_script("terms", terms)
        yield f"{base}/index.js", as_script("index", index)
        yield f"{base}/ids.js", as_script("ids", ids)
        scripts = parts.get(id(search.corpus))
        if scripts is None:
            scripts = parts[id(search.corpus)] = _part_scripts(search, last, base)
        for name, script in scripts:
            yield f"{base}/words/{name}", script
        for at, incident in enumerate(library.incidents):
            path = f"{base}/text/{at}.js"
            kept = last.files.get(path) if last is not None and at not in last.edited else None
            if kept is None:
                kept = as_keyed_script("text", str(at), text_payload(library, incident, search))
            yield path, kept


def _touched(last: LastSearch, corpus: Corpus) -> frozenset[str]:
    """The starts of the vocabulary parts an edit may have changed: those of the words an
    edited case gained or lost (as a word, in its lead, in its titles, said often: its position
    is in their lists), and of the stems whose shown form changed."""
    words: set[str] = set()
    for at in last.edited:
        old, new = last.corpus.documents[at], corpus.documents[at]
        words |= set(old.words) ^ set(new.words)
        words |= set(old.lead) ^ set(new.lead)
        words |= set(old.title) ^ set(new.title)
        words |= set(old.often) ^ set(new.often)
    before, after = last.corpus.shown, corpus.shown
    words |= {stem for stem in before.keys() | after.keys() if before.get(stem) != after.get(stem)}
    return frozenset(start_of(word) for word in words)


def _part_scripts(
    search: SearchCorpus, last: LastSearch | None, base: str
) -> list[tuple[str, str | bytes]]:
    """The vocabulary parts' file names and scripts: with `last`, the last build's for the
    parts no edit touched."""
    touched = _touched(last, search.corpus) if last is not None else None
    made = vocabulary_parts(search, touched)
    scripts: list[tuple[str, str | bytes]] = [
        (part_file(start), as_keyed_script("words", start, part)) for start, part in made.items()
    ]
    if last is not None and touched is not None:
        prefix = f"{base}/words/"
        remade = {part_file(start) for start in touched}
        for path, data in last.files.items():
            if path.startswith(prefix) and path[len(prefix) :] not in remade:
                scripts.append((path[len(prefix) :], data))
    return scripts
