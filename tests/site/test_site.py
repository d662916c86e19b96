"""The built site, page by page, in both languages (the MkDocs plugin and every template)."""

from __future__ import annotations

import posixpath
import re
from pathlib import Path
from urllib.parse import unquote

import pytest
from selectolax.lexbor import LexborHTMLParser as HTMLParser
from sitebuild import FIXTURE_CASES

CASE = "acme-gpu-outage-01"


def page(site: Path, url: str) -> HTMLParser:
    return HTMLParser((site / url).read_text(encoding="utf-8"))


def texts(tree: HTMLParser, selector: str) -> list[str]:
    """Each node's text as a reader sees it: runs of white space as one space, none at the ends
    (not `strip=True`, which also drops the spaces between inline elements)."""
    return [" ".join(n.text(strip=False).split()) for n in tree.css(selector)]


def resolve(from_url: str, href: str) -> str:
    return posixpath.normpath(posixpath.join(posixpath.dirname(from_url), unquote(href)))


@pytest.mark.parametrize("lang", ["ko", "en"])
def test_html_lang_matches_every_page_of_a_language(site, lang):
    for path in sorted((site / lang).rglob("*.html")):
        tree = HTMLParser(path.read_text(encoding="utf-8"))
        assert tree.css_first("html").attributes["lang"] == lang, path


def test_root_leads_to_both_languages(site):
    tree = page(site, "index.html")
    links = {
        a.attributes["hreflang"]: a.attributes["href"]
        for a in tree.css("[data-il-language-choice] a")
    }
    assert links == {"ko": "ko/index.html", "en": "en/index.html"}
    assert tree.css_first('script[src$="assets/language.js"]') is not None


class TestHome:
    def test_korean_home_lists_newest_first_with_result_line(self, site):
        tree = page(site, "ko/index.html")
        assert texts(tree, "h1") == ["전체 사례"]  # as its title and the navigation name it
        assert texts(tree, "[data-il-note]") == [
            "검색어 없이 필터만 적용한 목록입니다. 최근 사례부터입니다."
        ]
        assert texts(tree, "[data-il-count]") == [f"사례 {FIXTURE_CASES}건"]
        assert texts(tree, "[data-il-range]") == [f"{FIXTURE_CASES}건 중 1~20번째"]
        cards = tree.css(".il-card")
        assert len(cards) == 20
        assert cards[0].attributes["data-case"] == "globex-etcd-outage"  # 2024-06-01, the newest

    def test_english_home_and_second_page(self, site):
        tree = page(site, "en/index.html")
        assert texts(tree, "[data-il-count]") == [f"{FIXTURE_CASES} cases"]
        assert texts(tree, "[data-il-range]") == [f"1–20 of {FIXTURE_CASES}"]
        nav = tree.css_first(".il-pagination")
        assert [a.attributes["href"] for a in nav.css("a")] == [
            "index.html",
            "page/2.html",
            "page/2.html",
        ]
        second = page(site, "en/page/2.html")
        assert texts(second, "[data-il-range]") == [f"21–{FIXTURE_CASES} of {FIXTURE_CASES}"]
        assert len(second.css(".il-card")) == FIXTURE_CASES - 20
        assert second.css_first('.il-pagination a[aria-current="page"]').text() == "2"

    def test_facet_counts_link_to_term_pages(self, site):
        tree = page(site, "ko/index.html")
        cause = tree.css_first('.il-facet[data-facet="cause"]')
        assert cause.css_first("h2 a").text(strip=True) == "원인별"
        rows = {
            a.css_first(".il-facet__label").text(): a.css_first(".il-facet__count").text()
            for a in cause.css("li a")
        }
        assert rows == {"잘못된 변경": "12", "GPU 고장": "11"}
        assert cause.css_first("li a").attributes["href"] == "cause/faulty-change.html"


