"""Library -> the list of pages to publish: URL, language, template and the data it shows. Pure."""

from __future__ import annotations

from dataclasses import dataclass, field
from types import MappingProxyType
from typing import Any

from . import urls
from .citation import cite
from .graph import strongest_pairs
from .i18n import t
from .incident import Incident
from .library import DESCRIPTIVE_FACETS, Library
from .parallel import split_map
from .taxonomy import FACETS, Facet, Term

LANGS = ("ko", "en")


@dataclass(frozen=True)
class SiteOptions:
    """Site-wide settings that pages show, taken from `extra` in mkdocs.yml."""

    check_cluster_url: str = ""
    check_cluster_text: MappingProxyType = field(default_factory=lambda: MappingProxyType({}))
    page_size: int = urls.PAGE_SIZE
    related_limit: int = 5
    site_url: str = "http://127.0.0.1:8000/"


@dataclass(frozen=True)
class Page:
    url: str
    lang: str
    template: str
    title: str
    data: MappingProxyType
    description: str = ""
    in_nav: bool = False  # listed in mkdocs.yml's navigation (library homes and facet pages)

    @property
    def src_uri(self) -> str:
        return urls.source_path(self.url)

    def alternate(self, lang: str) -> str:
        return urls.counterpart(self.url, lang)


@dataclass(frozen=True)
class Pagination:
    number: int
    count: int
    total_items: int
    start: int  # 1-based index of the first item on this page
    end: int
    urls: tuple[str, ...]

    @property
    def previous_url(self) -> str | None:
        return self.urls[self.number - 2] if self.number > 1 else None

    @property
    def next_url(self) -> str | None:
        return self.urls[self.number] if self.number < self.count else None


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
    return (
        title if pagination.number == 1 else f"{title} ({t('page_n', lang, n=pagination.number)})"
    )


def _freeze(**data: Any) -> MappingProxyType:
    return MappingProxyType(data)


def build_pages(
    library: Library, options: SiteOptions | None = None, related: dict | None = None
) -> list[Page]:
    """Every generated page of the site, in a deterministic order.

    `related` may hold related cases already worked out (a preview reuses them for the cases an
    edit did not touch); missing ones are computed and added to it."""
    options = options or SiteOptions()
    pages = [Page(urls.root(), "ko", "root.html", "Incident Library", _freeze(library=library))]
    # Both languages show the same related cases and co-occurring terms: work them out once.
    related = related if related is not None else {}
    missing = [i for i in library.incidents if i.id not in related]
    # Ranking related cases is the costly part of the page data; a worker does half of it.
    limit = options.related_limit
    ranked = split_map(lambda n: library.related_ids(missing[n], limit), len(missing))
    for incident, ids in zip(missing, ranked, strict=True):
        related[incident.id] = library.related_from(incident, ids)
    cooccurring = {t.key: library.cooccurring(t) for t in library.taxonomy.terms()}
    for lang in LANGS:
        pages.extend(_home_pages(library, lang, options))
        pages.extend(
            _case_page(library, incident, lang, options, related[incident.id])
            for incident in library.incidents
        )
        for facet in library.taxonomy.facets:
            pages.append(_facet_page(library, facet, lang))
            for term in facet.terms:
                pages.extend(_term_pages(library, term, lang, options, cooccurring[term.key]))
        pages.extend(_matrix_pages(library, lang))
    return pages


# Facet pairs shown as co-occurrence matrices, rows × columns.
MATRICES: tuple[tuple[str, str], ...] = (
    ("cause", "component"),
    ("symptom", "cause"),
    ("symptom", "component"),
    ("cause", "contributing_factor"),
    ("component", "contributing_factor"),
)


def _matrix_pages(library: Library, lang: str) -> list[Page]:
    pages = []
    for index, (rows_facet, cols_facet) in enumerate(MATRICES):
        rows = sorted(library.used_terms(rows_facet), key=lambda t: (-library.count(t), t))
        cols = sorted(library.used_terms(cols_facet), key=lambda t: (-library.count(t), t))
        cells = {}
        for incident in library.incidents:
            for r in library.terms_of(incident, rows_facet):
                for c in library.terms_of(incident, cols_facet):
                    cells[(r.id, c.id)] = cells.get((r.id, c.id), 0) + 1
        row_facet = library.taxonomy.facet(rows_facet)
        col_facet = library.taxonomy.facet(cols_facet)
        title = t("matrix_title", lang, rows=row_facet.label(lang), cols=col_facet.label(lang))
        data = _freeze(
            library=library,
            row_facet=row_facet,
            col_facet=col_facet,
            rows=tuple(rows),
            cols=tuple(cols),
            cells=MappingProxyType(cells),
            matrices=MATRICES,
        )
        url = urls.matrix(lang, rows_facet, cols_facet)
        pages.append(
            Page(url, lang, "matrix.html", title, data, t("matrix_intro", lang), in_nav=index == 0)
        )
    return pages


