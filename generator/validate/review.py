"""What a reviewer catches that the format rules do not.

The format rules (incident.py) say whether a file can be published. These say whether it reads
as a case should: both languages carrying the same numbers and the same list items, Actions and
Follow-ups as lists, each section in its file's language, a summary of the documented length,
the Korean style guide's sentence endings, sources that are not placeholders, and no term listed
beside its own parent. Most need judgement, so they are warnings (which fail `--strict`); a
placeholder source is an error, like a leftover TODO.

Checks of one file run in `review_file`; what the comparison of a case's two languages needs is
kept in `Marks`, small enough for the check cache, and compared in `compare`.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from urllib.parse import urlsplit

from ..languages import MONTHS_EN, in_english
from ..load.front_matter import MarkdownFile, YamlDocument
from ..model.incident import SECTION_HEADINGS, CaseText, body_lines
from ..model.taxonomy import Taxonomy
from .diagnostics import Diagnostic, field_name
from .voice import ABOUT_THE_REPORT, about_the_sources

# The sections written as lists, one action per item (CONTRIBUTING, "The body").
LIST_SECTIONS = ("actions", "follow_ups")
SUMMARY_LIMIT = 200  # characters (CONTRIBUTING: "at most 200 characters")

# A section of a Korean file whose letters are less than this share Hangul is English prose
# under a Korean heading (Korean prose with product names, API objects and error strings in
# Latin letters stays well above it); an English section above the other bound is Korean.
MIN_HANGUL_IN_KOREAN = 0.2
MAX_HANGUL_IN_ENGLISH = 0.2
MIN_LETTERS_JUDGED = 40  # a short section (a list of product names) is not judged
MIN_LETTERS_IN_A_LINE = 8  # nor a title or summary of a few letters

# A number starts a run of digits, points and commas that nothing of the kind precedes ("1.2.3"
# holds 1.2 alone). The scan finds each run that starts with a digit (a pattern led by a
# lookbehind gets no fast scan), then reads the number at its head.
_NUMBER_RUN = re.compile(r"\d[\d.,]*")
_NUMBER = re.compile(r"\d{1,3}(?:,\d{3})+(?:\.\d+)?|\d+(?:\.\d+)?")
# Each branch opens with a letter of its own, so the engine scans for those (an optional "<"
# first would have it try every position, several times slower).
_URL = re.compile(r"\]\([^)\s]*\)|<https?://[^\s)>]+>?|https?://[^\s)>]+>?")
_CODE_SPAN = re.compile(r"`[^`\n]*`")
_LIST_ITEMS = re.compile(r"(?m)^[ \t]*(?:[-*+]|\d{1,3}[.)])[ \t]+\S")
_HANGUL_RUN = re.compile(r"[\uac00-\ud7a3]+")
# Every byte but A-Z and a-z: deleting them from a text's ASCII leaves its Latin letters (an eighth
# of the time of counting a pattern's runs).
_NOT_LATIN = bytes(b for b in range(256) if not (65 <= b <= 90 or 97 <= b <= 122))
_DIGIT = re.compile(r"\d")
# Numbers written as words: a digit in one language is found in the other when the other spells
# it ("eight nodes" for "노드 8대", "August" for "8월", "세 번" for "3 times"). Words only ever
# answer for a digit; they never demand one, so a table that misses a word costs a warning at most.
_EN_WORDS = {
    **dict.fromkeys(("once", "single", "first"), 1),
    **dict.fromkeys(("twice", "double", "second", "half", "both", "pair"), 2),
    **dict.fromkeys(("thrice", "triple", "third"), 3),
    "fourth": 4,
    "quarter": 4,
    "fifth": 5,
    "tenth": 10,
    "dozen": 12,
    "hundred": 100,
    "thousand": 1000,
    "million": 1_000_000,
    "billion": 1_000_000_000,
}
for _number, _word in enumerate(
    [
        "zero",
        "one",
        "two",
        "three",
        "four",
        "five",
        "six",
        "seven",
        "eight",
        "nine",
        "ten",
        "eleven",
        "twelve",
        "thirteen",
        "fourteen",
        "fifteen",
        "sixteen",
        "seventeen",
        "eighteen",
        "nineteen",
        "twenty",
    ]
):
    _EN_WORDS[_word] = _number
for _number, _word in enumerate(
    ["thirty", "forty", "fifty", "sixty", "seventy", "eighty", "ninety"], start=3
):
    _EN_WORDS[_word] = _number * 10
# A word is a run of A-Z and a-z: in UTF-8, every other byte becomes a space and the rest splits
# at them (faster than finding every run with a pattern).
_WORD_BYTES = bytes(b if (65 <= b <= 90 or 97 <= b <= 122) else 32 for b in range(256))
_MONTH_NUMBERS = {name: number for number, name in enumerate(MONTHS_EN, start=1)}
_KO_NATIVE = {
    "한": 1,
    "두": 2,
    "세": 3,
    "네": 4,
    "다섯": 5,
    "여섯": 6,
    "일곱": 7,
    "여덟": 8,
    "아홉": 9,
}
_KO_NATIVE.update({"열": 10, "스무": 20, "첫": 1})
_KO_COUNTERS = "번|개|대|명|가지|차례|곳|배|단계|시간|달|주|해|쌍|줄|층|종류|군데|주기|째"
_KO_WORDS = {**_KO_NATIVE, "하나": 1, "둘": 2, "셋": 3, "넷": 4, "절반": 2, "백": 100}
_KO_WORDS.update({"천": 1000, "만": 10_000})
# A native numeral counts only at a word's start and before a counter (세 번, 두 대); the other
# words count anywhere. One alternation of plain words gets the engine's fast scan for its first
# letters; the two conditions of a numeral are tested on each hit. No word begins another.
_KO_SPELLED = re.compile("|".join(sorted(_KO_WORDS, key=len, reverse=True)))
_KO_COUNTER_AHEAD = re.compile(r"\s?(?:" + _KO_COUNTERS + r")")
# 했다체: a sentence that ends in 다 without 니 before it (했다, 였다, 이다, 된다), outside quotes.
_PLAIN_ENDING = re.compile(r"([\uac00-\ub2c7\ub2c9-\ud7a3])다(?=[.!?](?:\s|$|[\"”’)]))")  # not 니다
_QUOTED = re.compile(r"“[^”]*”|\"[^\"]*\"|‘[^’]*’|「[^」]*」|『[^』]*』")
_SENTENCE_ENDS = re.compile(r"[.!?](?:\s|$)")
MAX_STYLE_WARNINGS = 3  # per file: past a few, one line says how many more

# Hosts that only ever stand for a real address (RFC 2606 and RFC 6761), and words that stand in
# for a source not yet found.
_PLACEHOLDER_DOMAINS = ("example.com", "example.net", "example.org")
_PLACEHOLDER_SUFFIXES = (".example", ".invalid", ".localhost", ".test")
_PLACEHOLDER_WORDS = frozenset({"tbd", "tbc", "todo", "xxx", "n/a", "na", "?", "unknown", "-"})


@dataclass(frozen=True)
class Marks:
    """What comparing a file with the other language's file needs: its title and summary, each
    number it mentions with where it first appears, and the list items of each section."""

    lang: str
    title: str
    summary: str
    title_at: tuple[int, int]
    summary_at: tuple[int, int]
    numbers: tuple[tuple[str, int, int], ...]  # (number, line, column), first occurrence each
    spelled: tuple[str, ...]  # the numbers it writes as words ("eight", "세 번")
    lists: tuple[tuple[str, int, int], ...]  # (section key, items, heading line)


def review_file(file: MarkdownFile, text: CaseText, taxonomy: Taxonomy | None = None):
    """(marks, warnings) for a file that passed the format rules; `taxonomy` is given for an
    original (its terms are checked too)."""
    doc = file.front_matter
    problems: list[Diagnostic] = []
    lang = text.lang
    headings = {heading: key for key, heading in SECTION_HEADINGS[lang].items()}
    numbers: dict[str, tuple[int, int]] = {}
    lists: dict[str, list[int]] = {}  # key -> [items, heading line]
    letters: dict[str, list[int]] = {}  # key -> [hangul, latin, heading line]
    plain: list[tuple[int, int]] = []
    title_at = _position(doc, ("title",))
    summary_at = _position(doc, ("summary",))
    for value, (line, col) in ((text.title, title_at), (text.summary, summary_at)):
        _collect_numbers(value, line, col, numbers)
    if lang == "ko":
        plain.extend(_plain_endings(text.summary, *summary_at))
    spelled = _spelled(f"{text.title}\n{text.summary}\n{file.body}", lang)
    _collect_numbers(file.body, file.body_line, 1, numbers)
    # Each section's lines outside code fences, with their line numbers.
    key: str | None = None
    prose_of: dict[str, list[tuple[int, str]]] = {}
    for number, line, fenced, heading in body_lines(file.body, file.body_line):
        if heading is not None:
            key = headings.get(heading)
            if key is not None:
                lists[key] = [0, number]
                prose_of[key] = []
        elif key is not None and not fenced:
            prose_of[key].append((number, line))
    for key, lines in prose_of.items():
        joined = "\n".join(line for _, line in lines)
        lists[key][0] = len(_LIST_ITEMS.findall(joined))
        prose = _QUOTED.sub("", _URL.sub("", _CODE_SPAN.sub("", joined)))
        letters[key] = [_count(_HANGUL_RUN, prose), _latin_letters(prose), lists[key][1]]
        if lang == "ko" and _PLAIN_ENDING.search(prose):
            for number, line in lines:
                if "다" in line and not line.lstrip().startswith(">"):
                    bare = _blank(_URL, _blank(_CODE_SPAN, line))  # columns kept
                    plain.extend(_plain_endings(bare, number, 1))
        problems.extend(_about_the_sources(file.path, lang, key, lines, joined))

    for key in LIST_SECTIONS:
        if key in lists and lists[key][0] == 0:
            heading = SECTION_HEADINGS[lang][key]
            message = f"'## {heading}' is written as prose; write it as a list, one '- ' item each"
            problems.append(_warning(file.path, lists[key][1], 1, f"section '{heading}'", message))
    for key, (hangul, latin, line) in letters.items():
        heading = SECTION_HEADINGS[lang][key]
        if hangul + latin < MIN_LETTERS_JUDGED:
            continue
        share = hangul / (hangul + latin)
        if lang == "ko" and share < MIN_HANGUL_IN_KOREAN:
            message = (
                "reads as English under a Korean heading; write the section in Korean "
                "(names, objects and error strings stay in Latin letters)"
            )
        elif lang == "en" and share > MAX_HANGUL_IN_ENGLISH:
            message = "reads as Korean under an English heading; write the section in English"
        else:
            continue
        problems.append(_warning(file.path, line, 1, f"section '{heading}'", message))
    for field, value, at in (
        ("title", text.title, title_at),
        ("summary", text.summary, summary_at),
    ):
        message = _wrong_language(value, lang)
        if message:
            problems.append(_warning(file.path, *at, field, f"{field} {message}"))
    if len(text.summary) > SUMMARY_LIMIT:
        message = (
            f"summary is {len(text.summary)} characters; at most {SUMMARY_LIMIT}: "
            "one sentence, what happened and why it matters"
        )
        problems.append(_warning(file.path, *summary_at, "summary", message))
    if lang == "ko" and text.title.rstrip(".").endswith("다"):
        message = "a title is a noun phrase without a sentence ending (CONTRIBUTING 4.1)"
        problems.append(_warning(file.path, *title_at, "title", message))
    problems.extend(_style_warnings(file.path, plain))
    if taxonomy is not None:
        problems.extend(_parent_and_child(doc, file.path, taxonomy))
        problems.extend(_scale_not_in_text(doc, file.path, numbers.keys() | spelled))
    marks = Marks(
        lang,
        text.title,
        text.summary,
        title_at,
        summary_at,
        tuple((n, line, col) for n, (line, col) in numbers.items()),
        tuple(sorted(spelled)),
        tuple((k, items, line) for k, (items, line) in lists.items()),
    )
    return marks, problems


def _about_the_sources(
    path: str, lang: str, key: str, lines: list[tuple[int, str]], joined: str
) -> list[Diagnostic]:
    """Sentences of a section that talk about the report or the case instead of the incident
    (voice.py); a section that says nothing else is to be left out and listed."""
    found = about_the_sources(_blank(_CODE_SPAN, joined), lang)
    heading = SECTION_HEADINGS[lang][key]
    problems = []
    for offset, message in found:
        row = joined.count("\n", 0, offset)
        col = offset - (joined.rfind("\n", 0, offset) + 1) + 1
        if message == ABOUT_THE_REPORT and len(found) == 1 and _one_sentence(joined):
            message = (
                f"'## {heading}' only says that the sources do not cover it: leave the "
                f"section out of both languages and add {key} to not_in_sources"
            )
        problems.append(_warning(path, lines[row][0], col, f"section '{heading}'", message))
    return problems


def _one_sentence(text: str) -> bool:
    return len(_SENTENCE_ENDS.findall(text.strip())) <= 1


def _wrong_language(value: str, lang: str) -> str | None:
    """Why a title or summary reads as the other language than its file's, or None. Judged as
    sections are: the share of Hangul among its letters, code spans left out."""
    bare = _CODE_SPAN.sub("", value)
    hangul, latin = _count(_HANGUL_RUN, bare), _latin_letters(bare)
    if hangul + latin < MIN_LETTERS_IN_A_LINE:
        return None
    share = hangul / (hangul + latin)
    if lang == "ko" and share < MIN_HANGUL_IN_KOREAN:
        return "reads as English in a Korean file; write it in Korean (names stay in Latin letters)"
    if lang == "en" and share > MAX_HANGUL_IN_ENGLISH:
        return "reads as Korean in an English file; write it in English"
    return None


def compare(original: Marks, original_path: str, translation: Marks, path: str):
    """Warnings where a case's two languages drift apart: a number in one and not the other, a
    list with more items in one, or a title or summary left untranslated."""
    problems: list[Diagnostic] = []
    pairs = (
        (original, original_path, translation, path),
        (translation, path, original, original_path),
    )
    for mine, my_path, theirs, their_path in pairs:
        written = {n for n, _, _ in theirs.numbers} | set(theirs.spelled)
        missing = {n for n, _, _ in mine.numbers} - written
        for number, line, col in mine.numbers:
            if number in missing:
                message = (
                    f"{number} is not in the {in_english(theirs.lang)} text "
                    f"({_name(their_path)}); both languages carry the same numbers"
                )
                problems.append(_warning(my_path, line, col, "body", message))
    theirs = {key: (items, line) for key, items, line in original.lists}
    for key, items, line in translation.lists:
        if key not in theirs or theirs[key][0] == items:
            continue
        heading = SECTION_HEADINGS[translation.lang][key]
        other = SECTION_HEADINGS[original.lang][key]
        message = (
            f"{items} list item(s) here, {theirs[key][0]} under '## {other}' in "
            f"{_name(original_path)}:{theirs[key][1]}; both languages list the same items"
        )
        problems.append(_warning(path, line, 1, f"section '{heading}'", message))
    for field, mine, at in (
        ("title", translation.title, translation.title_at),
        ("summary", translation.summary, translation.summary_at),
    ):
        # A copy that reads as the other language is already reported by review_file.
        if mine.strip() == getattr(original, field).strip() and not _wrong_language(
            mine, translation.lang
        ):
            language = in_english(translation.lang)
            message = f"{field} is the original's, untranslated; write it in {language}"
            problems.append(_warning(path, *at, field, message))
    return problems


def placeholder_reason(url: str) -> str | None:
    """Why a source URL is a placeholder, or None for an address that could be real."""
    host = (urlsplit(url).hostname or "").lower().rstrip(".")
    if host in _PLACEHOLDER_DOMAINS:  # (local names such as localhost: the model refuses them)
        return f"{host} is a placeholder domain"
    if any(host.endswith("." + d) for d in _PLACEHOLDER_DOMAINS) or host.endswith(
        _PLACEHOLDER_SUFFIXES
    ):
        return f"{host} is under a placeholder domain"
    return None


def placeholder_sources(doc: YamlDocument, path: str) -> list[Diagnostic]:
    """Errors for sources that stand in for a real one: a placeholder host, or TBD as a title."""
    problems = []
    sources = doc.data.get("sources") if isinstance(doc.data, dict) else None
    for index, source in enumerate(sources if isinstance(sources, list) else []):
        if not isinstance(source, dict):
            continue
        url = source.get("url")
        reason = placeholder_reason(url) if isinstance(url, str) else None
        if reason:
            loc = ("sources", index, "url")
            message = f"{reason}; cite the public report the case is written from"
            problems.append(Diagnostic(path, *_position(doc, loc), field_name(loc), message))
        for key in ("title", "publisher"):
            value = source.get(key)
            if isinstance(value, str) and value.strip().lower() in _PLACEHOLDER_WORDS:
                loc = ("sources", index, key)
                message = f"'{value}' is a placeholder; write the source's {key} as published"
                problems.append(Diagnostic(path, *_position(doc, loc), field_name(loc), message))
    return problems


def _parent_and_child(doc: YamlDocument, path: str, taxonomy: Taxonomy) -> list[Diagnostic]:
    """A term listed beside one of its descendants says less than the descendant alone."""
    problems = []
    for facet in taxonomy.facets:
        value = doc.data.get(facet.id)
        if facet.single or not isinstance(value, list):
            continue
        listed = {v for v in value if isinstance(v, str)}
        for index, term_id in enumerate(value):
            if not isinstance(term_id, str):
                continue
            narrower = [t for t in listed if term_id in taxonomy.ancestors(facet.id, t)]
            if narrower:
                loc = (facet.id, index)
                message = (
                    f"'{term_id}' is the parent of '{sorted(narrower)[0]}', also listed; "
                    "list only the narrower term"
                )
                problems.append(_warning(path, *_position(doc, loc), field_name(loc), message))
    return problems


def _scale_not_in_text(doc: YamlDocument, path: str, written: set[str]) -> list[Diagnostic]:
    """A scale figure is one the case's text gives: a figure the text never writes is a typo
    or a guess (gpus: 400 where the text says 440)."""
    scale = doc.data.get("scale")
    problems = []
    for key, value in scale.items() if isinstance(scale, dict) else ():
        if isinstance(value, int) and not isinstance(value, bool) and str(value) not in written:
            loc = ("scale", key)
            message = (
                f"{value:,} is not in the text; scale gives only figures the case states: "
                "correct it, or say it in the text as the sources do"
            )
            problems.append(_warning(path, *_position(doc, loc), field_name(loc), message))
    return problems


def _collect_numbers(text: str, line: int, col: int, into: dict[str, tuple[int, int]]) -> None:
    """Each number of `text` (which starts at `line`, `col`) with where it first appears; the
    numbers inside web addresses are not the case's."""
    if not _DIGIT.search(text):
        return
    bare = _blank(_URL, text) if "://" in text or "](" in text else text
    for run in _NUMBER_RUN.finditer(bare):
        at = run.start()
        if at and bare[at - 1] in ".,":
            continue
        value = _NUMBER.match(run.group()).group()
        if "," in value or value[0] == "0":
            value = _normal(value)
        if value not in into:
            row = bare.count("\n", 0, at)
            start = bare.rfind("\n", 0, at) + 1
            into[value] = (line + row, (col if row == 0 else 1) + at - start)


