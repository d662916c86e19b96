"""Pages -> HTML without MkDocs (generator/render/renderer.py and its templates): every kind of
page renders, case sections come in the reference order with their chips, every link is relative
and lands on a page of the site, case cards are rendered once and linked correctly from any
folder (the `_ROOT` swap), the fallback and "not in the sources" notices, and hostile values are
shown as text. Incidents are made in memory; HTML is read with selectolax."""

from __future__ import annotations

import dataclasses
import posixpath
from urllib.parse import urlsplit

import pytest
from conftest import TAXONOMY
from selectolax.lexbor import LexborHTMLParser as HTMLParser

from generator.load.front_matter import parse_yaml
from generator.load.taxonomy import build_taxonomy
from generator.model.incident import SECTIONS, CaseText, Incident, Section, incident_model
from generator.model.library import build_library
from generator.model.taxonomy import Taxonomy
from generator.outputs.assets import asset_files
from generator.pages.build import SiteOptions, build_pages
from generator.render.renderer import Renderer

TAX = build_taxonomy(parse_yaml(TAXONOMY, "taxonomy.yml"), "taxonomy.yml")[0]
OPTIONS = SiteOptions(
    site_url="https://example.org/",
    check_cluster_name="cluster-check",
    check_cluster_url="https://checker.example.org/",
)


def make(
    incident_id: str,
    occurred: str = "2024-03-01",
    *,
    taxonomy: Taxonomy = TAX,
    langs: tuple[str, ...] = ("en", "ko"),
    title: str | None = None,
    summary: str = "What happened.",
    markdown: dict[str, str] | None = None,
    not_in_sources: tuple[str, ...] = (),
    summary_only: tuple[str, ...] = (),
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
            "title": f"Title of {incident_id}",
            "summary": "Summary.",
            "lang": langs[0],
            "occurred": occurred,
            "published": "2024-04-02",
            "not_in_sources": not_in_sources,
            "summary_only": summary_only,
            "scale": {"gpus": 4088, "hosts": 511},
            "sources": [
                {
                    "url": "https://reports.acme.dev/report",
                    "title": "Postmortem",
                    "publisher": "Acme",
                    "date": "2024-04-02",
                }
            ],
            **values,
        }
    )
    markdown = markdown or {}
    texts = tuple(
        CaseText(
            lang,
            title or f"{incident_id} in {lang}",
            summary,
            tuple(
                Section(key, markdown.get(key, f"The {key} of {incident_id} in {lang}."), n)
                for n, key in enumerate(SECTIONS)
                if key not in not_in_sources
            ),
            f"incidents/{incident_id}.md",
        )
        for lang in langs
    )
    return Incident(meta, f"incidents/{incident_id}.md", texts)


LIBRARY = build_library(
    TAX,
    [
        make(
            "a",
            "2024-01",
            component=("gpu-driver", "infiniband-fabric"),
            contributing_factor=("unverified-assumption",),
        ),
        make(
            "b",
            "2024-02",
            langs=("en",),
            organization="globex",
            symptom=("service-outage",),
            cause=("faulty-change",),
            component=("etcd",),
        ),
        make("c", "2024-03", langs=("ko",), not_in_sources=("detection", "follow_ups")),
    ],
)
PAGES = build_pages(LIBRARY, OPTIONS)
BY_URL = {p.url: p for p in PAGES}
RENDERER = Renderer(LIBRARY, OPTIONS)
HTML = {p.url: RENDERER.render(p) for p in PAGES}


def parse(url: str) -> HTMLParser:
    return HTMLParser(HTML[url])


def texts(tree: HTMLParser, selector: str) -> list[str]:
    return [" ".join(node.text().split()) for node in tree.css(selector)]


def resolve(url: str, link: str) -> str:
    """The site-relative URL a link on the page at `url` leads to."""
    path = urlsplit(link).path
    return posixpath.normpath(posixpath.join(posixpath.dirname(url), path))


def hrefs(tree: HTMLParser, selector: str = "a") -> list[str]:
    return [node.attributes.get("href") for node in tree.css(selector)]


