"""The kinds of page the site has: each a small frozen class with its template and its data.

A page holds exactly what its template shows (never the whole library), so two pages are equal
when they would render the same, and a preview can tell which pages an edit changed by comparing
them. Adding a kind of page means adding a class here, a template, and a line in
`pages/build.py` that makes its instances; nothing keeps a list of kinds by hand.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field, fields
from types import MappingProxyType
from typing import TYPE_CHECKING, Any, ClassVar

from ..model.incident import CaseText, Incident
from ..model.library import Related
from ..model.taxonomy import Facet, Term
from . import urls

if TYPE_CHECKING:
    from ..audit.catalogue import Check

# A list's pages are linked by number: the first, the last, and this many on each side of the
# current one; the pages between are a gap ("…"). The browser's pages follow the same rule
# (`pageItems` in search-core.js, given this number in terms.js; a test compares the two).
PAGES_AROUND = 2


def page_items(number: int, count: int, around: int = PAGES_AROUND) -> tuple[int | None, ...]:
    """The page numbers a list of `count` pages links from page `number`, None for each gap;
    a gap of a single page shows that page instead."""
    shown = sorted({1, count, *range(max(1, number - around), min(count, number + around) + 1)})
    items: list[int | None] = []
    last = 0
    for n in shown:
        if n - last == 2:
            items.append(last + 1)
        elif n - last > 2:
            items.append(None)
        items.append(n)
        last = n
    return tuple(items)


@dataclass(frozen=True)
class Pagination:
    number: int
    count: int
    total_items: int
    start: int  # 1-based index of the first item on this page
    end: int
    urls: tuple[str, ...]

    @property
    def items(self) -> tuple[int | None, ...]:
        """The pages linked from this one (`page_items`)."""
        return page_items(self.number, self.count)

    @property
    def previous_url(self) -> str | None:
        return self.urls[self.number - 2] if self.number > 1 else None

    @property
    def next_url(self) -> str | None:
        return self.urls[self.number] if self.number < self.count else None


@dataclass(frozen=True)
class Citation:
    permalink: str  # the page's absolute address; "" when the build does not know the site's
    text: str
    bibtex: str
    path: str = ""  # the page's address within the site (site-relative)


@dataclass(frozen=True)
class TermPair:
    a: Term
    b: Term
    count: int


FacetTerms = tuple[tuple[Facet, tuple[Term, ...]], ...]
FacetCounts = tuple[tuple[Facet, tuple[tuple[Term, int], ...]], ...]


@dataclass(frozen=True)
class Page:
    """What every page has; subclasses add the data their template reads."""

    url: str
    lang: str
    title: str
    description: str = ""
    in_nav: bool = False  # listed in the site's navigation (library homes, facet pages…)

    template: ClassVar[str] = ""
    # A whole document of its own (the root page): the shell writes it as it is, in no frame.
    standalone: ClassVar[bool] = False

    @property
    def kind(self) -> str:
        return type(self).__name__

    @property
    def source_path(self) -> str:
        return urls.source_path(self.url)

    def context(self) -> dict[str, Any]:
        """The template's variables: every field of the page, and the page itself."""
        return {f.name: getattr(self, f.name) for f in fields(self)} | {"page": self}


@dataclass(frozen=True)
class RootPage(Page):
    """The site's root: links to each language's library, as a small page of its own that
    sends readers on to the language they chose before, or their browser's."""

    template: ClassVar[str] = "root.html"
    standalone: ClassVar[bool] = True


@dataclass(frozen=True)
class HomePage(Page):
    """A page of a language's library: newest cases, facet counts, search, graph, pairs."""

    incidents: tuple[Incident, ...] = ()
    pagination: Pagination | None = None
    summary: FacetCounts = ()
    pairs: tuple[TermPair, ...] = ()
    checklist: tuple[Term, ...] = ()  # the checklist facet's most frequent terms
    # Every check, with its components: the "check your cluster" block shows those that
    # concern the components in view (the checklist here; the live results' in the browser).
    checks: tuple[tuple[Check, tuple[Term, ...]], ...] = ()

    template: ClassVar[str] = "home.html"


@dataclass(frozen=True)
class CasePage(Page):
    incident: Incident | None = None
    text: CaseText | None = None
    fallback: bool = False  # shown in the original language: no translation yet
    facts: FacetTerms = ()  # context facets (organization, domain) and their terms
    terms: FacetTerms = ()  # descriptive facets and their terms, in the declared order
    checklist: tuple[Term, ...] = ()
    related: tuple[Related, ...] = ()
    citation: Citation | None = None
    checks: tuple[Check, ...] = ()  # drawn from this case
    component_checks: tuple[Check, ...] = ()  # the others that concern its components

    template: ClassVar[str] = "case.html"


@dataclass(frozen=True)
class FacetPage(Page):
    facet: Facet | None = None
    terms: tuple[tuple[Term, int], ...] = ()

    template: ClassVar[str] = "facet.html"


@dataclass(frozen=True)
class TermPage(Page):
    term: Term | None = None
    facet: Facet | None = None
    incidents: tuple[Incident, ...] = ()
    pagination: Pagination | None = None
    parent: Term | None = None
    children: tuple[Term, ...] = ()
    cooccurring: tuple[tuple[Facet, tuple[tuple[Term, int], ...]], ...] = ()

    template: ClassVar[str] = "term.html"


@dataclass(frozen=True)
class CheckPage(Page):
    """One check of `incidents audit`: what it looks for and why, how to fix it, the cases it
    is drawn from, the manifest it flags and how to run it."""

    check: Check | None = None
    terms: FacetTerms = ()
    incidents: tuple[Incident, ...] = ()

    template: ClassVar[str] = "check.html"


@dataclass(frozen=True)
class ChecksPage(Page):
    """Every check, most serious first, with the components each concerns."""

    checks: tuple[tuple[Check, tuple[Term, ...]], ...] = ()

    template: ClassVar[str] = "checks.html"


@dataclass(frozen=True)
class ScaleStep:
    """One shade of a co-occurrence table's colour scale: the cells of `low` to `high` cases."""

    shade: int  # 1 (lightest) to 5 (darkest): the cell's class, il-matrix__c<shade>
    low: int
    high: int


@dataclass(frozen=True)
class MatrixPage(Page):
    row_facet: Facet | None = None
    col_facet: Facet | None = None
    rows: tuple[Term, ...] = ()
    cols: tuple[Term, ...] = ()
    cells: Mapping[tuple[str, str], int] = field(default_factory=lambda: MappingProxyType({}))
    matrices: tuple[tuple[Facet, Facet, str], ...] = ()  # every matrix: rows, columns, URL
    scale: tuple[ScaleStep, ...] = ()  # the shades of the cells and the legend, lightest first
    # The column headers' height in rem: their labels are slanted, and a slanted label sticks
    # out of the top of the table (where the scrolling box cuts it off) unless the row is tall
    # enough for the longest; estimated at build time, so the page needs no script for it.
    head_height: int = 4

    template: ClassVar[str] = "matrix.html"

    def shade(self, count: int) -> int:
        """The shade of a cell of `count` cases; 0 for an empty cell."""
        return next((s.shade for s in self.scale if count <= s.high), 0) if count > 0 else 0
