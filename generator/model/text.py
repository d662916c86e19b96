"""Constrained text types shared by the taxonomy and incident models."""

from __future__ import annotations

import functools
import re
import unicodedata
from datetime import date, datetime
from typing import Annotated

import regex
from confusable_homoglyphs import categories, confusables
from pydantic import AfterValidator, BeforeValidator, Field, StringConstraints

from .shorten import shorten

SLUG_PATTERN = r"^[a-z0-9]+(?:-[a-z0-9]+)*$"
DATE_PATTERN = r"^\d{4}(?:-\d{2}(?:-\d{2})?)?$"
# What `occurred` says when the sources give no date for the incident at all (a paper that dates
# only its own publication). Only `occurred` may say it: every report has a publication date.
UNKNOWN_DATE = "unknown"
OCCURRED_PATTERN = r"^(?:\d{4}(?:-\d{2}(?:-\d{2})?)?|unknown)$"
_DATE_FORMS = "YYYY, YYYY-MM or YYYY-MM-DD"
OCCURRED_DESCRIPTION = (
    "When the incident began, as precise as the sources: YYYY, YYYY-MM or YYYY-MM-DD; "
    "`unknown` when they give no date (the case is then placed by its publication date, and "
    "its page says the sources give no date)."
)
# No incident or report of computing infrastructure is older: a year such as 0000 is a mistake.
EARLIEST_YEAR = 1900


def _check_slug(value: object) -> object:
    if isinstance(value, str) and not re.match(SLUG_PATTERN, value):
        raise ValueError(
            f"'{shorten(value)}' is not an id: use lowercase words joined by hyphens, "
            "like acme-dns-outage"
        )
    return value


Slug = Annotated[
    str,
    StringConstraints(pattern=SLUG_PATTERN, max_length=80),
    BeforeValidator(_check_slug),  # runs first: a friendlier message than the pattern's
    Field(description="Lowercase words joined by hyphens, e.g. `gpu-driver`."),
]


# Characters that show nothing, by Unicode's own properties: Default_Ignorable_Code_Point
# (zero-width spaces and joiners, the Hangul fillers U+3164 and U+FFA0, the combining grapheme
# joiner U+034F, variation selectors, the tag characters of U+E0000), every format character
# (Cf), and the braille pattern blank U+2800, which renders as a space without being one. In a
# title, label or id they make two values that look the same compare as different, hide words
# from search, and carry text no reader sees into llms.txt and the agent server.
INVISIBLE = regex.compile(r"[\p{Default_Ignorable_Code_Point}\p{Cf}\u2800]")

# UTS #39's "highly restrictive" level: a word is written in one script, or in one of the
# combinations that East Asian writing mixes with Latin. (Common and Inherited characters, such as
# digits, punctuation and combining marks, belong to every script.)
_NEUTRAL = frozenset({"COMMON", "INHERITED"})
_MIXES = (
    frozenset({"LATIN", "HAN", "HANGUL"}),
    frozenset({"LATIN", "HAN", "HIRAGANA", "KATAKANA"}),
    frozenset({"LATIN", "HAN", "BOPOMOFO"}),
)
# Scripts a reader of this library types; a word wholly in another script whose every letter has
# a Latin lookalike (Cherokee "ᏀᏢᎪ") is a whole-script confusable.
_READERS_SCRIPTS = frozenset({"LATIN", "HANGUL", "HAN"})


@functools.cache
def _script(char: str) -> str:
    # The package looks a character up by a binary search written in Python; the lines of
    # 10,000 cases ask it tens of millions of times about a few thousand distinct characters.
    return categories.alias(char)


def _scripts(word: str) -> frozenset[str]:
    return frozenset(map(_script, word)) - _NEUTRAL


def lookalike_problem(value: str) -> str | None:
    """Why `value` would read as something it is not (UTS #39), or None: a word that mixes
    scripts beyond the highly restrictive level, or a word in another script made only of letters
    that look Latin."""
    for word in value.split():
        if word.isascii():
            continue  # ASCII letters are Latin and the rest Common: one script, no lookalike
        scripts = _scripts(word)
        if len(scripts) > 1 and not any(scripts <= mix for mix in _MIXES):
            shown = ", ".join(sorted(s.title() for s in scripts))
            return f"the word '{shorten(word)}' mixes letters of several scripts ({shown})"
        if len(scripts) == 1 and not scripts <= _READERS_SCRIPTS:
            letters = [c for c in word if _script(c) not in _NEUTRAL]
            if all(_latin_lookalike(c) for c in letters):
                (script,) = scripts
                latin = "".join(_latin_lookalike(c) or c for c in word)
                return (
                    f"the word '{shorten(word)}' is written in {script.title()} letters that "
                    f"look like the Latin '{latin}'"
                )
    return None


def _latin_lookalike(char: str) -> str | None:
    """The Latin letters `char` is confusable with (Unicode's confusables.txt), if any."""
    found = confusables.is_confusable(char, greedy=True, preferred_aliases=["latin"])
    for entry in found or ():
        for homoglyph in entry["homoglyphs"]:
            if all(_script(c) == "LATIN" for c in homoglyph["c"]):
                return homoglyph["c"]
    return None