def _spelled(text: str, lang: str) -> set[str]:
    """The numbers a text writes as words."""
    found: set[str] = set()
    if lang == "en":
        words = set(text.encode().translate(_WORD_BYTES).decode().split())
        for word in words & _MONTH_NUMBERS.keys():  # months as written: "May", never "may"
            found.add(str(_MONTH_NUMBERS[word]))
        for word in set(map(str.lower, words)) & _EN_WORDS.keys():
            found.add(str(_EN_WORDS[word]))
    else:
        for match in _KO_SPELLED.finditer(text):
            word = match.group()
            if word in _KO_NATIVE:
                at = match.start()
                inside_a_word = at and _HANGUL_RUN.match(text, at - 1)
                if inside_a_word or not _KO_COUNTER_AHEAD.match(text, match.end()):
                    continue
            found.add(str(_KO_WORDS[word]))
    return found


def _normal(number: str) -> str:
    """4,088 and 4088 are one number; so are 08 and 8."""
    bare = number.replace(",", "")
    whole, dot, fraction = bare.partition(".")
    return (whole.lstrip("0") or "0") + dot + fraction


def _blank(pattern: re.Pattern, text: str) -> str:
    return pattern.sub(lambda m: " " * len(m.group()), text)


def _count(run: re.Pattern, text: str) -> int:
    """How many characters of `text` the runs of `run` cover."""
    return len(text) - len(run.sub("", text))


