"""The reviewed vocabulary: facets and their terms, each labelled in Korean and English."""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass

from pydantic import BaseModel, ConfigDict, Field, ValidationError

from .diagnostics import Diagnostic, closest, from_validation_error
from .load import LoadError, YamlDocument
from .text import Line, PlainLine, Slug

# The order facets are shown in, everywhere. Incident front matter has one field per facet.
FACETS: tuple[str, ...] = (
    "domain",
    "organization",
    "symptom",
    "cause",
    "component",
    "contributing_factor",
)
# Facets an incident names exactly one term of; the others take a list.
SINGLE_TERM_FACETS = frozenset({"organization"})


class _Strict(BaseModel):
    model_config = ConfigDict(extra="forbid", frozen=True)


class Bilingual(_Strict):
    ko: PlainLine = Field(description="Korean text.")
    en: PlainLine = Field(description="English text.")

    def get(self, lang: str) -> str:
        return self.ko if lang == "ko" else self.en


class Aliases(_Strict):
    ko: tuple[PlainLine, ...] = Field(default=(), description="What Korean readers type.")
    en: tuple[PlainLine, ...] = Field(default=(), description="What English readers type.")


class TermModel(_Strict):
    id: Slug = Field(description="Stable identifier used in incident files and URLs.")
    label: Bilingual = Field(description="Name shown to readers.")
    description: Bilingual = Field(description="One line that defines the term.")
    aliases: Aliases = Field(default_factory=Aliases, description="Other names readers search for.")
    parent: Slug | None = Field(default=None, description="A broader term of the same facet.")


class FacetModel(_Strict):
    id: str = Field(description="One of: " + ", ".join(FACETS))
    label: Bilingual = Field(description="Name of the facet.")
    description: Bilingual = Field(description="What the facet classifies.")
    terms: tuple[TermModel, ...] = Field(description="The facet's vocabulary.")


class TaxonomyModel(_Strict):
    facets: tuple[FacetModel, ...]


@dataclass(frozen=True, order=True)
class Term:
    """A term of one facet; ordered and hashed by (facet position, id)."""

    facet_index: int
    id: str
    facet: str
    label_ko: str
    label_en: str
    description_ko: str
    description_en: str
    aliases_ko: tuple[str, ...]
    aliases_en: tuple[str, ...]
    parent: str | None

    @property
    def key(self) -> tuple[str, str]:
        return self.facet, self.id

    def label(self, lang: str) -> str:
        return self.label_ko if lang == "ko" else self.label_en

    def description(self, lang: str) -> str:
        return self.description_ko if lang == "ko" else self.description_en

    def names(self) -> tuple[str, ...]:
        """Every way a reader may name this term, in both languages."""
        return (self.id, self.label_ko, self.label_en, *self.aliases_ko, *self.aliases_en)


@dataclass(frozen=True)
class Facet:
    id: str
    label_ko: str
    label_en: str
    description_ko: str
    description_en: str
    terms: tuple[Term, ...]

    @property
    def slug(self) -> str:
        """The facet as it appears in URLs."""
        return self.id.replace("_", "-")

    def label(self, lang: str) -> str:
        return self.label_ko if lang == "ko" else self.label_en

    def description(self, lang: str) -> str:
        return self.description_ko if lang == "ko" else self.description_en


@dataclass(frozen=True)
class Taxonomy:
    facets: tuple[Facet, ...]

    def facet(self, facet_id: str) -> Facet:
        for facet in self.facets:
            if facet.id == facet_id:
                return facet
        raise KeyError(facet_id)

    def term(self, facet_id: str, term_id: str) -> Term | None:
        return self._index().get((facet_id, term_id))

    def terms(self) -> Iterator[Term]:
        for facet in self.facets:
            yield from facet.terms

    def _index(self) -> dict[tuple[str, str], Term]:
        cached = self.__dict__.get("_term_index")
        if cached is None:
            cached = {t.key: t for t in self.terms()}
            object.__setattr__(self, "_term_index", cached)
        return cached

    def suggest(self, facet_id: str, word: str) -> str | None:
        """The id of the term a contributor probably meant by `word` (an id, label or alias)."""
        facet = self.facet(facet_id)
        by_name: dict[str, str] = {}
        for term in facet.terms:
            for name in term.names():
                by_name.setdefault(name.lower(), term.id)
        if word.lower() in by_name:
            return by_name[word.lower()]
        match = closest(word, by_name)
        return by_name[match.lower()] if match else None


