"""taxonomy.yml -> Taxonomy: the facets as declared, their terms, and every problem in one pass."""

from __future__ import annotations

import re
from dataclasses import replace
from typing import Literal

from pydantic import BaseModel, ConfigDict, Field, ValidationError

from ..languages import LANGS
from ..model.incident import SECTIONS, IncidentMeta
from ..model.taxonomy import Facet, Taxonomy, Term
from ..model.text import PlainLine, Slug, skeleton
from ..pages import urls
from ..pages.urls import RESERVED_FACET_SLUGS, RESERVED_TERM_IDS
from ..validate.diagnostics import Diagnostic, closest, from_validation_error
from .front_matter import LoadError, YamlDocument

# Front matter fields every incident has (and two names the checker uses for the parts of a
# file); a facet may not take one of these names.
RESERVED_FIELDS = frozenset(IncidentMeta.model_fields) | {"translation", "body"}


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


FacetId = Field(
    pattern=r"^[a-z][a-z0-9]*(?:_[a-z0-9]+)*$",
    max_length=40,
    description="The front matter field that names this facet's terms, e.g. contributing_factor.",
)


class FacetModel(_Strict):
    id: str = FacetId
    label: Bilingual = Field(description="Name of the facet.")
    description: Bilingual = Field(description="What the facet classifies.")
    terms_per_case: Literal["one", "many"] = Field(
        description="`one`: a case names a single term (`organization: acme`); `many`: a list."
    )
    required: bool = Field(description="Whether every case must name at least one term.")
    role: Literal["context", "descriptive"] = Field(
        description=(
            "`context`: where it happened (shown among a case's facts); `descriptive`: what went "
            "wrong (chips and sections on cases, related cases, co-occurrence)."
        )
    )
    color: str = Field(
        pattern=r"^#[0-9a-fA-F]{6}$", description="Colour of its chips and graph nodes, #rrggbb."
    )
    case_section: str | None = Field(
        default=None,
        description="A descriptive facet's chips sit under this section of the case (symptoms).",
    )
    checklist: bool = Field(
        default=False, description="Listed by the 'check whether your cluster has it too' block."
    )
    byline: bool = Field(
        default=False,
        description="Who had the incident: shown on case cards, as feed authors, in citations.",
    )
    terms: tuple[TermModel, ...] = Field(description="The facet's vocabulary.")


class TaxonomyModel(_Strict):
    graph: tuple[str, ...] = Field(
        default=(), description="The facets the graph draws, in the order of its legend."
    )
    matrices: tuple[tuple[str, str], ...] = Field(
        default=(), description="Co-occurrence tables as [rows facet, columns facet]."
    )
    facets: tuple[FacetModel, ...] = Field(min_length=1)


_POSITIONAL = re.compile(r"^facets\[(\d+)\](?:\.terms\[(\d+)\])?")


def _named(field: str, data: object) -> str:
    """A field as the contributor knows it: `facets[1].terms[26].label.ko` is
    `organization.hugging-face.label.ko` (ids as written; the position where an id is missing)."""

    def id_of(item: object, fallback: str) -> str:
        value = item.get("id") if isinstance(item, dict) else None
        return value if isinstance(value, str) and value else fallback

    found = _POSITIONAL.match(field)
    facets = data.get("facets") if isinstance(data, dict) else None
    if not found or not isinstance(facets, list) or int(found.group(1)) >= len(facets):
        return field
    rest = field[found.end() :]
    facet = facets[int(found.group(1))]
    # When the id itself is what is wrong, the position names it better than the id does.
    name = id_of(facet, "") if found.group(2) is not None or rest != ".id" else ""
    name = name or f"facets[{found.group(1)}]"
    if found.group(2) is not None:
        terms = facet.get("terms") if isinstance(facet, dict) else None
        at = int(found.group(2))
        term = terms[at] if isinstance(terms, list) and at < len(terms) else None
        name += "." + ((id_of(term, "") if rest != ".id" else "") or f"terms[{at}]")
    return name + rest