class TestEveryPage:
    def test_every_kind_renders_a_fragment(self):
        kinds = {p.kind for p in PAGES}
        assert kinds == {"RootPage", "HomePage", "CasePage", "FacetPage", "TermPage", "MatrixPage"}
        for url, html in HTML.items():
            assert html.strip(), url
            if BY_URL[url].standalone:  # the root page: a document of its own
                assert html.startswith("<!doctype html>") and html.rstrip().endswith("</html>")
            else:
                assert "<html" not in html and "<body" not in html, url  # the shell's frame

    def test_every_internal_link_is_relative_and_lands_on_a_page(self):
        files = (
            set(BY_URL)
            | set(asset_files(TAX))
            | {f"{lang}/search/{n}.js" for lang in ("ko", "en") for n in ("terms", "graph")}
        )
        checked = 0
        for url, html in HTML.items():
            tree = HTMLParser(html)
            links = hrefs(tree) + [n.attributes.get("src") for n in tree.css("script")]
            for link in links:
                parts = urlsplit(link)
                if parts.scheme:
                    continue
                assert not link.startswith("/"), (url, link)
                target = resolve(url, link) if parts.path else url  # "#id": this page
                assert target in files, (url, link)
                if parts.fragment:
                    assert parse(target).css_first(f"#{parts.fragment}") is not None, (url, link)
                checked += 1
        assert checked > 500

    def test_rendering_is_deterministic(self):
        again = Renderer(LIBRARY, OPTIONS)
        assert {p.url: again.render(p) for p in PAGES} == HTML

    def test_root_links_to_both_libraries(self):
        assert hrefs(parse("index.html")) == ["ko/index.html", "en/index.html"]