def build_taxonomy(document: YamlDocument, path: str) -> Taxonomy:
    """Validate a parsed taxonomy.yml into a Taxonomy, or raise LoadError with every problem."""
    try:
        model = TaxonomyModel.model_validate(document.data)
    except ValidationError as exc:
        raise LoadError(
            from_validation_error(exc, path, document.position, _known_taxonomy_fields)
        ) from None
    problems: list[Diagnostic] = []

    def report(loc: tuple, message: str, suggestion: str | None = None) -> None:
        pos = document.position(loc)
        field = ".".join(str(p) if isinstance(p, str) else f"[{p}]" for p in loc).replace(".[", "[")
        problems.append(Diagnostic(path, pos.line, pos.col, field, message, "error", suggestion))

    seen_facets: dict[str, int] = {}
    for index, facet in enumerate(model.facets):
        if facet.id not in FACETS:
            report(
                ("facets", index, "id"), f"unknown facet '{facet.id}'", closest(facet.id, FACETS)
            )
        elif facet.id in seen_facets:
            report(("facets", index, "id"), f"facet '{facet.id}' is defined twice")
        seen_facets.setdefault(facet.id, index)
        _check_terms(facet, index, report)
    for missing in (f for f in FACETS if f not in seen_facets):
        report(("facets",), f"facet '{missing}' is missing")
    if problems:
        raise LoadError(sorted(problems))

    facets = []
    for facet_id in FACETS:
        facet = model.facets[seen_facets[facet_id]]
        position = FACETS.index(facet_id)
        terms = tuple(
            Term(
                facet_index=position,
                id=t.id,
                facet=facet_id,
                label_ko=t.label.ko,
                label_en=t.label.en,
                description_ko=t.description.ko,
                description_en=t.description.en,
                aliases_ko=t.aliases.ko,
                aliases_en=t.aliases.en,
                parent=t.parent,
            )
            for t in facet.terms
        )
        facets.append(
            Facet(
                facet_id,
                facet.label.ko,
                facet.label.en,
                facet.description.ko,
                facet.description.en,
                terms,
            )
        )
    return Taxonomy(tuple(facets))


def _check_terms(facet: FacetModel, index: int, report) -> None:
    ids: dict[str, int] = {}
    labels: dict[tuple[str, str], str] = {}
    for t_index, term in enumerate(facet.terms):
        loc = ("facets", index, "terms", t_index)
        if term.id in ids:
            report((*loc, "id"), f"term '{term.id}' is defined twice in facet '{facet.id}'")
        ids.setdefault(term.id, t_index)
        for lang in ("ko", "en"):
            label = term.label.get(lang).casefold()
            other = labels.get((lang, label))
            if other and other != term.id:
                report((*loc, "label", lang), f"label is the same as term '{other}'s")
            labels.setdefault((lang, label), term.id)
    for t_index, term in enumerate(facet.terms):
        if term.parent is None:
            continue
        loc = ("facets", index, "terms", t_index, "parent")
        if term.parent not in ids:
            report(
                loc,
                f"parent '{term.parent}' is not a term of '{facet.id}'",
                closest(term.parent, ids),
            )
            continue
        chain, current = {term.id}, term.parent
        while current is not None:
            if current in chain:
                report(loc, f"parent chain of '{term.id}' loops back on itself")
                break
            chain.add(current)
            current = facet.terms[ids[current]].parent if current in ids else None


def _known_taxonomy_fields(loc: tuple) -> list[str]:
    depth = len([p for p in loc if isinstance(p, str)])
    tail = [p for p in loc if isinstance(p, str)]
    if depth == 0:
        return ["facets"]
    if tail == ["facets"]:
        return list(FacetModel.model_fields)
    if tail == ["facets", "terms"]:
        return list(TermModel.model_fields)
    return ["ko", "en"]


# Kept for readers of the JSON Schema: a Line is one line of text.
__all__ = ["FACETS", "Facet", "Line", "Taxonomy", "Term", "build_taxonomy"]
