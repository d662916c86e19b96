"""Text -> search words, by the rules in rules.yml. Must match `analyze` in search-core.js:
tests/search/ runs the same vectors through both."""

from __future__ import annotations

import re
import unicodedata
from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field
from functools import cached_property, lru_cache
from importlib import resources
from sys import intern
from typing import Any

import yaml

HANGUL = re.compile("[가-힣]")
# The order Unicode composes a Hangul syllable in: 0xAC00 + (initial * 21 + vowel) * 28 + final.
VOWELS = "ㅏㅐㅑㅒㅓㅔㅕㅖㅗㅘㅙㅚㅛㅜㅝㅞㅟㅠㅡㅢㅣ"
FINALS = " ㄱㄲㄳㄴㄵㄶㄷㄹㄺㄻㄼㄽㄾㄿㅀㅁㅂㅄㅅㅆㅇㅈㅊㅋㅌㅍㅎ"
_LEFT_OUT = ("", ())  # what `Analyzer._index_words` gives a word that is not indexed


@lru_cache(maxsize=1)
def rules() -> dict[str, Any]:
    """The rules, as read from rules.yml (the browser gets the same data as JSON)."""
    text = (resources.files("generator.search") / "rules.yml").read_text(encoding="utf-8")
    return yaml.safe_load(text)