class TestCasePage:
    def test_sections_in_reference_order(self):
        headings = texts(parse("en/cases/a.html"), "h2")
        assert headings == [
            "Symptoms",
            "Trigger",
            "Cause",
            "Component",
            "Contributing factor",
            "Detection",
            "Actions",
            "Follow-ups",
            "Lessons",
            "Check whether your cluster has it too",
            "Sources",
            "Cite this case",
            "Related cases",
        ]
        assert texts(parse("ko/cases/a.html"), "article h2")[:3] == ["증상", "촉발", "원인"]

    def test_a_facet_without_terms_has_no_section(self):
        assert "Contributing factor" not in texts(parse("en/cases/b.html"), "h2")

    def test_prose_of_each_section(self):
        tree = parse("en/cases/a.html")
        assert texts(tree, "#trigger .il-prose") == ["The trigger of a in en."]
        assert texts(tree, "#lessons .il-prose") == ["The lessons of a in en."]

    def test_chips_link_to_term_pages_relatively(self):
        tree = parse("en/cases/a.html")
        chips = tree.css("#component .il-chip")
        assert [c.text() for c in chips] == ["GPU driver", "InfiniBand fabric"]
        assert [c.attributes["href"] for c in chips] == [
            "../component/gpu-driver.html",
            "../component/infiniband-fabric.html",
        ]
        assert chips[0].attributes["class"] == "il-chip il-chip--component"
        assert (chips[0].attributes["data-facet"], chips[0].attributes["data-term"]) == (
            "component",
            "gpu-driver",
        )
        # a facet with a case_section has its chips under that section
        assert texts(tree, "#symptoms .il-chip") == ["Training job failure"]
        assert texts(parse("ko/cases/a.html"), "#symptoms .il-chip") == ["학습 작업 실패"]

    def test_facts_byline_first_then_dates_and_scale(self):
        tree = parse("en/cases/a.html")
        assert texts(tree, ".il-case__facts dt") == [
            "Organization",
            "Domain",
            "Occurred",
            "Published",
            "Scale",
        ]
        assert texts(tree, ".il-case__facts dd")[0] == "Acme"
        assert texts(tree, ".il-case__facts dd")[-1] == "4,088 GPUs, 511 hosts"
        assert hrefs(tree, ".il-case__facts a") == [
            "../organization/acme.html",
            "../domain/ai-infra.html",
        ]

    def test_dates_show_their_precision(self):
        """A month is not shown as its first day, and the page says what is not known."""
        published = parse("en/cases/a.html").css(".il-case__facts time")[1]
        assert (published.text(), published.attributes["datetime"]) == (
            "2 April 2024",
            "2024-04-02",
        )
        for url, shown in (
            ("en/cases/c.html", "March 2024 (day not given)"),
            ("ko/cases/c.html", "2024년 3월 (일 미상)"),
        ):
            month = parse(url).css_first(".il-case__facts time")
            assert (month.text(), month.attributes["datetime"]) == (shown, "2024-03")
        card = parse("en/index.html").css_first('[data-case="c"] .il-card__meta time')
        assert card.text() == "March 2024"

    def test_a_case_the_sources_do_not_date_says_so(self):
        """`occurred: unknown` is words, not a `<time>` (it has no date to give machines): the
        case page says the sources give no date, the card says it is unknown."""
        library = build_library(TAX, [make("u", "unknown")])
        renderer = Renderer(library, OPTIONS)
        pages = {p.url: p for p in build_pages(library, OPTIONS)}
        for lang, fact, card_meta in (
            ("en", "Occurred Unknown (the sources give no date)", "Acme · Occurred unknown"),
            ("ko", "발생 미상 (출처에 날짜가 없음)", "애크미 · 발생 미상"),
        ):
            case = HTMLParser(renderer.render(pages[f"{lang}/cases/u.html"]))
            facts = [" ".join(n.text().split()) for n in case.css(".il-case__facts > div")]
            assert fact in facts
            assert [t.attributes["datetime"] for t in case.css(".il-case__facts time")] == [
                "2024-04-02"  # the publication only
            ]
            home = HTMLParser(renderer.render(pages[f"{lang}/index.html"]))
            meta = home.css_first('[data-case="u"] .il-card__meta')
            assert " ".join(meta.text().split()) == card_meta
            assert meta.css("time") == []

    def test_sources_citation_and_related(self):
        tree = parse("en/cases/a.html")
        assert hrefs(tree, "#sources li a") == ["https://reports.acme.dev/report"]
        assert tree.css_first("#sources li a").attributes["rel"] == "noopener noreferrer"
        assert texts(tree, ".il-cite__text") == [
            'Incident Library contributors. "a in en". Incident Library, 2024. '
            "https://example.org/en/cases/a.html"
        ]
        assert hrefs(tree, "#related > ul > li > a") == ["c.html"]
        assert texts(tree, ".il-related__shared") == ["3 shared terms"]

    def test_checklist_names_the_cases_components(self):
        assert texts(parse("en/cases/a.html"), "#check-your-cluster .il-chip") == [
            "GPU driver",
            "InfiniBand fabric",
        ]

    def test_fallback_notice_for_an_untranslated_case(self):
        tree = parse("ko/cases/b.html")
        assert texts(tree, ".il-notice") == [
            "이 사례는 아직 한국어로 번역되지 않아 원문(영어)으로 보여 드립니다."
        ]
        assert tree.css_first("h1").attributes["lang"] == "en"
        assert tree.css_first(".il-case__summary").attributes["lang"] == "en"
        assert all(node.attributes.get("lang") == "en" for node in tree.css(".il-prose"))
        assert texts(parse("en/cases/c.html"), ".il-notice")[0] == (
            "This case has not been translated into English yet; it is shown in the original "
            "(Korean)."
        )

    def test_a_translated_case_has_no_notice_and_no_lang(self):
        tree = parse("ko/cases/a.html")
        assert tree.css(".il-notice") == []
        assert "lang" not in tree.css_first("h1").attributes

    def test_not_in_sources_notice(self):
        tree = parse("ko/cases/c.html")
        assert (
            texts(tree, ".il-notice")[0]
            == "일부만 기록한 사례입니다. 기록하지 않은 항목: 감지, 후속 조치."
        )
        assert texts(tree, "#detection .il-notice--gap") == [
            "이 사례는 이 부분을 기록하지 않았습니다. 아래 출처를 보세요."
        ]
        assert tree.css("#detection .il-prose") == []
        assert tree.css("#follow-ups .il-prose") == []
        assert len(tree.css("#trigger .il-prose")) == 1
        en = parse("en/cases/c.html")
        assert "A partial case: it does not record Detection, Follow-ups." in texts(
            en, ".il-notice"
        )

    def test_summary_only_notices(self):
        """Sections read only through a secondary summary keep their text, with a notice above
        it, on the case page and on a full card, in both languages."""
        library = build_library(TAX, [make("s", summary_only=("trigger", "actions"))])
        renderer = Renderer(library, OPTIONS)
        pages = {p.url: p for p in build_pages(library, OPTIONS)}
        for lang, top, gap in (
            (
                "en",
                "Some parts rest on a secondary summary, not on the source itself: Trigger, "
                "Actions.",
                "Some facts in this part come from a secondary summary of the source, not from the "
                "source itself; see the sources below.",
            ),
            (
                "ko",
                "출처 원문을 읽지 못하고 2차 요약으로만 확인한 항목이 있습니다: 촉발, 조치.",
                "이 부분의 사실 가운데 일부는 출처 원문이 아니라 출처를 요약한 2차 자료에서 "
                "가져왔습니다. 아래 출처를 보세요.",
            ),
        ):
            tree = HTMLParser(renderer.render(pages[f"{lang}/cases/s.html"]))
            assert texts(tree, ".il-notice") == [top, gap, gap]
            assert texts(tree, "#trigger .il-notice--summary") == [gap]
            assert texts(tree, "#trigger .il-prose") == [f"The trigger of s in {lang}."]
            assert tree.css("#detection .il-notice") == []
            card = HTMLParser(renderer.card_sections(library.incident("s"), lang))
            noted = [
                n.attributes["data-section"]
                for n in card.css(".il-card__section")
                if n.css(".il-notice--summary")
            ]
            assert noted == ["trigger", "actions"]