def build_taxonomy(document: YamlDocument, path: str) -> Taxonomy:
    """Validate a parsed taxonomy.yml into a Taxonomy, or raise LoadError with every problem."""
    try:
        model = TaxonomyModel.model_validate(document.data)
    except ValidationError as exc:
        found = from_validation_error(exc, path, document.position, _known_taxonomy_fields)
        raise LoadError([replace(d, field=_named(d.field, document.data)) for d in found]) from None
    problems: list[Diagnostic] = []

    def report(loc: tuple, message: str, suggestion: str | None = None, severity="error") -> None:
        pos = document.position(loc)
        field = ".".join(str(p) if isinstance(p, str) else f"[{p}]" for p in loc).replace(".[", "[")
        field = _named(field, document.data)
        problems.append(Diagnostic(path, pos.line, pos.col, field, message, severity, suggestion))

    seen: dict[str, int] = {}
    for index, facet in enumerate(model.facets):
        loc = ("facets", index)
        if facet.id in seen:
            report((*loc, "id"), f"facet '{facet.id}' is defined twice")
        elif facet.id in RESERVED_FIELDS:
            report((*loc, "id"), f"'{facet.id}' is a front matter field of every incident")
        elif facet.id.replace("_", "-") in RESERVED_FACET_SLUGS:
            report(
                (*loc, "id"), f"'{facet.id}' is the name of a folder of the site; choose another"
            )
        seen.setdefault(facet.id, index)
        if facet.case_section is not None and facet.case_section not in SECTIONS:
            suggestion = closest(facet.case_section, SECTIONS)
            report((*loc, "case_section"), "not a section of a case", suggestion)
        if facet.case_section is not None and facet.role != "descriptive":
            report((*loc, "case_section"), "only a descriptive facet's chips sit in a section")
        _check_terms(facet, index, report)
    if sum(1 for f in model.facets if f.checklist) > 1:
        report(("facets",), "only one facet can be the checklist of 'check your cluster'")
    if sum(1 for f in model.facets if f.byline) > 1:
        report(("facets",), "only one facet can be the byline")
    matrix_pages: dict[str, int] = {}
    for index, pair in enumerate(model.matrices):
        for side, facet_id in enumerate(pair):
            if facet_id not in seen:
                suggestion = closest(facet_id, seen)
                report(("matrices", index, side), f"unknown facet '{facet_id}'", suggestion)
            elif model.facets[seen[facet_id]].role != "descriptive":
                report(("matrices", index, side), f"'{facet_id}' is not a descriptive facet")
        if pair[0] == pair[1]:
            report(("matrices", index), "a matrix needs two different facets")
        # Two declarations whose page would be the same (the same pair twice, or ids that read
        # alike once joined into the page's address) would overwrite each other's page.
        address = urls.matrix(LANGS[0], *pair)
        first = matrix_pages.setdefault(address, index)
        if first != index:
            message = f"this matrix has the same page as matrices[{first}] ({address}); keep one"
            report(("matrices", index), message)
    for index, facet_id in enumerate(model.graph):
        if facet_id not in seen:
            report(("graph", index), f"unknown facet '{facet_id}'", closest(facet_id, seen))
        elif model.facets[seen[facet_id]].role != "descriptive":
            report(("graph", index), f"'{facet_id}' is not a descriptive facet")
    _check_aliases(model, report)
    if any(p.severity == "error" for p in problems):
        raise LoadError(sorted(problems))
    return Taxonomy(
        tuple(_facet(f, position) for position, f in enumerate(model.facets)),
        tuple(model.matrices),
        tuple(model.graph),
    ), tuple(p for p in problems if p.severity == "warning")


def _facet(facet: FacetModel, position: int) -> Facet:
    terms = tuple(
        Term(
            facet_index=position,
            id=t.id,
            facet=facet.id,
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
    return Facet(
        id=facet.id,
        label_ko=facet.label.ko,
        label_en=facet.label.en,
        description_ko=facet.description.ko,
        description_en=facet.description.en,
        terms=terms,
        position=position,
        single=facet.terms_per_case == "one",
        required=facet.required,
        role=facet.role,
        color=facet.color.lower(),
        case_section=facet.case_section,
        checklist=facet.checklist,
        byline=facet.byline,
    )


def _check_terms(facet: FacetModel, index: int, report) -> None:
    ids: dict[str, int] = {}
    labels: dict[tuple[str, str], str] = {}
    for t_index, term in enumerate(facet.terms):
        loc = ("facets", index, "terms", t_index)
        if term.id in ids:
            report((*loc, "id"), f"term '{term.id}' is defined twice in facet '{facet.id}'")
        elif term.id in RESERVED_TERM_IDS:
            report(
                (*loc, "id"),
                f"'{term.id}' is the name of the facet's own page ({facet.id.replace('_', '-')}/"
                f"{term.id}.html); choose another id",
            )
        ids.setdefault(term.id, t_index)
        for lang in LANGS:
            label = skeleton(term.label.get(lang))
            other = labels.get((lang, label))
            if other and other != term.id:
                report((*loc, "label", lang), f"label is the same as that of term '{other}'")
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


def _check_aliases(model: TaxonomyModel, report) -> None:
    """An alias names one term: within a facet it must not be another term's id, label or alias
    (an error: search would recommend the wrong filter); across facets it is a warning."""
    owners: dict[str, list[tuple[int, int, str]]] = {}  # name -> [(facet, term, term id)]
    for f_index, facet in enumerate(model.facets):
        for t_index, term in enumerate(facet.terms):
            names = {term.id, term.label.ko, term.label.en}
            for name in sorted({skeleton(n) for n in names}):
                owners.setdefault(name, []).append((f_index, t_index, term.id))
    for f_index, facet in enumerate(model.facets):
        for t_index, term in enumerate(facet.terms):
            own = {skeleton(n) for n in (term.id, term.label.ko, term.label.en)}
            seen_here: set[str] = set()
            for lang in LANGS:
                for a_index, alias in enumerate(getattr(term.aliases, lang)):
                    name = skeleton(alias)
                    loc = ("facets", f_index, "terms", t_index, "aliases", lang, a_index)
                    if name in own or name in seen_here:
                        continue  # the term's own name, or the same alias in both languages
                    seen_here.add(name)
                    for other_facet, _, other_id in owners.get(name, []):
                        where = model.facets[other_facet].id
                        if other_facet == f_index:
                            report(loc, f"alias '{alias}' is already a name of term '{other_id}'")
                        else:
                            report(
                                loc,
                                f"alias '{alias}' is already a name of term '{other_id}' "
                                f"in facet '{where}'",
                                severity="warning",
                            )
                    owners.setdefault(name, []).append((f_index, t_index, term.id))


def _known_taxonomy_fields(loc: tuple) -> list[str]:
    tail = [p for p in loc if isinstance(p, str)]
    if not tail:
        return list(TaxonomyModel.model_fields)
    if tail == ["facets"]:
        return list(FacetModel.model_fields)
    if tail == ["facets", "terms"]:
        return list(TermModel.model_fields)
    if tail[-1] == "aliases":
        return list(Aliases.model_fields)
    return ["ko", "en"]