def _latin_letters(text: str) -> int:
    """How many of `text`'s characters are A-Z or a-z."""
    return len(text.encode("ascii", "ignore").translate(None, _NOT_LATIN))


def _plain_endings(text: str, line: int, col: int) -> list[tuple[int, int]]:
    bare = _blank(_QUOTED, text)
    return [(line, col + m.start()) for m in _PLAIN_ENDING.finditer(bare) if m.group(1) != "니"]


def _style_warnings(path: str, places: list[tuple[int, int]]) -> list[Diagnostic]:
    problems = []
    for line, col in places[:MAX_STYLE_WARNINGS]:
        message = "했다체 sentence ending; case files use 합니다체 (…했습니다, …입니다)"
        if len(places) > MAX_STYLE_WARNINGS and (line, col) == places[MAX_STYLE_WARNINGS - 1]:
            message += f" ({len(places) - MAX_STYLE_WARNINGS} more in this file)"
        problems.append(_warning(path, line, col, "body", message))
    return problems


def _position(doc: YamlDocument, loc: tuple) -> tuple[int, int]:
    pos = doc.position(loc)
    return pos.line, pos.col


def _warning(path: str, line: int, col: int, field: str, message: str) -> Diagnostic:
    return Diagnostic(path, line, col, field, message, "warning")


def _name(path: str) -> str:
    return path.rsplit("/", 1)[-1]
