"""What the agent server answers, as typed values: the SDK publishes each model's JSON Schema as
the tool's output schema, so an agent knows every field before it calls.

Every answer is bounded (ANSWER_LIMIT): lists come a page at a time, with `next_offset` for the
rest, and a list of case ids in a count is cut to a few (`MAX_IDS`), with the call that lists
them all named in the field's description.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import TypeVar

from pydantic import BaseModel, Field

from ..model.text import OCCURRED_DESCRIPTION

# The most characters an answer's JSON may have (as the server writes it: compact, UTF-8 text
# counted in characters). About 10,000 to 20,000 tokens: a page of results an agent can read whole.
ANSWER_LIMIT = 40_000
MAX_IDS = 5  # case ids listed with a count (the newest)
FACET_TERMS = 10  # terms listed per facet in a search's counts (the most frequent)
PASSAGE_CHARS = 300  # a quoted sentence is cut around its first matched word past this


class TermRef(BaseModel):
    facet: str
    id: str
    label: str


class MatchedPassage(BaseModel):
    text: str = Field(description="The sentence of the case that best shows why it matched.")
    marked: str = Field(description="The same sentence with the matched words in **bold**.")


class SearchHit(BaseModel):
    id: str
    title: str
    summary: str
    text_lang: str = Field(
        description="Language of title and summary (the original's, if not translated)."
    )
    original_language: str = Field(description="The language the case was written in.")
    occurred: str = Field(description=OCCURRED_DESCRIPTION)
    published: str
    terms: dict[str, list[TermRef]] = Field(description="Terms by facet.")
    url: str = Field(description="The case page.")
    markdown_url: str = Field(description="The case as Markdown.")
    full_match: bool = Field(
        description="True for the results (every meaningful word of the query, or the term it "
        "names); False for a case listed after them that matches part of the query."
    )
    passage: MatchedPassage | None = None


class TermCount(BaseModel):
    id: str
    label: str
    cases: int


class FacetCounts(BaseModel):
    facet: str
    label: str
    terms: list[TermCount] = Field(
        description=f"The {FACET_TERMS} terms with the most cases, most first. For a facet the "
        "search is filtered by, the cases each of its terms would give in place of the chosen "
        "ones (the library page's counts)."
    )
    more: int = Field(description="Terms with cases that are not listed (list_terms has all).")


class SearchResult(BaseModel):
    query: str
    lang: str = Field(description="The language of the answer (given, or read from the query).")
    filters: dict[str, list[str]] = Field(description="The filters applied, as term ids.")
    occurred_from: str | None
    occurred_to: str | None
    original_language: str | None
    total: int = Field(description="Cases found (all of them, not only those returned).")
    full_matches: int = Field(
        description="The results: cases with every meaningful word of the query (or the term "
        "it names). They come first; the library page counts these."
    )
    partial_matches: int = Field(
        description="Cases after them that match part of the query (marked full_match false); "
        "the library page lists them collapsed, under their own heading."
    )
    offset: int = Field(description="Position of the first result returned, from 0.")
    next_offset: int | None = Field(
        description="Give this as offset for the next page; null when no case is left."
    )
    results: list[SearchHit]
    facets: list[FacetCounts] = Field(description="How the cases found divide by each facet.")
    dropped: list[str] = Field(description="Query words no case has, left out of the search.")
    corrections: list[list[str]] = Field(
        description="[typed, searched as] for words taken as typos."
    )
    ignored: list[str] = Field(description="Words past the length a query may have.")


class Source(BaseModel):
    url: str
    title: str
    publisher: str
    date: str


class IncidentDetail(BaseModel):
    id: str
    lang: str
    text_lang: str = Field(
        description="Language of the text returned (the original's if untranslated)."
    )
    original_language: str
    title: str
    summary: str
    occurred: str = Field(description=OCCURRED_DESCRIPTION)
    ended: str | None
    published: str
    terms: dict[str, list[TermRef]]
    scale: dict[str, int]
    sections: dict[str, str] = Field(description="Markdown of each section, by key, in order.")
    cut: list[str] = Field(
        description="Sections shortened to keep the answer bounded: ask for one with "
        "sections=[key] to read it whole."
    )
    not_in_sources: list[str] = Field(description="Sections the sources do not cover.")
    summary_only: list[str] = Field(
        description=(
            "Sections whose facts come only from a secondary summary of the source, not the "
            "source itself."
        )
    )
    distinct_from: list[str] = Field(
        description="Cases that look alike but are different incidents (reviewed)."
    )
    sources: list[Source]
    url: str
    markdown_url: str = Field(description="The whole case as one Markdown document.")


class TermInfo(BaseModel):
    id: str
    label: str
    description: str
    aliases: list[str] = Field(description="Other names, in both languages.")
    parent: str | None
    cases: int
    url: str


class TermList(BaseModel):
    facet: str
    label: str
    description: str
    lang: str
    total: int = Field(description="Terms the facet has.")
    offset: int
    next_offset: int | None = Field(description="Offset of the next page; null at the end.")
    terms: list[TermInfo]


class RelatedHit(BaseModel):
    id: str
    title: str
    summary: str
    url: str
    shared: list[TermRef] = Field(description="The descriptive terms it shares with the case.")


class RelatedResult(BaseModel):
    id: str
    lang: str
    related: list[RelatedHit]


class ComponentCount(BaseModel):
    id: str
    label: str
    description: str
    cases: int
    incidents: list[str] = Field(
        description=f"The newest {MAX_IDS} of those cases; search_incidents with this "
        "component as a filter (and the same query and filters) lists them all."
    )


class TopComponents(BaseModel):
    facet: str = Field(description="The facet the 'check your cluster' list is made of.")
    lang: str
    cases: int = Field(description="Cases in the set the components were counted over.")
    total: int = Field(description="Components found in those cases.")
    offset: int
    next_offset: int | None = Field(description="Offset of the next page; null at the end.")
    components: list[ComponentCount]


Item = TypeVar("Item", bound=BaseModel)


def size(answer: BaseModel) -> int:
    """The characters of an answer's JSON, as the server writes it."""
    return len(answer.model_dump_json())


def fitting(empty: BaseModel, items: Sequence[Item]) -> list[Item]:
    """The first of `items` that fit in the answer `empty` (the answer without them) under
    ANSWER_LIMIT; at least one, so that paging always moves on."""
    used = size(empty)
    for count, item in enumerate(items):
        used += size(item) + (1 if count else 0)
        if used > ANSWER_LIMIT and count:
            return list(items[:count])
    return list(items)
