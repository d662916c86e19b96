"""The languages the library is written and published in: the one place that names them."""

from __future__ import annotations

from typing import Literal

Language = Literal["ko", "en"]
LANGS: tuple[Language, ...] = ("ko", "en")
DEFAULT: Language = "ko"  # the root page's fallback, and the language of pages outside /ko/, /en/

# How each language is named, in each language: NAMES[shown_in][named].
NAMES: dict[str, dict[str, str]] = {
    "ko": {"ko": "한국어", "en": "영어"},
    "en": {"ko": "Korean", "en": "English"},
}
# Each language named in itself, for a language switch.
AUTONYMS: dict[str, str] = {"ko": "한국어", "en": "English"}


def name(code: str, shown_in: str) -> str:
    """`code`'s name as readers of `shown_in` call it: name("ko", "en") == "Korean"."""
    return NAMES[shown_in][code]


def in_english(code: str) -> str:
    """`code`'s English name, as messages for contributors say it: in_english("ko") == "Korean"."""
    return NAMES["en"][code]


def other(lang: str) -> Language:
    """The other language of a case: a translation is always in the one the original is not."""
    return "en" if lang == "ko" else "ko"


def of_url(url: str) -> Language | None:
    """The language a site-relative URL belongs to (`ko/cases/x.html` -> "ko"), if any."""
    head = url.split("/", 1)[0]
    return head if head in LANGS else None  # type: ignore[return-value]


# The months as English writes them (dates shown on pages; numbers the checker compares).
MONTHS_EN: tuple[str, ...] = (
    "January",
    "February",
    "March",
    "April",
    "May",
    "June",
    "July",
    "August",
    "September",
    "October",
    "November",
    "December",
)