@dataclass(frozen=True)
class Analyzer:
    """Turns text into the words documents are indexed by and queries are matched with."""

    word: re.Pattern
    thousands: re.Pattern
    endings: tuple[str, ...]  # longest first
    min_stem: int
    english: tuple[dict, ...]
    stopwords: frozenset[str]
    suffix_min: int
    suffix_from: int
    min_latin: int
    min_hangul: int
    # Predicates (rules.yml, korean.predicate), by the indexes of VOWELS and FINALS: final ->
    # the vowels it is removed after; contracted vowel -> the vowel it opens to.
    fused: Mapping[int, frozenset[int]] = field(default_factory=dict)
    contracted: Mapping[int, int] = field(default_factory=dict)
    filler_names: tuple[str, ...] = ()  # rules.yml's filler, as written
    # The Korean spellings of rules.yml's names: no tail of a longer word that begins with one is
    # indexed (a name is matched as a whole word: "러스터" is not "클러스터").
    whole_names: tuple[str, ...] = ()

    @classmethod
    def from_rules(cls, data: dict[str, Any] | None = None) -> Analyzer:
        data = data or rules()
        korean = data["korean"]
        endings = sorted(set(korean["endings"]), key=lambda e: (-len(e), e))
        return cls(
            word=re.compile(data["word_pattern"]),
            thousands=re.compile(data["thousands"]),
            endings=tuple(endings),
            min_stem=korean["min_stem"],
            english=tuple(data["english"]["rules"]),
            stopwords=frozenset(data["stopwords"]),
            suffix_min=korean["suffix_min_syllables"],
            suffix_from=korean["suffix_from_syllables"],
            min_latin=data["min_length"]["latin"],
            min_hangul=data["min_length"]["hangul"],
            fused={
                FINALS.index(final): frozenset(VOWELS.index(v) for v in vowels)
                for final, vowels in korean["predicate"]["finals"].items()
            },
            contracted={
                VOWELS.index(a): VOWELS.index(b)
                for a, b in korean["predicate"]["contracted"].items()
            },
            filler_names=tuple(str(name) for name in data.get("filler", ())),
            whole_names=tuple(
                sorted(
                    {
                        str(n).lower()
                        for g in data.get("names", ())
                        for n in g
                        if HANGUL.match(str(n))
                    }
                )
            ),
        )

    @cached_property
    def filler(self) -> frozenset[str]:
        """The words of a question that carry no meaning (rules.yml, `filler`), analysed."""
        return frozenset(w for name in self.filler_names for w in self.words(name))

    def raw_words(self, text: str) -> list[str]:
        """The words of `text` as written (normalised, lower case), stopwords and bare Korean
        endings left out."""
        return [
            raw
            for raw in self.word.findall(self._normal(text))
            if raw not in self.stopwords and not (HANGUL.match(raw) and raw in self.ending_set)
        ]

    def _normal(self, text: str) -> str:
        return self.thousands.sub("", unicodedata.normalize("NFKC", text).lower())

    def stem(self, raw: str) -> str:
        stem = self._stems.get(raw)
        if stem is None:
            stem = self.korean_stem(raw) if HANGUL.match(raw) else self.english_stem(raw)
            if len(self._stems) < 500_000:
                self._stems[raw] = stem
        return stem

    def long_enough(self, word: str) -> bool:
        if HANGUL.match(word):
            return len(word) >= self.min_hangul
        return len(word) >= self.min_latin

    def single_word(self, name: str) -> str | None:
        """The word a one-word name is matched as ("CoreDNS" -> "coredn"); None for a name of
        several words ("디스크 풀") or one too short to search for."""
        raws = self.raw_words(name)
        one_run = self._normal(name).strip() == "".join(raws)
        if len(raws) == 2 and not same_script(*raws) and one_run:
            raws = ["".join(raws)]  # a name written half in Hangul, as one run ("챗GPT")
        if len(raws) != 1:
            return None
        word = self.stem(raws[0])
        return word if self.long_enough(word) else None

    def words(self, text: str) -> list[str]:
        """The words of `text`, each reduced to the form that is matched: a query's words."""
        return [word for raw in self.raw_words(text) if self.long_enough(word := self.stem(raw))]

    def name_words(self, name: str) -> tuple[str, ...]:
        """`words(name)` of a term's name, remembered: every case tagged with the term asks."""
        found = self._names.get(name)
        if found is None:
            found = self._names[name] = tuple(self.words(name))
        return found

    def document_words(self, text: str) -> list[str]:
        """The words a document is indexed by: each word's stem, a Korean word also as written,
        and the tails of long Korean words."""
        return self.document(text)[0]

    def document(self, text: str) -> tuple[list[str], dict[tuple[str, str], int]]:
        """`document_words(text)` and `written_forms(text)` from one reading of the text. The
        words are interned: one string however many documents have them."""
        out, forms, _ = self.read(text)
        return out, forms

    def read(self, text: str) -> tuple[list[str], dict[tuple[str, str], int], list[str]]:
        """`document(text)`, and `words(text)` (the words in order, as a query's are) from the
        same reading."""
        out: list[str] = []
        forms: dict[tuple[str, str], int] = {}
        sequence: list[str] = []
        known = self._indexed
        for raw in self.word.findall(self._normal(text)):
            found = known.get(raw)
            if found is None:
                found = self._index_words(raw)
                if len(known) < 500_000:
                    known[raw] = found
            if found is _LEFT_OUT:
                continue
            word, words = found
            out.extend(words)
            if words and words[0] == word:  # the stem is indexed: it is long enough
                sequence.append(word)
            if word != raw:
                forms[word, raw] = forms.get((word, raw), 0) + 1
        return out, forms, sequence

    def _index_words(self, raw: str) -> tuple[str, tuple[str, ...]]:
        """A word as written -> its stem and the words a document is indexed by for it
        (`_LEFT_OUT` for the words `raw_words` leaves out)."""
        hangul = HANGUL.match(raw)
        if raw in self.stopwords or (hangul and raw in self.ending_set):
            return _LEFT_OUT
        word = self.stem(raw)
        out = [word] if self.long_enough(word) else []
        if hangul:
            if word != raw and self.long_enough(raw):
                out.append(raw)
            if len(raw) >= self.suffix_from:
                tails = (raw[i:] for i in range(1, len(raw) - self.suffix_min + 1))
                out.extend(
                    t
                    for t in tails
                    if t not in self.ending_set and not t.startswith(self.whole_names)
                )
        return intern(word), tuple(intern(w) for w in out)

    def shown_forms(self, texts: Iterable[str]) -> dict[str, str]:
        """Each stem -> the form of it written most often in `texts` (then the first in
        alphabetical order), for the stems that are not words as written."""
        return most_written(self.written_forms(text) for text in texts)

    def written_forms(self, text: str) -> dict[tuple[str, str], int]:
        """(stem, form as written) -> how often `text` writes it, where the two differ: one
        text's share of `shown_forms`."""
        return self.document(text)[1]

    @cached_property
    def ending_set(self) -> frozenset[str]:
        return frozenset(self.endings)

    @cached_property
    def _ending_lengths(self) -> tuple[int, ...]:
        return tuple(sorted({len(e) for e in self.endings}, reverse=True))

    @cached_property
    def _stems(self) -> dict[str, str]:
        return {}  # raw word -> stem, a memo: a library's text repeats the same words a lot

    @cached_property
    def _names(self) -> dict[str, tuple[str, ...]]:
        return {}  # a term's name -> its words (`name_words`)

    @cached_property
    def _indexed(self) -> dict[str, tuple[str, tuple[str, ...]]]:
        return {}  # raw word -> its stem and the words it is indexed by (_index_words), likewise

    def korean_stem(self, word: str) -> str:
        """The word without the longest ending that leaves at least `min_stem` syllables (the
        endings are tried longest first, as `endings` lists them; at one length only one can
        match, so looking the word's tail up by length is the same rule), then with its last
        syllable brought back to a predicate's stem (`predicate_stem`)."""
        for length in self._ending_lengths:
            if len(word) - length >= self.min_stem and word[-length:] in self.ending_set:
                return self.predicate_stem(word[:-length])
        return self.predicate_stem(word)

    def predicate_stem(self, word: str) -> str:
        """The last syllable without an ending fused into it (rules.yml, korean.predicate):
        사라짐 -> 사라지, 멈췄 -> 멈추, 사라져 -> 사라지."""
        if len(word) < self.min_stem or not HANGUL.match(word[-1]):
            return word
        code = ord(word[-1]) - 0xAC00
        start, vowel, final = code - code % 588, code % 588 // 28, code % 28
        if final and vowel in self.fused.get(final, ()):
            final = 0
        if not final:
            vowel = self.contracted.get(vowel, vowel)
        return word[:-1] + chr(0xAC00 + start + vowel * 28 + final)

    def english_stem(self, word: str) -> str:
        if not word.isalpha():
            return word  # numbers, versions, error codes are matched as written
        for rule in self.english:
            suffix = rule["suffix"]
            if not word.endswith(suffix):
                continue
            stem = word[: -len(suffix)]
            if len(stem) < rule["min_stem"]:
                continue
            if "after" in rule and not stem.endswith(tuple(rule["after"])):
                continue
            if "not_after" in rule and stem.endswith(tuple(rule["not_after"])):
                continue
            return stem + rule["replace"]
        return word