class TestCaseCards:
    def test_cards_link_from_every_folder(self):
        """One card, rendered once with links from the site root; each page swaps in its own
        way back to the root, so the same card works from any folder."""
        for url in (
            "en/index.html",
            "en/cause/gpu-failure.html",
            "en/contributing-factor/unverified-assumption.html",
        ):
            card = parse(url).css_first('.il-card[data-case="a"]')
            assert card is not None, url
            root = posixpath.relpath(".", posixpath.dirname(url)) + "/"
            title = card.css_first(".il-card__title a").attributes["href"]
            assert title == root + "en/cases/a.html"
            assert resolve(url, title) == "en/cases/a.html"
            chips = [resolve(url, c.attributes["href"]) for c in card.css(".il-chip")]
            assert chips == [
                "en/symptom/training-job-failure.html",
                "en/cause/gpu-failure.html",
                "en/component/gpu-driver.html",
                "en/component/infiniband-fabric.html",
                "en/contributing-factor/unverified-assumption.html",
            ]

    def test_cards_from_a_deeper_page(self):
        library = build_library(
            TAX, [make(f"case-{n:02d}", f"2023-01-{n + 1:02d}") for n in range(21)]
        )
        pages = {p.url: p for p in build_pages(library, OPTIONS)}
        renderer = Renderer(library, OPTIONS)
        deep = "en/cause/gpu-failure/2.html"
        second = HTMLParser(renderer.render(pages[deep]))
        assert hrefs(second, ".il-card__title a") == ["../../../en/cases/case-00.html"]
        assert (
            resolve(deep, hrefs(second, ".il-card .il-chip")[0])
            == "en/symptom/training-job-failure.html"
        )
        home = HTMLParser(renderer.render(pages["en/page/2.html"]))
        assert hrefs(home, ".il-card__title a") == ["../../en/cases/case-00.html"]
        first = renderer.render(pages["en/index.html"])
        assert "\x00" not in first  # the placeholder for the way back to the root is gone

    def test_each_card_is_rendered_once_per_language(self, monkeypatch):
        renderer = Renderer(LIBRARY, OPTIONS)
        made: list[tuple[str, str, bool]] = []
        card = renderer._card

        def counting(incident, lang, link, full=False):
            made.append((incident.id, lang, full))
            return card(incident, lang, link, full)

        monkeypatch.setattr(renderer, "_card", counting)
        for page in PAGES:
            renderer.render(page)
        # once per language and form (the summary card, and the full card of short lists)
        assert len(made) == len(set(made))
        assert {(i, lang) for i, lang, _ in made} == {
            (i.id, lang) for i in LIBRARY.incidents for lang in ("ko", "en")
        }

    def test_card_content(self):
        card = parse("ko/index.html").css_first('.il-card[data-case="b"]')
        assert card.css_first(".il-card__title a").attributes["lang"] == "en"  # untranslated
        assert (
            " ".join(card.css_first(".il-card__meta").text().split())
            == "글로벡스 · 발생 2024년 2월"
        )
        assert [c.text() for c in card.css(".il-chip")] == ["서비스 중단", "잘못된 변경", "etcd"]
        assert (
            "lang" not in parse("ko/index.html").css_first('.il-card[data-case="a"] a').attributes
        )


