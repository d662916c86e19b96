"""The arguments an agent gives, checked and put in the library's terms: languages (given, or
read from the query), facets (by id, or by the names the reference library's listing uses),
terms (by id, label or alias), dates and paging. A bad argument raises `CatalogueError`, whose
message says what was wrong and, where one exists, what was probably meant.
"""

from __future__ import annotations

import difflib
import re
from collections.abc import Mapping, Sequence

from ..languages import DEFAULT, LANGS
from ..model.taxonomy import Facet, Taxonomy, Term
from ..model.text import date_before, parse_partial_date
from ..search.analyzer import HANGUL

MAX_LIMIT = 50  # cases or components a page may have
MAX_TERMS = 500  # terms a page of list_terms may have

# The filter names of the reference library's listing (REFERENCE-UI.md), taken as the facets
# they mean, so that a query written for it works here too.
FACET_ALIASES: Mapping[str, str] = {
    "root_cause": "cause",
    "factor": "contributing_factor",
    "organisation": "organization",
}

_LATIN = re.compile(r"[A-Za-z]")


class CatalogueError(ValueError):
    """A bad argument: the message names it; `suggestions` are what was probably meant."""

    def __init__(self, message: str, suggestions: Sequence[str] = ()) -> None:
        self.suggestions = tuple(suggestions)
        named = " or ".join(f"'{s}'" for s in self.suggestions)
        super().__init__(f"{message} (did you mean {named}?)" if named else message)


def facet_names(taxonomy: Taxonomy) -> dict[str, str]:
    """Every name a facet may be given by -> its id: the ids, then the reference's names for
    the facets this taxonomy has."""
    ids = {f.id: f.id for f in taxonomy.facets}
    return ids | {alias: id for alias, id in FACET_ALIASES.items() if id in ids}


def lang_of(lang: str | None, *texts: str) -> str:
    """The language of the answer: `lang` when given; otherwise Korean when the query (or a
    filter's value) has Hangul, English when it has Latin letters and no Hangul, and the site's
    default language when there is no text to tell."""
    if lang is not None:
        if lang not in LANGS:
            raise CatalogueError(
                f"unknown language '{lang}'; the library is written in {', '.join(LANGS)}",
                closest(lang, LANGS),
            )
        return lang
    joined = " ".join(texts)
    if HANGUL.search(joined):
        return "ko"
    return "en" if _LATIN.search(joined) else DEFAULT


def facet(taxonomy: Taxonomy, name: str) -> Facet:
    facet_id = facet_names(taxonomy).get(name) if isinstance(name, str) else None
    if facet_id is None:
        names = list(facet_names(taxonomy))
        raise CatalogueError(
            f"unknown facet '{name}'; the facets are {', '.join(f.id for f in taxonomy.facets)}",
            closest(str(name).replace("-", "_"), names),
        )
    return taxonomy.facet(facet_id)


def filters(
    taxonomy: Taxonomy, given: Mapping[str, Sequence[str] | str] | None
) -> dict[str, list[str]]:
    """Facet -> term ids, checked; a facet may be named by an alias, a term by id, label or
    alias. In taxonomy order, so that the same filters always read the same."""
    chosen: dict[str, list[str]] = {}
    for name, values in (given or {}).items():
        found = facet(taxonomy, name)
        ids = chosen.setdefault(found.id, [])
        for value in [values] if isinstance(values, str) else values:
            term = term_named(found, value)
            if term is None:
                names = [n for t in found.terms for n in (t.id, t.label_en, t.label_ko)]
                raise CatalogueError(
                    f"'{value}' is not a term of facet '{found.id}'; list_terms shows them",
                    closest(value, names),
                )
            if term.id not in ids:
                ids.append(term.id)
    return {f.id: chosen[f.id] for f in taxonomy.facets if chosen.get(f.id)}


def term_named(facet: Facet, value: str) -> Term | None:
    wanted = str(value).casefold()
    for term in facet.terms:
        if wanted in {name.casefold() for name in term.names()}:
            return term
    return None


def partial_date(name: str, value: str | None) -> str | None:
    """A bound of a date range: YYYY, YYYY-MM or YYYY-MM-DD."""
    if value is None or value == "":
        return None
    parsed = parse_partial_date(value)
    if parsed is None:
        raise CatalogueError(f"{name} '{value}' is not a date: write YYYY, YYYY-MM or YYYY-MM-DD")
    return parsed


def in_range(occurred: str, start: str | None, end: str | None) -> bool:
    """Whether a case's date lies in [start, end], each compared at the precision both have
    (a case of 2024-03 is within 2024 and from 2024-03-15 alike). A case whose date is not
    known is in no range."""
    if start is None and end is None:
        return True
    if parse_partial_date(occurred) is None:
        return False
    return not (start and date_before(occurred, start)) and not (end and date_before(end, occurred))


def original_language(value: str | None) -> str | None:
    if value is None or value == "":
        return None
    if value not in LANGS:
        raise CatalogueError(
            f"unknown original_language '{value}'; cases are written in {', '.join(LANGS)}",
            closest(value, LANGS),
        )
    return value


def limit(value: int, most: int = MAX_LIMIT) -> int:
    if not isinstance(value, int) or not 1 <= value <= most:
        raise CatalogueError(f"limit must be between 1 and {most}, not {value}")
    return value


def offset(value: int) -> int:
    if not isinstance(value, int) or value < 0:
        raise CatalogueError(f"offset must be 0 or more, not {value}")
    return value


def closest(value: str, options: Sequence[str], n: int = 3) -> list[str]:
    """Options that contain `value` (a shortened id), then those spelled like it."""
    value = str(value)
    containing = [o for o in options if value and value.casefold() in o.casefold()]
    close = difflib.get_close_matches(value, list(options), n=n, cutoff=0.6)
    return list(dict.fromkeys([*containing, *close]))[:n]
