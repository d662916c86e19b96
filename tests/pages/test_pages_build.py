"""Library -> pages (generator/pages/build.py): which pages a small library has and in what order,
pagination (20 a page, the ranges shown), facet pages (most used first, then by label in the
page's language), term pages (parent, children, co-occurring terms), matrix cells, the home
page's summary, pairs and checklist, case pages (context facts apart from descriptive terms),
and citations with BibTeX escaping. Incidents are made in memory; nothing is rendered."""

from __future__ import annotations

import dataclasses
from collections import Counter

import pytest
from conftest import TAXONOMY

from generator.load.front_matter import parse_yaml
from generator.load.taxonomy import build_taxonomy
from generator.model.incident import SECTIONS, CaseText, Incident, Section, incident_model
from generator.model.library import build_library
from generator.model.taxonomy import Taxonomy
from generator.pages.build import (
    CHECKLIST_SIZE,
    SiteOptions,
    build_pages,
    cite,
    facet_summary,
    strongest_pairs,
)
from generator.pages.kinds import (
    PAGES_AROUND,
    CasePage,
    FacetPage,
    HomePage,
    MatrixPage,
    RootPage,
    TermPage,
    page_items,
)

TAX = build_taxonomy(parse_yaml(TAXONOMY, "taxonomy.yml"), "taxonomy.yml")[0]


def make(
    incident_id: str,
    occurred: str = "2024-03-01",
    *,
    taxonomy: Taxonomy = TAX,
    langs: tuple[str, ...] = ("en", "ko"),
    title: str | None = None,
    **terms,
) -> Incident:
    values = {
        "organization": "acme",
        "domain": ("ai-infra",),
        "symptom": ("training-job-failure",),
        "cause": ("gpu-failure",),
        "component": ("gpu-driver",),
    } | terms
    meta = incident_model(taxonomy).model_validate(
        {
            "id": incident_id,
            "title": title or f"Title of {incident_id}",
            "summary": "What happened.",
            "lang": langs[0],
            "occurred": occurred,
            "published": "2024-04-02",
            "sources": [
                {
                    "url": "https://reports.acme.dev/r",
                    "title": "Postmortem",
                    "publisher": "Acme",
                    "date": "2024-04-02",
                }
            ],
            **values,
        }
    )
    texts = tuple(
        CaseText(
            lang,
            title or f"{incident_id} in {lang}",
            f"Summary in {lang}.",
            tuple(Section(key, key, n) for n, key in enumerate(SECTIONS)),
            f"incidents/{incident_id}.md",
        )
        for lang in langs
    )
    return Incident(meta, f"incidents/{incident_id}.md", texts)


SMALL = build_library(
    TAX,
    [
        make("a", "2024-01", component=("gpu-driver", "infiniband-fabric")),
        make(
            "b",
            "2024-02",
            langs=("en",),
            organization="globex",
            domain=("kubernetes",),
            symptom=("service-outage",),
            cause=("faulty-change",),
            component=("etcd",),
            contributing_factor=("missing-safeguard",),
        ),
        make("c", "2024-03", component=("infiniband-fabric",)),
    ],
)
PAGES = build_pages(SMALL, SiteOptions(site_url="https://example.org/"))
BY_URL = {page.url: page for page in PAGES}


def page(url: str):
    return BY_URL[url]


def term_ids(terms) -> list[str]:
    return [t.id for t in terms]


def counted_ids(counted) -> list[tuple[str, int]]:
    return [(t.id, n) for t, n in counted]