class TestCasePage:
    def test_sections_in_the_reference_order(self, site):
        tree = page(site, f"ko/cases/{CASE}.html")
        article = tree.css_first("article.il-case")
        assert [h.text(strip=True) for h in article.css("h2")] == [
            "증상",
            "촉발",
            "원인",
            "구성 요소",
            "기여 요인",
            "감지",
            "조치",
            "후속 조치",
            "교훈",
        ]
        assert article.css_first("h1").text() == "애크미: GPU 이탈"

    def test_english_sections_and_facts(self, site):
        tree = page(site, f"en/cases/{CASE}.html")
        article = tree.css_first("article.il-case")
        assert [h.text(strip=True) for h in article.css("h2")][:3] == [
            "Symptoms",
            "Trigger",
            "Cause",
        ]
        facts = dict(
            zip(texts(tree, ".il-case__facts dt"), texts(tree, ".il-case__facts dd"), strict=True)
        )
        assert facts["Organization"] == "Acme"
        assert facts["Occurred"] == "1 February 2023"
        assert facts["Scale"] == "4,088 GPUs, 511 hosts"
        assert article.css_first("#actions li").text() == "Drained the hosts."

    def test_chips_link_to_term_pages(self, site):
        tree = page(site, f"ko/cases/{CASE}.html")
        chips = {a.text(): a.attributes["href"] for a in tree.css("#component .il-chip")}
        assert chips == {
            "GPU 드라이버": "../component/gpu-driver.html",
            "InfiniBand 패브릭": "../component/infiniband-fabric.html",
        }

    def test_sources_cluster_block_and_related(self, site):
        tree = page(site, f"en/cases/{CASE}.html")
        source = tree.css_first("#sources li")
        assert source.css_first("a").attributes["href"] == "https://reports.acme.dev/acme/1"
        assert source.text(strip=True) == "Postmortem— Acme,2 April 2024"
        cluster = tree.css_first("#check-your-cluster")
        assert cluster.css_first("h2").text() == "Check whether your cluster has it too"
        assert texts(cluster, ".il-chip") == ["GPU driver", "InfiniBand fabric"]
        related = tree.css("#related > ul > li")
        assert len(related) == 5
        assert "5 shared terms" in related[0].text()

    def test_language_switch_lands_on_the_same_case(self, site):
        tree = page(site, f"ko/cases/{CASE}.html")
        switch = {
            a.attributes["hreflang"]: a.attributes["href"] for a in tree.css("[data-il-alternate]")
        }
        assert switch == {"ko": f"{CASE}.html", "en": f"../../en/cases/{CASE}.html"}

    def test_untranslated_case_falls_back_with_a_notice(self, site):
        tree = page(site, "ko/cases/globex-etcd-outage.html")
        assert texts(tree, ".il-notice") == [
            "이 사례는 아직 한국어로 번역되지 않아 원문(영어)으로 보여 드립니다."
        ]
        assert tree.css_first("article h1").attributes["lang"] == "en"
        assert tree.css_first("article h2").text() == "증상"  # the frame stays in Korean
        english = page(site, "en/cases/globex-etcd-outage.html")
        assert english.css(".il-notice") == []


class TestFacetAndTermPages:
    def test_facet_page_lists_every_term_with_counts(self, site):
        tree = page(site, "en/cause/index.html")
        assert texts(tree, "h1") == ["Cause"]
        rows = [
            (r.css_first("th a").text(), r.css_first(".il-num").text())
            for r in tree.css("tbody tr")
        ]
        assert rows == [("Faulty change", "12"), ("GPU failure", "11"), ("Hardware failure", "0")]
        assert (
            "Broader term: Hardware failure"
            in tree.css_first('tr[data-term="gpu-failure"] th').text()
        )

    def test_term_page_paginates_and_shows_cooccurring_terms(self, site):
        tree = page(site, "ko/organization/acme.html")
        assert texts(tree, "[data-il-count]") == ["사례 22건"]
        assert texts(tree, "[data-il-range]") == ["22건 중 1~20번째"]
        assert len(tree.css(".il-card")) == 20
        second = page(site, "ko/organization/acme/2.html")
        assert texts(second, "[data-il-range]") == ["22건 중 21~22번째"]
        headings = texts(tree, ".il-library__facets h3")
        assert headings == ["증상", "원인", "구성 요소", "기여 요인"]
        top_cause = tree.css(".il-library__facets section")[1].css_first(".il-chip")
        assert top_cause.text(strip=True) == "잘못된 변경11"

    def test_empty_term_says_so(self, site):
        tree = page(site, "en/cause/hardware-failure.html")
        assert "No cases use this term yet." in tree.body.text()
        assert texts(tree, ".il-term__facts dd") == ["GPU failure"]