def facet_summary(library: Library, facets: tuple[str, ...] = FACETS) -> tuple:
    """For each facet, its used terms with counts, most frequent first."""
    out = []
    for facet_id in facets:
        facet = library.taxonomy.facet(facet_id)
        counted = [(term, library.count(term)) for term in facet.terms]
        counted = sorted((c for c in counted if c[1]), key=lambda c: (-c[1], c[0]))
        out.append((facet, tuple(counted)))
    return tuple(out)


def case_terms(library: Library, incident: Incident) -> tuple[tuple[Facet, tuple[Term, ...]], ...]:
    return tuple(
        (library.taxonomy.facet(f), library.terms_of(incident, f)) for f in DESCRIPTIVE_FACETS
    )


def _home_pages(library: Library, lang: str, options: SiteOptions) -> list[Page]:
    summary = facet_summary(library)
    pairs = strongest_pairs(library)
    top_components = tuple(
        term for term, _ in dict(summary)[library.taxonomy.facet("component")][:5]
    )
    pages = []
    for pagination, chunk in _paginate(
        library.incidents, options.page_size, lambda n: urls.home(lang, n)
    ):
        title = _paged_title(t("library", lang), pagination, lang)
        data = _freeze(
            library=library,
            incidents=chunk,
            pagination=pagination,
            summary=summary,
            pairs=pairs,
            top_components=top_components,
            options=options,
        )
        pages.append(
            Page(
                pagination.urls[pagination.number - 1],
                lang,
                "home.html",
                title,
                data,
                t("library_intro", lang),
                in_nav=pagination.number == 1,
            )
        )
    return pages


def _case_page(
    library: Library, incident: Incident, lang: str, options: SiteOptions, related: tuple
) -> Page:
    text = incident.text(lang)
    components = library.terms_of(incident, "component")
    data = _freeze(
        library=library,
        incident=incident,
        text=text,
        fallback=text.lang != lang,
        organization=library.terms_of(incident, "organization"),
        domains=library.terms_of(incident, "domain"),
        terms=case_terms(library, incident),
        components=components,
        related=related,
        options=options,
        facet_ids=FACETS,
        citation=cite(library, incident, lang, options.site_url),
        index_names=sorted(
            {
                name
                for f in FACETS
                for t in library.terms_of(incident, f)
                for name in t.names()
                if name != t.id
            }
        ),
    )
    return Page(urls.case(lang, incident.id), lang, "case.html", text.title, data, text.summary)


def _facet_page(library: Library, facet: Facet, lang: str) -> Page:
    counted = tuple((term, library.count(term)) for term in facet.terms)
    counted = tuple(sorted(counted, key=lambda c: (-c[1], c[0].label(lang).casefold(), c[0])))
    data = _freeze(library=library, facet=facet, terms=counted)
    return Page(
        urls.facet(lang, facet),
        lang,
        "facet.html",
        facet.label(lang),
        data,
        facet.description(lang),
        in_nav=True,
    )


def _term_pages(
    library: Library, term: Term, lang: str, options: SiteOptions, cooccurring: tuple
) -> list[Page]:
    facet = library.taxonomy.facet(term.facet)
    cases = library.cases_with(term)
    parent = library.taxonomy.term(term.facet, term.parent) if term.parent else None
    children = tuple(c for c in facet.terms if c.parent == term.id)
    pages = []
    for pagination, chunk in _paginate(
        cases, options.page_size, lambda n: urls.term(lang, term, n)
    ):
        title = _paged_title(term.label(lang), pagination, lang)
        data = _freeze(
            library=library,
            facet=facet,
            term=term,
            incidents=chunk,
            pagination=pagination,
            parent=parent,
            children=children,
            cooccurring=cooccurring,
        )
        url = pagination.urls[pagination.number - 1]
        pages.append(Page(url, lang, "term.html", title, data, term.description(lang)))
    return pages