class TestKindsAndOrder:
    def test_counts_of_each_kind_per_language(self):
        per_language = {
            "HomePage": 1,
            "CasePage": 3,
            "FacetPage": 6,
            "TermPage": 14,  # every term, used or not
            "MatrixPage": 5,
        }
        expected = {("RootPage", "ko"): 1} | {
            (kind, lang): n for lang in ("ko", "en") for kind, n in per_language.items()
        }
        assert Counter((p.kind, p.lang) for p in PAGES) == expected
        assert len(BY_URL) == len(PAGES)  # no URL twice

    def test_order_root_then_each_language(self):
        assert isinstance(PAGES[0], RootPage) and PAGES[0].url == "index.html"
        ko = [p.url for p in PAGES if p.lang == "ko" and not isinstance(p, RootPage)]
        en = [p.url for p in PAGES if p.lang == "en"]
        assert PAGES.index(page(en[0])) > PAGES.index(page(ko[-1]))
        assert en[:4] == ["en/index.html", "en/cases/c.html", "en/cases/b.html", "en/cases/a.html"]
        assert en[4:8] == [
            "en/domain/index.html",
            "en/domain/kubernetes.html",
            "en/domain/ai-infra.html",
            "en/organization/index.html",
        ]
        assert en[-5:] == [
            "en/matrix/cause-x-component.html",
            "en/matrix/symptom-x-cause.html",
            "en/matrix/symptom-x-component.html",
            "en/matrix/cause-x-contributing-factor.html",
            "en/matrix/component-x-contributing-factor.html",
        ]
        assert [p.url for p in PAGES if p.lang == "ko"][1:] == [
            u.replace("en/", "ko/", 1) for u in en
        ]

    def test_navigation_pages(self):
        in_nav = [p.url for p in PAGES if p.in_nav and p.lang == "en"]
        assert in_nav == [
            "en/index.html",
            "en/domain/index.html",
            "en/organization/index.html",
            "en/symptom/index.html",
            "en/cause/index.html",
            "en/component/index.html",
            "en/contributing-factor/index.html",
            "en/matrix/cause-x-component.html",
        ]

    def test_deterministic(self):
        assert build_pages(SMALL, SiteOptions(site_url="https://example.org/")) == PAGES

    def test_an_empty_library_still_has_its_homes_facets_and_terms(self):
        pages = build_pages(build_library(TAX, []))
        home = next(p for p in pages if p.url == "en/index.html")
        assert home.incidents == ()
        assert (home.pagination.count, home.pagination.start, home.pagination.end) == (1, 0, 0)
        assert Counter(p.kind for p in pages)["CasePage"] == 0
        assert Counter(p.kind for p in pages)["TermPage"] == 28


class TestPagination:
    LIBRARY = build_library(
        TAX,
        [make(f"case-{n:02d}", f"2023-{n % 12 + 1:02d}-{n + 1:02d}") for n in range(23)],
    )
    PAGES = {p.url: p for p in build_pages(LIBRARY)}

    def test_twenty_cases_a_page(self):
        first, second = self.PAGES["en/index.html"], self.PAGES["en/page/2.html"]
        assert isinstance(first, HomePage) and isinstance(second, HomePage)
        assert len(first.incidents) == 20 and len(second.incidents) == 3
        assert first.incidents + second.incidents == self.LIBRARY.incidents
        assert "en/page/3.html" not in self.PAGES

    def test_ranges_and_links(self):
        first = self.PAGES["en/index.html"].pagination
        second = self.PAGES["en/page/2.html"].pagination
        assert (first.number, first.count, first.total_items, first.start, first.end) == (
            1,
            2,
            23,
            1,
            20,
        )
        assert (second.number, second.start, second.end) == (2, 21, 23)
        assert first.urls == second.urls == ("en/index.html", "en/page/2.html")
        assert (first.previous_url, first.next_url) == (None, "en/page/2.html")
        assert (second.previous_url, second.next_url) == ("en/index.html", None)

    def test_only_the_first_page_is_in_the_navigation_and_later_titles_say_the_page(self):
        assert self.PAGES["en/index.html"].in_nav
        assert not self.PAGES["en/page/2.html"].in_nav
        assert self.PAGES["en/index.html"].title == "All cases"
        assert self.PAGES["en/page/2.html"].title == "All cases (page 2)"
        assert self.PAGES["ko/page/2.html"].title == "전체 사례 (2쪽)"

    def test_term_pages_are_paginated_too(self):
        first = self.PAGES["en/cause/gpu-failure.html"]
        second = self.PAGES["en/cause/gpu-failure/2.html"]
        assert isinstance(second, TermPage)
        assert (len(first.incidents), len(second.incidents)) == (20, 3)
        assert second.pagination.urls == (
            "en/cause/gpu-failure.html",
            "en/cause/gpu-failure/2.html",
        )
        assert second.title == "GPU failure (page 2)"

    def test_an_unused_term_has_one_empty_page(self):
        unused = self.PAGES["en/cause/faulty-change.html"]
        assert unused.incidents == ()
        assert (unused.pagination.count, unused.pagination.total_items) == (1, 0)
        assert (unused.pagination.start, unused.pagination.end) == (0, 0)

    def test_page_size_from_the_options(self):
        pages = {p.url: p for p in build_pages(SMALL, SiteOptions(page_size=2))}
        assert [i.id for i in pages["en/index.html"].incidents] == ["c", "b"]
        assert [i.id for i in pages["en/page/2.html"].incidents] == ["a"]
        assert pages["en/page/2.html"].pagination.start == 3