class TestListPages:
    def test_home_page(self):
        tree = parse("en/index.html")
        assert texts(tree, "[data-il-count]") == ["3 cases"]
        assert texts(tree, "[data-il-range]") == ["1–3 of 3"]
        assert [c.attributes["data-case"] for c in tree.css(".il-card")] == ["c", "b", "a"]
        assert texts(tree, ".il-graph__legend li") == [
            "Cause",
            "Component",
            "Symptom",
            "Contributing factor",
            "Case",
        ]
        graph = tree.css_first("[data-il-graph]").attributes["data-il-graph-src"]
        assert resolve("en/index.html", graph) == "en/search/graph.js"
        assert texts(tree, "#check-your-cluster .il-chip")[0] == "GPU driver"
        assert tree.css(".il-pagination") == []
        assert hrefs(tree, "#facet-cause a")[0] == "cause/index.html"

    def test_facet_page(self):
        tree = parse("en/cause/index.html")
        rows = tree.css("tbody tr")
        assert [r.attributes["data-term"] for r in rows] == [
            "gpu-failure",
            "faulty-change",
            "hardware-failure",
        ]
        assert [r.css_first(".il-num").text() for r in rows] == ["2", "1", "0"]
        assert texts(tree, "tbody .il-parent") == ["Broader term: Hardware failure"]

    def test_term_page(self):
        tree = parse("en/cause/gpu-failure.html")
        assert texts(tree, "h1") == ["GPU failure"]
        assert hrefs(tree, ".il-breadcrumb a") == ["../index.html", "index.html"]
        assert texts(tree, ".il-term__facts dt") == ["Broader term"]
        assert hrefs(tree, ".il-term__facts a") == ["hardware-failure.html"]
        assert tree.css_first("[data-il-scope]").attributes["data-il-scope"] == "cause:gpu-failure"
        assert texts(tree, '[aria-labelledby="co-component"] .il-chip') == [
            "GPU driver 2",
            "InfiniBand fabric 1",
        ]
        narrower = parse("en/cause/hardware-failure.html")
        assert texts(narrower, ".il-term__facts dt") == ["Narrower terms"]
        assert texts(narrower, "p")[-1] == "No cases use this term yet."

    def test_aliases_on_a_term_page(self):
        tree = parse("ko/component/infiniband-fabric.html")
        assert texts(tree, ".il-term__facts dd")[0] == "인피니밴드, IB"

    def test_pagination_links(self):
        library = build_library(
            TAX, [make(f"case-{n:02d}", f"2023-01-{n + 1:02d}") for n in range(23)]
        )
        pages = {p.url: p for p in build_pages(library, OPTIONS)}
        renderer = Renderer(library, OPTIONS)
        second = HTMLParser(renderer.render(pages["en/page/2.html"]))
        assert hrefs(second, ".il-pagination a") == ["../index.html", "../index.html", "2.html"]
        assert second.css_first('.il-pagination [aria-current="page"]').text() == "2"
        assert texts(second, "[data-il-range]") == ["21–23 of 23"]

    def test_a_long_list_links_its_ends_and_the_pages_around(self):
        library = build_library(
            TAX, [make(f"case-{n:02d}", f"2023-01-{n + 1:02d}") for n in range(23)]
        )
        options = dataclasses.replace(OPTIONS, page_size=2)  # 12 pages
        pages = {p.url: p for p in build_pages(library, options)}
        sixth = HTMLParser(Renderer(library, options).render(pages["en/page/6.html"]))
        numbers = [li.text() for li in sixth.css(".il-pagination li")]
        assert numbers == ["Previous", "1", "…", "4", "5", "6", "7", "8", "…", "12", "Next"]
        assert hrefs(sixth, ".il-pagination a")[1:-1] == [
            "../index.html",
            "4.html",
            "5.html",
            "6.html",
            "7.html",
            "8.html",
            "12.html",
        ]
        gap = sixth.css_first(".il-pagination__gap")
        assert gap.attributes["aria-hidden"] == "true"

    def test_matrix_page(self):
        tree = parse("en/matrix/cause-x-component.html")
        # three components down the side (the longer list), two causes across
        assert texts(tree, "thead th") == ["GPU failure", "Faulty change"]
        assert texts(tree, "tbody th") == ["GPU driver", "etcd", "InfiniBand fabric"]
        # an empty cell holds a "0" that only screen readers get (library.css il-matrix__zero)
        assert [c.text() for c in tree.css("tbody td")] == ["2", "0", "0", "1", "1", "0"]
        hit = tree.css_first(".il-matrix__hit a")
        assert hit.attributes["href"] == "../index.html?cause=gpu-failure&component=gpu-driver"
        assert hit.attributes["aria-label"] == "GPU driver and GPU failure: 2 cases"
        current = tree.css_first('.il-matrix__others [aria-current="page"]')
        assert current.attributes["href"] == "cause-x-component.html"
        assert len(tree.css(".il-matrix__others a")) == 5

    def test_one_case_is_counted_in_the_singular(self):
        assert texts(
            parse("en/contributing-factor/unverified-assumption.html"), "[data-il-count]"
        ) == ["1 case"]


