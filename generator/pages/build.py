"""Library -> the pages of the site, in a deterministic order. Pure."""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from types import MappingProxyType
from typing import TYPE_CHECKING

from ..languages import LANGS
from ..model.incident import Incident
from ..model.library import Library
from ..model.taxonomy import Facet, Term
from ..render.strings import t
from . import urls
from .kinds import (
    CasePage,
    CheckPage,
    ChecksPage,
    Citation,
    FacetPage,
    FacetTerms,
    HomePage,
    MatrixPage,
    Page,
    Pagination,
    RootPage,
    ScaleStep,
    TermPage,
    TermPair,
)

if TYPE_CHECKING:
    from ..audit.catalogue import Check

CHECKLIST_SIZE = 5  # terms the "check your cluster" block names
FULL_CARDS = 3  # a list of at most this many cases shows each case's sections, not a summary
PAIRS_SHOWN = 15


@dataclass(frozen=True)
class SiteOptions:
    """Site-wide settings that pages show (from the shell's configuration)."""

    site_url: str = ""  # the published address; "" when the build does not know it
    page_size: int = urls.PAGE_SIZE
    # The checker the "check your cluster" block links (extra.check_cluster); no url, no block.
    check_cluster_name: str = ""
    check_cluster_url: str = ""
    check_cluster_text: MappingProxyType = field(default_factory=lambda: MappingProxyType({}))


def build_pages(
    library: Library, options: SiteOptions | None = None, checks: tuple[Check, ...] = ()
) -> tuple[Page, ...]:
    """Every generated page of the site: the root, then each language's homes, cases, facets
    with their terms, matrices, and the checks of `incidents audit`."""
    options = options or SiteOptions()
    pages: list[Page] = [RootPage(urls.root(), "ko", "Incident Library")]
    summary = facet_summary(library)
    pairs = strongest_pairs(library)
    listed = tuple((check, _components(library, check)) for check in checks)
    for lang in LANGS:
        pages.extend(_home_pages(library, lang, options, summary, pairs, listed))
        pages.extend(
            _case_page(library, incident, lang, options, checks) for incident in library.incidents
        )
        for facet in library.taxonomy.facets:
            pages.append(_facet_page(library, facet, lang))
            for term in facet.terms:
                pages.extend(_term_pages(library, term, lang, options))
        pages.extend(_matrix_pages(library, lang))
        pages.extend(_check_pages(library, lang, checks, listed))
    return tuple(pages)


def _components(library: Library, check: Check) -> tuple[Term, ...]:
    facet = library.taxonomy.checklist
    if facet is None:
        return ()
    return tuple(library.taxonomy.term(facet.id, t) for t in check.term_ids(facet.id))


def _check_pages(library: Library, lang: str, checks, listed) -> list[Page]:
    if not checks:
        return []
    pages: list[Page] = [
        ChecksPage(
            url=urls.checks(lang),
            lang=lang,
            title=t("checks", lang),
            description=t("checks_intro", lang),
            in_nav=True,
            checks=listed,
        )
    ]
    taxonomy = library.taxonomy
    for check in checks:
        terms = tuple(
            (taxonomy.facet(f), tuple(taxonomy.term(f, i) for i in ids)) for f, ids in check.terms
        )
        pages.append(
            CheckPage(
                url=urls.check(lang, check.id),
                lang=lang,
                title=check.text("title", lang),
                description=check.text("title", lang),
                check=check,
                terms=terms,
                incidents=tuple(library.incident(i) for i in check.incidents),
            )
        )
    return pages