class TestPageLinks:
    """A long list links its first and last pages and two on each side of the current one: a
    library of 500 pages does not put 500 links on every page."""

    @pytest.mark.parametrize(
        ("number", "count", "items"),
        [
            (1, 1, (1,)),
            (1, 7, (1, 2, 3, None, 7)),
            (4, 7, (1, 2, 3, 4, 5, 6, 7)),
            (5, 7, (1, 2, 3, 4, 5, 6, 7)),  # a gap of one page shows it: 1 2 3 4 5 6 7
            (250, 500, (1, None, 248, 249, 250, 251, 252, None, 500)),
            (500, 500, (1, None, 498, 499, 500)),
        ],
    )
    def test_first_last_and_two_around(self, number, count, items):
        assert page_items(number, count) == items

    def test_every_page_is_reachable_and_listed_once(self):
        for count in range(1, 40):
            for number in range(1, count + 1):
                shown = [n for n in page_items(number, count) if n is not None]
                assert shown == sorted(set(shown)) and {1, number, count} <= set(shown)
                assert len(page_items(number, count)) <= 2 * PAGES_AROUND + 5


class TestFacetPages:
    def test_most_used_first(self):
        facet = page("en/component/index.html")
        assert isinstance(facet, FacetPage)
        assert counted_ids(facet.terms) == [
            ("infiniband-fabric", 2),
            ("etcd", 1),
            ("gpu-driver", 1),
        ]
        assert facet.title == "Component" and facet.description == "Components involved."

    def test_ties_by_label_in_the_pages_language(self):
        library = build_library(TAX, [])
        pages = {p.url: p for p in build_pages(library)}
        # Faulty change < GPU failure < Hardware failure; GPU 고장 < 잘못된 변경 < 하드웨어 고장
        assert term_ids(t for t, _ in pages["en/cause/index.html"].terms) == [
            "faulty-change",
            "gpu-failure",
            "hardware-failure",
        ]
        assert term_ids(t for t, _ in pages["ko/cause/index.html"].terms) == [
            "gpu-failure",
            "faulty-change",
            "hardware-failure",
        ]

    def test_unused_terms_are_listed_with_zero(self):
        assert ("hardware-failure", 0) in counted_ids(page("en/cause/index.html").terms)


class TestTermPages:
    def test_term_page(self):
        gpu = page("en/cause/gpu-failure.html")
        assert isinstance(gpu, TermPage)
        assert gpu.term == TAX.term("cause", "gpu-failure")
        assert gpu.facet == TAX.facet("cause")
        assert [i.id for i in gpu.incidents] == ["c", "a"]
        assert (gpu.title, gpu.description) == ("GPU failure", "A GPU failed.")
        assert page("ko/cause/gpu-failure.html").title == "GPU 고장"

    def test_parent_and_children(self):
        gpu = page("en/cause/gpu-failure.html")
        hardware = page("en/cause/hardware-failure.html")
        assert gpu.parent == TAX.term("cause", "hardware-failure")
        assert gpu.children == ()
        assert hardware.parent is None
        assert hardware.children == (TAX.term("cause", "gpu-failure"),)

    def test_cooccurring_by_facet(self):
        gpu = page("en/cause/gpu-failure.html")
        assert [(f.id, counted_ids(c)) for f, c in gpu.cooccurring] == [
            ("symptom", [("training-job-failure", 2)]),
            ("component", [("infiniband-fabric", 2), ("gpu-driver", 1)]),
        ]
        globex = page("en/organization/globex.html")
        assert [f.id for f, _ in globex.cooccurring] == [
            "symptom",
            "cause",
            "component",
            "contributing_factor",
        ]