class TestHostileValues:
    TITLE = 'Tom & "Jerry" <img src=x onerror=alert(1)>'
    SUMMARY = '"><script>alert(2)</script>'

    def render_case(self, taxonomy: Taxonomy = TAX, **values) -> tuple[HTMLParser, str]:
        incident = make(
            "hostile",
            taxonomy=taxonomy,
            title=self.TITLE,
            summary=self.SUMMARY,
            markdown={"trigger": "<script>alert(3)</script> [x](javascript:alert(4))"},
            **values,
        )
        library = build_library(taxonomy, [incident])
        renderer = Renderer(library, OPTIONS)
        pages = {p.url: p for p in build_pages(library, OPTIONS)}
        html = renderer.render(pages["en/cases/hostile.html"]) + renderer.render(
            pages["en/index.html"]
        )
        return HTMLParser(html), html

    def test_titles_and_summaries_are_text(self):
        tree, html = self.render_case()
        assert tree.css("img") == []
        assert [s.attributes.get("src") for s in tree.css("script")] == [
            "../../assets/case.js",
            "../en/search/terms.js",
            "../assets/search-core.js",
            "../assets/library.js",
            "../assets/graph.js",
        ]
        assert texts(tree, "article h1") == [self.TITLE]
        assert texts(tree, ".il-card__title") == [self.TITLE]
        assert texts(tree, ".il-case__summary") == [self.SUMMARY]
        assert "<img" not in html and "<script>alert" not in html

    def test_prose_cannot_carry_markup_or_script_links(self):
        tree, html = self.render_case()
        prose = tree.css_first("#trigger .il-prose")
        assert prose.css("script") == []
        assert "<script>alert(3)</script>" in prose.text()
        assert "javascript:" not in html

    def test_term_labels_are_escaped(self):
        label = '<b onclick="x()">GPU</b> & co'
        cause = TAX.facet("cause")
        hostile = dataclasses.replace(cause.terms[1], label_en=label)  # gpu-failure
        terms = (cause.terms[0], hostile, cause.terms[2])
        facets = tuple(
            dataclasses.replace(f, terms=terms) if f.id == "cause" else f for f in TAX.facets
        )
        tree, html = self.render_case(taxonomy=Taxonomy(facets, TAX.matrices, TAX.graph))
        assert tree.css("b") == []
        assert tree.css("[onclick]") == []
        assert label in texts(tree, ".il-chip--cause")
        assert "&lt;b onclick=" in html


class TestFullCards:
    """A full card (Renderer._sections) and the case page (case.html) lay out the same case:
    written twice, once in Python for the lists and once in the template, they must agree."""

    @pytest.mark.parametrize("lang", ["ko", "en"])
    def test_a_full_card_has_the_case_pages_sections_in_its_order(self, lang):
        for incident in LIBRARY.incidents:
            case = parse(f"{lang}/cases/{incident.id}.html")
            on_page = [" ".join(h.text().split()) for h in case.css("article .il-section h2")]
            card = HTMLParser(RENDERER.card_sections(incident, lang))
            in_card = [" ".join(h.text().split()) for h in card.css(".il-card__section h4")]
            assert in_card == on_page, incident.id
