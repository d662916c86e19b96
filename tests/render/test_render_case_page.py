"""The case page's contents, permalinks and copy buttons (case.html, case.js), and the MkDocs
adapter's reading of those contents into Material's table of contents (support.set_content):
the contents list names exactly the section headings the page shows, in order, each linking
to its section; every section heading has a permalink beside it labelled in the page's
language; the citation blocks have copy buttons that are hidden until case.js shows them; and
Material gets the same sections, under the page title, as MkDocs' TOC. Incidents are made in
memory; HTML is read with selectolax. The browser side is tests/site/test_site_case_page.py."""

from __future__ import annotations

from types import SimpleNamespace

import pytest
from conftest import TAXONOMY
from selectolax.lexbor import LexborHTMLParser as HTMLParser

from generator.adapters.mkdocs.support import set_content
from generator.load.front_matter import parse_yaml
from generator.load.taxonomy import build_taxonomy
from generator.model.incident import SECTIONS, CaseText, Incident, Section, incident_model
from generator.model.library import build_library
from generator.outputs.assets import asset_files
from generator.pages.build import SiteOptions, build_pages
from generator.render import strings
from generator.render.renderer import Renderer, page_sections

TAX = build_taxonomy(parse_yaml(TAXONOMY, "taxonomy.yml"), "taxonomy.yml")[0]
CHECKER = "https://checker.acme.dev/"
OPTIONS = SiteOptions(
    site_url="https://incidents.acme.dev/",
    check_cluster_url=CHECKER,
    check_cluster_name="Acme checker",
)


def make(incident_id: str, langs=("en", "ko"), title: str | None = None, **values) -> Incident:
    terms = {
        "organization": "acme",
        "domain": ("ai-infra",),
        "symptom": ("training-job-failure",),
        "cause": ("gpu-failure",),
        "component": ("gpu-driver",),
    } | values
    meta = incident_model(TAX).model_validate(
        {
            "id": incident_id,
            "title": f"Title of {incident_id}",
            "summary": "Summary.",
            "lang": langs[0],
            "occurred": "2024-03-01",
            "published": "2024-04-02",
            "sources": [
                {
                    "url": "https://reports.acme.dev/report",
                    "title": "Postmortem",
                    "publisher": "Acme",
                    "date": "2024-04-02",
                }
            ],
            **terms,
        }
    )
    texts = tuple(
        CaseText(
            lang,
            title or f"{incident_id} in {lang}",
            "What happened.",
            tuple(Section(key, f"The {key} in {lang}.", n) for n, key in enumerate(SECTIONS)),
            f"incidents/{incident_id}.md",
        )
        for lang in langs
    )
    return Incident(meta, f"incidents/{incident_id}.md", texts)


LIBRARY = build_library(
    TAX,
    [
        make("a", contributing_factor=("unverified-assumption",)),
        make("b", langs=("en",), title='Globex <b>&</b> "etcd"', organization="globex"),
    ],
)
PAGES = {p.url: p for p in build_pages(LIBRARY, OPTIONS)}
RENDERER = Renderer(LIBRARY, OPTIONS)
CASES = ["en/cases/a.html", "ko/cases/a.html", "en/cases/b.html", "ko/cases/b.html"]
HTML = {url: RENDERER.render(PAGES[url]) for url in CASES}


def parse(url: str) -> HTMLParser:
    return HTMLParser(HTML[url])


def lang_of(url: str) -> str:
    return url.split("/", 1)[0]


def section_headings(tree: HTMLParser) -> list[tuple[str, str]]:
    """(section id, heading text) of every section heading, in page order."""
    out = []
    for h2 in tree.css("h2"):
        section = h2.parent.parent
        assert section.tag == "section", h2.html
        out.append((section.attributes["id"], h2.text()))
    return out


class TestContents:
    @pytest.mark.parametrize("url", CASES)
    def test_the_contents_name_every_section_heading_in_order(self, url):
        tree = parse(url)
        nav = tree.css_first("nav.il-toc")
        assert nav.attributes["aria-label"] == strings.t("contents", lang_of(url))
        entries = [(a.attributes["href"], a.text()) for a in nav.css("a")]
        headings = section_headings(tree)
        assert entries == [(f"#{anchor}", text) for anchor, text in headings]
        assert len(headings) >= 12  # nine parts, the descriptive facets, sources, cite, related

    def test_the_sections_are_the_ones_the_case_has(self):
        en = [text for _, text in section_headings(parse("en/cases/a.html"))]
        assert en[:5] == ["Symptoms", "Trigger", "Cause", "Component", "Contributing factor"]
        assert en[-4:] == [
            strings.t("check_cluster", "en"),
            "Sources",
            "Cite this case",
            "Related cases",
        ]
        ko = [text for _, text in section_headings(parse("ko/cases/a.html"))]
        assert ko[:3] == ["증상", "촉발", "원인"] and ko[-3:] == ["출처", "인용하기", "관련 사례"]
        # b has no contributing factor: no such section, and none in the contents
        assert "Contributing factor" not in parse("en/cases/b.html").css_first(".il-toc").text()

    @pytest.mark.parametrize("url", CASES)
    def test_every_link_lands_on_a_section_of_the_page(self, url):
        tree = parse(url)
        for link in tree.css(".il-toc a"):
            target = tree.css_first(link.attributes["href"])
            assert target is not None and target.tag == "section", link.attributes["href"]

    def test_a_page_in_the_original_language_keeps_its_own_headings(self):
        """b has no Korean text: its text is English, the headings and contents Korean."""
        tree = parse("ko/cases/b.html")
        assert tree.css_first(".il-toc a").text() == "증상"
        assert tree.css_first("h1").attributes["lang"] == "en"

    def test_the_contents_are_text(self):
        toc = parse("en/cases/b.html").css_first(".il-toc")
        assert toc.css("b") == [] and "<b>" not in toc.html