class TestMatrixPages:
    def test_cells_count_cases_with_both_terms(self):
        matrix = page("en/matrix/cause-x-component.html")
        assert isinstance(matrix, MatrixPage)
        assert dict(matrix.cells) == {  # (row, column): components run down the side
            ("etcd", "faulty-change"): 1,
            ("gpu-driver", "gpu-failure"): 1,
            ("infiniband-fabric", "gpu-failure"): 2,
        }
        with pytest.raises(TypeError):
            matrix.cells[("x", "y")] = 1  # type: ignore[index]

    def test_rows_and_columns_are_used_terms_most_used_first(self):
        # three components used, two causes: the longer list runs down the side, and the page
        # keeps the taxonomy's name for the table
        matrix = page("en/matrix/cause-x-component.html")
        assert term_ids(matrix.rows) == ["infiniband-fabric", "etcd", "gpu-driver"]
        assert term_ids(matrix.cols) == ["gpu-failure", "faulty-change"]
        assert (matrix.row_facet.id, matrix.col_facet.id) == ("component", "cause")
        assert matrix.title == "Cause × Component"
        # as many terms on both sides: the taxonomy's order
        tied = page("en/matrix/symptom-x-cause.html")
        assert len(tied.rows) == len(tied.cols)
        assert (tied.row_facet.id, tied.col_facet.id) == ("symptom", "cause")

    def test_title_and_the_other_matrices(self):
        matrix = page("ko/matrix/symptom-x-cause.html")
        assert matrix.title == "증상 × 원인"
        assert page("en/matrix/symptom-x-cause.html").title == "Symptom × Cause"
        assert [(r.id, c.id, url) for r, c, url in matrix.matrices][:2] == [
            ("cause", "component", "ko/matrix/cause-x-component.html"),
            ("symptom", "cause", "ko/matrix/symptom-x-cause.html"),
        ]
        assert len(matrix.matrices) == 5


class TestHomePage:
    def test_summary_counts_used_terms_most_frequent_first(self):
        home = page("en/index.html")
        summary = {facet.id: counted_ids(counted) for facet, counted in home.summary}
        assert list(summary) == list(TAX.ids)
        assert summary["cause"] == [("gpu-failure", 2), ("faulty-change", 1)]
        assert summary["component"] == [("infiniband-fabric", 2), ("etcd", 1), ("gpu-driver", 1)]
        assert summary["contributing_factor"] == [("missing-safeguard", 1)]
        assert home.summary == facet_summary(SMALL)

    def test_pairs_are_of_different_facets_strongest_first(self):
        pairs = page("en/index.html").pairs
        assert pairs == strongest_pairs(SMALL)
        assert all(p.a.facet != p.b.facet for p in pairs)
        assert [p.count for p in pairs] == sorted((p.count for p in pairs), reverse=True)
        assert (pairs[0].a.id, pairs[0].b.id, pairs[0].count) == (
            "training-job-failure",
            "gpu-failure",
            2,
        )
        assert len(strongest_pairs(SMALL, limit=3)) == 3

    def test_checklist_is_the_top_five_of_the_checklist_facet(self):
        extra = "".join(
            f"      - id: part-{n}\n"
            f"        label: {{ko: 부품 {n}, en: Part {n}}}\n"
            f"        description: {{ko: 부품., en: A part.}}\n"
            for n in range(5)
        )
        text = TAXONOMY.replace(
            "  - id: contributing_factor", extra + "  - id: contributing_factor"
        )
        taxonomy = build_taxonomy(parse_yaml(text, "t.yml"), "t.yml")[0]
        uses = {
            "etcd": 7,
            "part-0": 6,
            "part-1": 5,
            "gpu-driver": 4,
            "part-4": 3,
            "part-2": 2,
            "part-3": 1,
        }
        incidents = [
            make(
                f"case-{n}", taxonomy=taxonomy, component=tuple(c for c, k in uses.items() if k > n)
            )
            for n in range(7)
        ]
        library = build_library(taxonomy, incidents)
        home = next(p for p in build_pages(library) if p.url == "en/index.html")
        assert CHECKLIST_SIZE == 5
        assert term_ids(home.checklist) == ["etcd", "part-0", "part-1", "gpu-driver", "part-4"]

    def test_no_checklist_facet_no_checklist(self):
        component = dataclasses.replace(TAX.facet("component"), checklist=False)
        facets = tuple(component if f.id == "component" else f for f in TAX.facets)
        taxonomy = Taxonomy(facets, TAX.matrices, TAX.graph)
        pages = build_pages(build_library(taxonomy, [make("a", taxonomy=taxonomy)]))
        assert all(p.checklist == () for p in pages if isinstance(p, HomePage | CasePage))


