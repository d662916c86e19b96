"""Constrained text types shared by the taxonomy and incident models."""

from __future__ import annotations

import re
import unicodedata
from datetime import date, datetime
from typing import Annotated

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


# Characters that show nothing: in a title, label or id they make two values that look the same
# compare as different (and break search).
_ZERO_WIDTH = re.compile("[\u00ad\u180e\u200b-\u200d\u2060-\u2064\ufeff]")


def _one_line(value: str) -> str:
    if "\n" in value:
        raise ValueError("must be a single line of text")
    control = re.search(r"[\x00-\x1f\x7f-\x9f\u2028\u2029]", value)
    if control:
        raise ValueError(f"contains control character U+{ord(control.group()):04X}; delete it")
    invisible = _ZERO_WIDTH.search(value)
    if invisible:
        code = ord(invisible.group())
        raise ValueError(f"contains the invisible character U+{code:04X}; delete it")
    return unicodedata.normalize("NFC", value)


# Letters of other scripts that look like Latin ones (a small table of the confusables that
# matter for labels typed on Latin, Cyrillic and Greek keyboards).
_LOOKALIKES = str.maketrans(
    "аеорсухіјѕԁɡһӏոսνοατκмнвтАВЕКМНОРСТХІЈЅΑΒΕΖΗΙΚΜΝΟΡΤΥΧ",
    "aeopcyxijsdghlnuvoatkmhbtABEKMHOPCTXIJSABEZHIKMNOPTYX",
)


def skeleton(value: str) -> str:
    """`value` as it looks: NFKC, case-folded, lookalike letters mapped to Latin, invisible
    characters and repeated spaces removed. Two labels with the same skeleton read the same."""
    folded = unicodedata.normalize("NFKC", value).translate(_LOOKALIKES).casefold()
    return " ".join(_ZERO_WIDTH.sub("", folded).split())


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
        return str(value)
    if isinstance(value, str):
        value = value.strip()
        if value.casefold() == UNKNOWN_DATE:
            raise ValueError(
                f"'{value}' is not a date: write {_DATE_FORMS} (only occurred may be unknown)"
            )
        if not re.match(DATE_PATTERN, value):
            raise ValueError(f"'{shorten(value)}' is not a date: write {_DATE_FORMS}")
        parts = [int(p) for p in value.split("-")]
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