class TestPermalinks:
    @pytest.mark.parametrize("url", CASES)
    def test_every_section_heading_has_a_permalink_beside_it(self, url):
        tree = parse(url)
        lang = lang_of(url)
        for h2 in tree.css("h2"):
            heading = h2.parent
            section = heading.parent
            assert "il-heading" in heading.attributes["class"]
            link = heading.css_first("a.headerlink")
            assert link.attributes["href"] == "#" + section.attributes["id"]
            assert link.attributes["aria-label"] == strings.t("permalink", lang, section=h2.text())
            assert link.text() == "¶"
            # the heading itself holds its text only, and labels its section
            assert h2.css("a") == []
            assert section.attributes["aria-labelledby"] == h2.attributes["id"]

    def test_labels_name_their_section_in_each_language(self):
        en = parse("en/cases/a.html").css_first("#symptoms .headerlink").attributes["aria-label"]
        ko = parse("ko/cases/a.html").css_first("#symptoms .headerlink").attributes["aria-label"]
        assert en == "Permanent link to this section: Symptoms"
        assert ko == "증상 섹션으로 바로 가는 링크"

    def test_ids_are_unique(self):
        for url in CASES:
            ids = [n.attributes["id"] for n in parse(url).css("[id]")]
            assert len(ids) == len(set(ids)), url


class TestCopyButtons:
    @pytest.mark.parametrize("url", CASES)
    def test_each_citation_block_has_a_hidden_copy_button(self, url):
        tree = parse(url)
        lang = lang_of(url)
        buttons = tree.css("#cite button")
        labels = [strings.t("copy_citation", lang), strings.t("copy_bibtex", lang)]
        assert [b.text() for b in buttons] == labels
        for button, block in zip(buttons, ("cite-text", "cite-bibtex"), strict=True):
            attributes = button.attributes
            assert attributes["type"] == "button" and "hidden" in attributes
            assert attributes["data-il-copy"] == block
            assert tree.css_first(f"#{block} > pre > code") is not None
            assert attributes["data-il-copied"] == strings.t("copied", lang)
            assert attributes["data-il-copy-failed"] == strings.t("copy_failed", lang)
            status = button.parent.css_first('[role="status"]')
            assert status is not None and status.text() == ""

    def test_the_copied_blocks_hold_only_the_citation(self):
        tree = parse("en/cases/a.html")
        assert tree.css_first("#cite-text code").text() == (
            'Incident Library contributors. "a in en". Incident Library, 2024. '
            "https://incidents.acme.dev/en/cases/a.html"
        )
        assert tree.css_first("#cite-bibtex code").text().startswith("@misc{incident-library:a,")

    def test_case_js_is_shipped_and_loaded_relatively(self):
        assert "assets/case.js" in asset_files(TAX)
        for url in CASES:
            scripts = [s.attributes.get("src") for s in parse(url).css("script")]
            assert scripts == ["../../assets/case.js"], url

    def test_case_js_is_a_classic_strict_script(self):
        source = asset_files(TAX)["assets/case.js"].decode("utf-8")
        assert '"use strict"' in source
        for modern in ("=>", "const ", "let ", "import ", "export "):
            assert modern not in source, modern


class TestMaterialTableOfContents:
    def page(self, hide=("toc",)) -> SimpleNamespace:
        return SimpleNamespace(
            meta={"title": 'Globex <b>&</b> "etcd"', "hide": list(hide)}, toc=None
        )

    def test_the_sections_become_the_toc_under_the_title(self):
        page = self.page()
        set_content(page, HTML["en/cases/b.html"], page_sections(HTML["en/cases/b.html"]))
        assert page.content == HTML["en/cases/b.html"]
        (root,) = list(page.toc)
        assert (root.id, root.level, root.title) == (
            "case-title",
            1,
            "Globex &lt;b&gt;&amp;&lt;/b&gt; &quot;etcd&quot;",
        )
        tree = parse("en/cases/b.html")
        assert parse("en/cases/b.html").css_first("h1").attributes["id"] == root.id
        assert [(c.url, c.title, c.level) for c in root.children] == [
            (f"#{anchor}", text, 2) for anchor, text in section_headings(tree)
        ]
        assert page.meta["hide"] == []  # Material shows its sidebar

    def test_titles_stay_html_as_mkdocs_expects(self):
        page = self.page()
        html = HTML["ko/cases/a.html"].replace("원인<", "원인 &amp; 결과<")
        set_content(page, html, page_sections(html))
        titles = [c.title for c in next(iter(page.toc)).children]
        assert "원인 &amp; 결과" in titles

    def test_a_page_without_contents_keeps_its_toc_hidden(self):
        page = self.page()
        html = RENDERER.render(PAGES["en/index.html"])
        set_content(page, html, page_sections(html))
        assert page.content == html and page.toc is None and page.meta["hide"] == ["toc"]