class TestCasePages:
    def test_context_facts_apart_from_descriptive_terms(self):
        case = page("en/cases/a.html")
        assert isinstance(case, CasePage)
        assert [(f.id, term_ids(t)) for f, t in case.facts] == [
            ("domain", ["ai-infra"]),
            ("organization", ["acme"]),
        ]
        assert [(f.id, term_ids(t)) for f, t in case.terms] == [
            ("symptom", ["training-job-failure"]),
            ("cause", ["gpu-failure"]),
            ("component", ["gpu-driver", "infiniband-fabric"]),
            ("contributing_factor", []),
        ]
        assert term_ids(case.checklist) == ["gpu-driver", "infiniband-fabric"]

    def test_text_title_and_fallback(self):
        translated = page("ko/cases/a.html")
        assert (translated.text.lang, translated.fallback, translated.title) == (
            "ko",
            False,
            "a in ko",
        )
        untranslated = page("ko/cases/b.html")
        assert (untranslated.text.lang, untranslated.fallback) == ("en", True)
        assert untranslated.title == "b in en"
        assert untranslated.description == "Summary in en."
        assert not page("en/cases/b.html").fallback

    def test_related(self):
        related = page("en/cases/a.html").related
        assert [r.incident.id for r in related] == ["c"]
        assert related == SMALL.related(SMALL.incident("a"))


class TestCitation:
    def test_text_in_each_language(self):
        incident = SMALL.incident("a")
        en = cite(SMALL, incident, "en", "https://example.org")
        assert en.permalink == "https://example.org/en/cases/a.html"
        assert en.text == (
            'Incident Library contributors. "a in en". Incident Library, 2024. '
            "https://example.org/en/cases/a.html"
        )
        ko = cite(SMALL, incident, "ko", "https://example.org/")
        assert ko.text == (
            'Incident Library 기여자. "a in ko". Incident Library, 2024. '
            "https://example.org/ko/cases/a.html"
        )
        assert page("en/cases/a.html").citation == cite(
            SMALL, incident, "en", "https://example.org/"
        )

    def test_bibtex(self):
        bibtex = cite(SMALL, SMALL.incident("a"), "en", "https://example.org/").bibtex
        assert bibtex == (
            "@misc{incident-library:a,\n"
            "  title = {a in en},\n"
            "  author = {Incident Library contributors},\n"
            "  year = 2024,\n"
            "  howpublished = {\\url{https://example.org/en/cases/a.html}},\n"
            "  note = {Case summary of Acme, Postmortem, 2024-04-02},\n"
            "  keywords = {Acme, a}\n"
            "}"
        )

    def test_bibtex_escapes_special_characters(self):
        title = "50% of A&B's $5 jobs #1 on a_b {x} ~ ^ \\ end"
        library = build_library(TAX, [make("odd", title=title)])
        bibtex = cite(library, library.incident("odd"), "en", "https://example.org/").bibtex
        assert (
            "  title = {50\\% of A\\&B's \\$5 jobs \\#1 on a\\_b \\{x\\} \\textasciitilde{} "
            "\\textasciicircum{} \\textbackslash{} end},\n"
        ) in bibtex
        # the plain text keeps the title as written
        assert title in cite(library, library.incident("odd"), "en", "https://example.org/").text
        body = bibtex.split("\n", 1)[1].rsplit("\n", 1)[0]
        depth = 0
        for n, char in enumerate(body):
            if char in "{}" and (n == 0 or body[n - 1] != "\\"):
                depth += 1 if char == "{" else -1
                assert depth >= 0
        assert depth == 0  # braces still balance