def _paginate(items: tuple, size: int, url_for) -> list[tuple[Pagination, tuple]]:
    count = max(1, -(-len(items) // size))
    page_urls = tuple(url_for(n) for n in range(1, count + 1))
    out = []
    for number in range(1, count + 1):
        chunk = items[(number - 1) * size : number * size]
        start = (number - 1) * size + 1 if chunk else 0
        end = start + len(chunk) - 1 if chunk else 0
        out.append((Pagination(number, count, len(items), start, end, page_urls), chunk))
    return out


def _paged_title(title: str, pagination: Pagination, lang: str) -> str:
    """`Title` on the first page, `Title (page 2)` after it."""
    if pagination.number == 1:
        return title
    return f"{title} ({t('page_n', lang, n=pagination.number)})"


def facet_summary(library: Library) -> tuple[tuple[Facet, tuple[tuple[Term, int], ...]], ...]:
    """For each facet, its used terms with counts, most frequent first."""
    out = []
    for facet in library.taxonomy.facets:
        counted = [(term, library.count(term)) for term in facet.terms]
        counted = sorted((c for c in counted if c[1]), key=lambda c: (-c[1], c[0]))
        out.append((facet, tuple(counted)))
    return tuple(out)


def strongest_pairs(library: Library, limit: int = PAIRS_SHOWN) -> tuple[TermPair, ...]:
    """Term pairs of different facets that occur together most often."""
    ranked = sorted(
        ((a, b, n) for (a, b), n in library.pairs().items() if a.facet != b.facet),
        key=lambda item: (-item[2], item[0], item[1]),
    )
    return tuple(TermPair(a, b, n) for a, b, n in ranked[:limit])


def _terms(library: Library, incident: Incident, facets: tuple[Facet, ...]) -> FacetTerms:
    return tuple((f, library.terms_of(incident, f.id)) for f in facets)


def _home_pages(
    library: Library, lang: str, options: SiteOptions, summary, pairs, checks=()
) -> list[HomePage]:
    checklist_facet = library.taxonomy.checklist
    checklist: tuple[Term, ...] = ()
    if checklist_facet is not None:
        counted = dict(summary)[checklist_facet]
        checklist = tuple(term for term, _ in counted[:CHECKLIST_SIZE])
    pages = []
    for pagination, chunk in _paginate(
        library.incidents, options.page_size, lambda n: urls.home(lang, n)
    ):
        pages.append(
            HomePage(
                url=pagination.urls[pagination.number - 1],
                lang=lang,
                title=_paged_title(t("library", lang), pagination, lang),
                description=t("library_intro", lang),
                in_nav=pagination.number == 1,
                incidents=chunk,
                pagination=pagination,
                summary=summary,
                pairs=pairs,
                checklist=checklist,
                checks=checks,
            )
        )
    return pages


def _case_page(
    library: Library, incident: Incident, lang: str, options: SiteOptions, checks=()
) -> CasePage:
    taxonomy = library.taxonomy
    text = incident.text(lang)
    checklist_facet = taxonomy.checklist
    components = (
        {t.id for t in library.terms_of(incident, checklist_facet.id)} if checklist_facet else set()
    )
    drawn = tuple(c for c in checks if incident.id in c.incidents)
    nearby = (
        tuple(
            c for c in checks if c not in drawn and components & set(c.term_ids(checklist_facet.id))
        )
        if checklist_facet
        else ()
    )
    return CasePage(
        url=urls.case(lang, incident.id),
        lang=lang,
        title=text.title,
        description=text.summary,
        incident=incident,
        text=text,
        fallback=text.lang != lang,
        facts=_terms(library, incident, taxonomy.context),
        terms=_terms(library, incident, taxonomy.descriptive),
        checklist=library.terms_of(incident, checklist_facet.id) if checklist_facet else (),
        related=library.related(incident),
        citation=cite(library, incident, lang, options.site_url),
        checks=drawn,
        component_checks=nearby,
    )


def _facet_page(library: Library, facet: Facet, lang: str) -> FacetPage:
    counted = tuple((term, library.count(term)) for term in facet.terms)
    counted = tuple(sorted(counted, key=lambda c: (-c[1], c[0].label(lang).casefold(), c[0])))
    return FacetPage(
        url=urls.facet(lang, facet),
        lang=lang,
        title=facet.label(lang),
        description=facet.description(lang),
        in_nav=True,
        facet=facet,
        terms=counted,
    )


def _term_pages(library: Library, term: Term, lang: str, options: SiteOptions) -> list[TermPage]:
    taxonomy = library.taxonomy
    facet = taxonomy.facet(term.facet)
    cases = library.cases_with(term)
    parent = taxonomy.term(term.facet, term.parent) if term.parent else None
    children = tuple(c for c in facet.terms if c.parent == term.id)
    cooccurring = tuple(
        (taxonomy.facet(facet_id), counted) for facet_id, counted in library.cooccurring(term)
    )
    pages = []
    for pagination, chunk in _paginate(
        cases, options.page_size, lambda n: urls.term(lang, term, n)
    ):
        pages.append(
            TermPage(
                url=pagination.urls[pagination.number - 1],
                lang=lang,
                title=_paged_title(term.label(lang), pagination, lang),
                description=term.description(lang),
                term=term,
                facet=facet,
                incidents=chunk,
                pagination=pagination,
                parent=parent,
                children=children,
                cooccurring=cooccurring,
            )
        )
    return pages


SHADES = 5  # the steps of a co-occurrence table's colours: il-matrix__c1 to c5 in library.css
HEAD_FONT = 0.64  # rem: the size of its slanted column labels (library.css)
HEAD_HEIGHTS = (3, 16)  # rem: the shortest and tallest header library.css has a class for


def count_scale(maximum: int) -> tuple[ScaleStep, ...]:
    """The colour steps of a table whose fullest cell holds `maximum` cases: SHADES ranges of
    counts that grow geometrically (1 | 2 | 3–5 | 6–8 | 9–15 for 15). Such counts are skewed,
    most cells hold one or two cases and a few many, so a linear scale would give nearly every
    cell the lightest shade. With fewer counts than shades each count is a step of its own, and
    the shades spread out so that the fullest cell is always the darkest.

    assets/matrix.js computes the same scale for the counts of a filtered view: keep them alike."""
    if maximum < 1:
        return ()
    n = min(SHADES, maximum)
    highs: list[int] = []
    for k in range(1, n + 1):
        high = int(maximum ** (k / n) + 1e-9)  # the epsilon: a power may land just below 2.0
        high = max(high, highs[-1] + 1 if highs else 1)  # every step holds a count
        highs.append(min(high, maximum - (n - k)))  # and leaves one for each step after it
    lows = [1] + [high + 1 for high in highs[:-1]]
    return tuple(
        ScaleStep(shade=-(-k * SHADES // n), low=low, high=high)
        for k, (low, high) in enumerate(zip(lows, highs, strict=True), start=1)
    )


def _label_width(label: str) -> float:
    """About how wide a label is set, in em: Hangul is square, Latin narrower, and a little
    wider than the common sans-serif fonts set it, since the site uses the reader's own."""
    width = 0.0
    for char in label:
        if char == " ":
            width += 0.3
        elif ord(char) >= 0x1100:  # Hangul and other wide scripts
            width += 1.0
        elif char.isupper() or char.isdigit():
            width += 0.72
        elif char.isalpha():
            width += 0.52
        else:
            width += 0.45
    return width


def head_height(labels) -> int:
    """The height in rem of a header row whose labels are slanted at 45°: a label rises by its
    length (and its line's height) over √2, above the header's bottom margin and a little spare."""
    longest = max((_label_width(label) for label in labels), default=0.0)
    rise = (longest + 1.3) * HEAD_FONT * 0.7072 + 0.5
    low, high = HEAD_HEIGHTS
    return min(high, max(low, int(-(-rise // 1))))


def _orientation(library: Library, first: Facet, second: Facet) -> tuple[Facet, Facet]:
    """Which of a matrix's two facets runs down the side: the one with more terms in use, so the
    table grows downwards, where a page scrolls, and its slanted column labels are as few as
    can be (36 components across made a table 1,615 px wide in a 936 px box). The taxonomy's
    order (`matrices:`) names the table; a tie keeps it."""
    used = [len(library.used_terms(facet.id)) for facet in (first, second)]
    return (second, first) if used[1] > used[0] else (first, second)


def _matrix_pages(library: Library, lang: str) -> list[MatrixPage]:
    taxonomy = library.taxonomy
    matrices = tuple(
        (taxonomy.facet(r), taxonomy.facet(c), urls.matrix(lang, r, c))
        for r, c in taxonomy.matrices
    )
    pages = []
    for index, (first, second, url) in enumerate(matrices):
        title = t("matrix_title", lang, rows=first.label(lang), cols=second.label(lang))
        row_facet, col_facet = _orientation(library, first, second)
        rows = sorted(library.used_terms(row_facet.id), key=lambda t: (-library.count(t), t))
        cols = sorted(library.used_terms(col_facet.id), key=lambda t: (-library.count(t), t))
        cells: dict[tuple[str, str], int] = {}
        for incident in library.incidents:
            for r in library.terms_of(incident, row_facet.id):
                for c in library.terms_of(incident, col_facet.id):
                    cells[(r.id, c.id)] = cells.get((r.id, c.id), 0) + 1
        pages.append(
            MatrixPage(
                url=url,
                lang=lang,
                title=title,
                description=t("matrix_intro", lang),
                in_nav=index == 0,
                row_facet=row_facet,
                col_facet=col_facet,
                rows=tuple(rows),
                cols=tuple(cols),
                cells=MappingProxyType(dict(sorted(cells.items()))),
                matrices=matrices,
                scale=count_scale(max(cells.values(), default=0)),
                head_height=head_height(c.label(lang) for c in cols),
            )
        )
    return pages


# --- citations --------------------------------------------------------------------------------

_BIBTEX_SPECIAL = re.compile(r"([&%$#_{}~^\\])")


def _bibtex_escape(value: str) -> str:
    def replace(match: re.Match) -> str:
        char = match.group(1)
        return {
            "~": r"\textasciitilde{}",
            "^": r"\textasciicircum{}",
            "\\": r"\textbackslash{}",
        }.get(char, "\\" + char)

    return _BIBTEX_SPECIAL.sub(replace, value)


def cite(library: Library, incident: Incident, lang: str, site_url: str) -> Citation:
    """The citation of a case page; the permalink is the page's address, which never changes.
    Without the site's address (`site_url` "") there is no permalink to give: the citation
    names the case without one, and the page shows its path within the site."""
    path = urls.case(lang, incident.id)
    permalink = (site_url if site_url.endswith("/") else site_url + "/") + path if site_url else ""
    text = incident.text(lang)
    org = ", ".join(t.label(lang) for t in library.byline(incident))
    year = incident.meta.published[:4]
    authors = "Incident Library 기여자" if lang == "ko" else "Incident Library contributors"
    plain = f'{authors}. "{text.title}". Incident Library, {year}.'
    if permalink:
        plain += f" {permalink}"
    first = incident.meta.sources[0]
    note = f"Case summary of {first.publisher}, {first.title}, {first.date}"
    entries = [
        ("title", "{" + _bibtex_escape(text.title) + "}"),
        ("author", "{Incident Library contributors}"),
        ("year", year),
        *([("howpublished", "{\\url{" + permalink + "}}")] if permalink else []),
        ("note", "{" + _bibtex_escape(note) + "}"),
        ("keywords", "{" + _bibtex_escape(", ".join(filter(None, [org, incident.id]))) + "}"),
    ]
    body = ",\n".join(f"  {key} = {value}" for key, value in entries)
    key = "incident-library:" + incident.id
    return Citation(permalink, plain, f"@misc{{{key},\n{body}\n}}", path)