def test_navigation_shows_only_the_page_language(site):
    tree = page(site, "en/index.html")
    labels = texts(tree, ".md-nav--primary .md-nav__link")
    assert "All cases" in labels and "About" in labels
    assert "전체 사례" not in labels
    assert tree.css_first('a[href*="cases/globex-etcd-outage"]') is not None  # a card
    assert not any("cases/" in (a.attributes.get("href") or "") for a in tree.css(".md-nav a"))


def test_material_interface_text_follows_the_page_language(site):
    ko = page(site, "ko/index.html").css_first("header nav").attributes["aria-label"]
    en = page(site, "en/index.html").css_first("header nav").attributes["aria-label"]
    assert (ko, en) == ("상단/헤더", "Header")


def test_every_internal_link_and_anchor_resolves(site):
    from generator.adapters.link_check import broken_links

    assert broken_links(site) == []


def test_link_checker_finds_broken_links_and_anchors(tmp_path):
    from generator.adapters.link_check import broken_links

    (tmp_path / "ko").mkdir()
    (tmp_path / "ko" / "a.html").write_text(
        '<a href="b.html#there">ok</a><a href="b.html#nowhere">anchor</a>'
        '<a href="missing.html">file</a><a href="https://reports.acme.dev/x">external</a>'
        '<a href="#__drawer">toggle</a><img src="../../outside.png">',
        encoding="utf-8",
    )
    (tmp_path / "ko" / "b.html").write_text('<h2 id="there">x</h2>', encoding="utf-8")
    assert broken_links(tmp_path) == [
        "ko/a.html: ../../outside.png",
        "ko/a.html: b.html#nowhere",
        "ko/a.html: missing.html",
    ]


def test_no_request_leaves_the_site(site):
    offenders = []
    for path in site.rglob("*.html"):
        tree = HTMLParser(path.read_text(encoding="utf-8"))
        for node in tree.css("script[src], link[href], img[src], iframe[src], source[src]"):
            ref = node.attributes.get("src") or node.attributes.get("href") or ""
            rel = node.attributes.get("rel") or ""
            if re.match(r"^(https?:)?//", ref) and rel not in ("canonical", "alternate"):
                offenders.append(f"{path.name}: {ref}")
    assert offenders == []
    css = "\n".join(p.read_text(encoding="utf-8") for p in site.rglob("*.css"))
    assert "fonts.googleapis" not in css and "fonts.gstatic" not in css


def test_case_pages_stay_small(site):
    sizes = [p.stat().st_size for p in (site / "ko" / "cases").glob("*.html")]
    assert max(sizes) < 40_000


def test_cooccurrence_matrix_links_cells_to_the_filtered_view(site):
    tree = page(site, "en/matrix/cause-x-component.html")
    assert texts(tree, "h1") == ["Co-occurrence: Cause × Component"]
    # three components run down the side, two causes across (the longer list down)
    rows = texts(tree, "tbody th")
    assert rows == ["GPU driver", "InfiniBand fabric", "etcd"]
    cell = tree.css_first('tbody tr:nth-child(1) td a[href*="cause=gpu-failure"]')
    assert cell.attributes["href"] == "../index.html?cause=gpu-failure&component=gpu-driver"
    assert cell.text() == "7"  # odd-numbered Acme cases with n % 3 != 0: 1, 5, 7, 11, 13, 17, 19


def test_home_shows_strongest_pairs_and_top_components(site):
    tree = page(site, "ko/index.html")
    first = tree.css_first("[data-il-pairs] tbody tr")
    assert [a.text() for a in first.css("a")] + [first.css_first(".il-num").text()] == [
        "학습 작업 실패",
        "미검증 가정",
        "22",
    ]
    assert texts(tree, "[data-il-top-components] .il-chip") == [
        "GPU 드라이버",
        "InfiniBand 패브릭",
        "etcd",
    ]