def _one_line(value: str) -> str:
    if "\n" in value:
        raise ValueError("must be a single line of text")
    control = re.search(r"[\x00-\x1f\x7f-\x9f\u2028\u2029]", value)
    if control:
        raise ValueError(f"contains control character U+{ord(control.group()):04X}; delete it")
    invisible = INVISIBLE.search(value)
    if invisible:
        code = ord(invisible.group())
        raise ValueError(f"contains the invisible character U+{code:04X}; delete it")
    value = unicodedata.normalize("NFC", value)
    lookalike = lookalike_problem(value)
    if lookalike:
        raise ValueError(f"{lookalike}; write it in one script")
    return value


def skeleton(value: str) -> str:
    """`value` as it looks: NFKC, case-folded, letters with a Latin lookalike mapped to it,
    invisible characters and repeated spaces removed. Two labels with the same skeleton read
    the same."""
    folded = INVISIBLE.sub("", unicodedata.normalize("NFKC", value))
    mapped = "".join(
        c if _script(c) in _READERS_SCRIPTS | _NEUTRAL else (_latin_lookalike(c) or c)
        for c in folded
    )
    return " ".join(mapped.casefold().split())


Line = Annotated[
    str,
    StringConstraints(strip_whitespace=True, min_length=1, max_length=300),
    AfterValidator(_one_line),
]


def _reject_markup(value: str) -> str:
    if re.search(r"<[A-Za-z/!?]", value):
        raise ValueError("HTML tags are not allowed here; write plain text")
    return value


PlainLine = Annotated[Line, AfterValidator(_reject_markup)]


def _to_partial_date(value: object) -> object:
    if value is None:
        raise ValueError(f"is empty: write {_DATE_FORMS}")
    if isinstance(value, datetime):
        raise ValueError(f"'{value}' has a time of day; write {_DATE_FORMS}")
    if isinstance(value, date):
        return value.isoformat()
    if isinstance(value, int) and not isinstance(value, bool) and 1000 <= value <= 9999:
        value = str(value)  # a year, which YAML reads as a number
    if isinstance(value, str):
        value = value.strip()
        if value.casefold() == UNKNOWN_DATE:
            raise ValueError(
                f"'{value}' is not a date: write {_DATE_FORMS} (only occurred may be unknown)"
            )
        if not re.match(DATE_PATTERN, value):
            raise ValueError(f"'{shorten(value)}' is not a date: write {_DATE_FORMS}")
        parts = [int(p) for p in value.split("-")]
        if parts[0] < EARLIEST_YEAR:
            raise ValueError(
                f"'{value}' is before {EARLIEST_YEAR}; write the year the source gives"
            )
        if len(parts) >= 2 and not 1 <= parts[1] <= 12:
            raise ValueError(f"'{value}' has no month {parts[1]}")
        if len(parts) == 3:
            try:
                date(*parts)
            except ValueError:
                raise ValueError(f"'{value}' is not a day of the calendar") from None
        return value
    kind = {dict: "a mapping", list: "a list"}.get(type(value))
    shown = kind or f"'{shorten(value)}'"
    raise ValueError(f"{shown} is not a date: write {_DATE_FORMS}")


PartialDate = Annotated[
    str,
    BeforeValidator(_to_partial_date),
    StringConstraints(pattern=DATE_PATTERN),
    Field(description="A date as precise as the source: YYYY, YYYY-MM or YYYY-MM-DD."),
]


def _to_occurred(value: object) -> object:
    if isinstance(value, str) and value.strip() == UNKNOWN_DATE:
        return UNKNOWN_DATE
    if isinstance(value, str) and value.strip().casefold() == UNKNOWN_DATE:
        raise ValueError(f"'{value.strip()}': write unknown in lowercase")
    try:
        return _to_partial_date(value)
    except ValueError as exc:
        message = str(exc)
        if " is not a date: " in message:  # not a date at all: name the other choice too
            message += ", or unknown when the sources give no date"
        raise ValueError(message) from None


OccurredDate = Annotated[
    str,
    BeforeValidator(_to_occurred),
    StringConstraints(pattern=OCCURRED_PATTERN),
    Field(description=OCCURRED_DESCRIPTION),
]


def is_known(value: str) -> bool:
    """False for `unknown`, the one value of `occurred` that is not a date."""
    return value != UNKNOWN_DATE


def date_key(value: str) -> tuple[int, int, int]:
    """Sort key for a partial date; a missing month or day sorts first."""
    parts = [int(p) for p in value.split("-")] + [0, 0]
    return parts[0], parts[1], parts[2]


def date_before(a: str, b: str) -> bool:
    """True when `a` is certainly earlier than `b`, comparing only the precision both share."""
    shared = min(a.count("-"), b.count("-")) + 1
    return date_key(a)[:shared] < date_key(b)[:shared]


def parse_partial_date(value: object) -> str | None:
    """The normalised partial date, or None when `value` is not one (`unknown` is not one)."""
    try:
        result = _to_partial_date(value)
    except ValueError:
        return None
    return result if isinstance(result, str) else None


def parse_occurred(value: object) -> str | None:
    """The normalised value of `occurred` (a partial date or `unknown`), or None."""
    try:
        result = _to_occurred(value)
    except ValueError:
        return None
    return result if isinstance(result, str) else None