def same_script(a: str, b: str) -> bool:
    """Both Hangul, or both not."""
    return bool(HANGUL.match(a)) == bool(HANGUL.match(b))


@lru_cache(maxsize=1)
def default_analyzer() -> Analyzer:
    return Analyzer.from_rules()


def browser_rules() -> dict[str, Any]:
    """The rules as the browser's engine reads them (search-core.js): the same data, with the
    Korean endings already in the order they are tried."""
    data = rules()
    analyzer = default_analyzer()
    return {
        "word_pattern": data["word_pattern"],
        "thousands": data["thousands"],
        "min_length": data["min_length"],
        "korean": {
            "endings": list(analyzer.endings),
            "min_stem": analyzer.min_stem,
            "predicate": data["korean"]["predicate"],
        },
        "english": data["english"],
        "stopwords": sorted(analyzer.stopwords),
        "max_query_chars": data["max_query_chars"],
        "max_word_chars": data["max_word_chars"],
        "max_query_words": data["max_query_words"],
        "exact_first": data["exact_first"],
        "join_words": data["join_words"],
        "filler": [str(name) for name in data["filler"]],
        "max_alternatives": data["max_alternatives"],
        "typo": data["typo"],
        "lead_bonus": data["lead_bonus"],
        "title_bonus": data["title_bonus"],
        "often": data["often"],
        "synonym_weight": data["synonym_weight"],
        "fallback": data["fallback"],
        "matching": data["matching"],
    }


def most_written(counts: Iterable[Mapping[tuple[str, str], int]]) -> dict[str, str]:
    """Each stem -> its form written most often over `counts` (`Analyzer.written_forms` of each
    text; then the first in alphabetical order). The order of `counts` does not matter."""
    seen: dict[str, dict[str, int]] = {}
    for found in counts:
        for (word, raw), times in found.items():
            forms = seen.setdefault(word, {})
            forms[raw] = forms.get(raw, 0) + times
    return {w: min(f, key=lambda raw: (-f[raw], raw)) for w, f in sorted(seen.items())}