def test_json_exports_validate_against_their_schemas(site):
    import json

    import jsonschema

    for name in ("incidents", "taxonomy"):
        data = json.loads((site / "api" / f"{name}.json").read_text(encoding="utf-8"))
        schema = json.loads((site / "api" / f"{name}.schema.json").read_text(encoding="utf-8"))
        jsonschema.validate(data, schema)
    incidents = json.loads((site / "api" / "incidents.json").read_text(encoding="utf-8"))
    assert incidents["count"] == FIXTURE_CASES
    first = incidents["incidents"][0]
    assert first["id"] == "globex-etcd-outage"
    assert set(first["texts"]) == {"en"}  # not translated yet
    assert first["pages"] == {
        "ko": "ko/cases/globex-etcd-outage.html",
        "en": "en/cases/globex-etcd-outage.html",
    }
    assert first["terms"]["component"] == [
        {"facet": "component", "id": "etcd", "label": {"ko": "etcd", "en": "etcd"}}
    ]
    assert first["sources"][0]["url"] == "https://reports.acme.dev/globex"
    front_matter = json.loads(
        (site / "api" / "incident-front-matter.schema.json").read_text(encoding="utf-8")
    )
    assert "gpu-failure" in front_matter["properties"]["cause"]["items"]["enum"]


@pytest.mark.parametrize("lang", ["ko", "en"])
def test_atom_feed_parses(site, lang):
    import xml.etree.ElementTree as ET

    atom = "{http://www.w3.org/2005/Atom}"
    feed = ET.parse(site / lang / "feed.xml").getroot()
    assert feed.tag == f"{atom}feed"
    for required in ("id", "title", "updated"):
        assert feed.find(f"{atom}{required}") is not None
    entries = feed.findall(f"{atom}entry")
    assert len(entries) == 20
    first = entries[0]
    # relative to the feed (built without SITE_URL): it is <lang>/feed.xml
    assert first.find(f"{atom}link").attrib["href"] == "cases/globex-etcd-outage.html"
    assert re.match(r"^\d{4}-\d\d-\d\dT00:00:00Z$", first.find(f"{atom}updated").text)
    assert {c.attrib["term"] for c in first.findall(f"{atom}category")} >= {"component:etcd"}


def test_a_site_built_without_its_address_pretends_to_know_none(site):
    """The fixture site is built without SITE_URL, as every local build is: no page, feed or
    file names an address the build cannot know (the sitemap takes absolute addresses only,
    so there is none; tests/adapters/test_adapters_mkdocs.py builds one with SITE_URL)."""
    import xml.etree.ElementTree as ET

    assert not (site / "sitemap.xml").exists() and not (site / "sitemap.xml.gz").exists()
    for path in [*site.rglob("*.html"), *site.rglob("*.xml"), *site.rglob("*.txt")]:
        text = path.read_text(encoding="utf-8")
        assert "127.0.0.1" not in text, path
        assert 'rel="canonical"' not in text, path
    atom = "{http://www.w3.org/2005/Atom}"
    feed = ET.parse(site / "ko" / "feed.xml").getroot()
    ids = [e.text for e in feed.iter(f"{atom}id")]
    assert all(re.fullmatch(r"urn:uuid:[0-9a-f-]{36}", i) for i in ids) and len(set(ids)) == 21
    link = feed.find(f"{atom}entry/{atom}link").attrib["href"]
    assert link == "cases/globex-etcd-outage.html"  # from ko/feed.xml, as a reader resolves it
    assert (site / "ko" / link).is_file()
    llms = (site / "llms.txt").read_text(encoding="utf-8")
    assert "](ko/cases/globex-etcd-outage.md)" in llms


@pytest.mark.parametrize("lang", ["ko", "en"])
def test_without_its_address_a_case_cites_its_path(site, lang):
    """No permalink where the address is unknown: the citation block gives the page's path
    within the site (a link that works where the copy is), says why, and the citation text and
    BibTeX carry no address."""
    from generator.render.strings import t

    tree = page(site, f"{lang}/cases/{CASE}.html")
    line = tree.css_first("#cite p")
    assert line.text() == f"{t('cite_path', lang)}: {lang}/cases/{CASE}.html"
    assert line.css_first("a").attributes["href"] == f"{CASE}.html"
    assert tree.css_first(".il-cite__note").text() == t("cite_no_permalink", lang)
    bibtex = tree.css_first(".il-cite__bibtex").text()
    assert bibtex.startswith(f"@misc{{incident-library:{CASE},")
    assert "howpublished" not in bibtex and "http" not in tree.css_first(".il-cite__text").text()
    markdown = (site / lang / "cases" / f"{CASE}.md").read_text(encoding="utf-8")
    assert f"- **{t('cite_path', lang)}**: {lang}/cases/{CASE}.html" in markdown
