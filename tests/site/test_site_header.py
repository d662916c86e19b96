"""The frame every page shares, in a real Chromium: the header's logo leads to the library in the
page's own language and stays inside the site from disk; the header's search box asks the library
page from every page and gets the library's own answers; the 404 page's navigation speaks both
languages; breadcrumbs, titles and aliases say which language they are in. Both languages, 1280
and 390 px, over http and from disk (file://)."""

from __future__ import annotations

from urllib.parse import parse_qs, urlsplit

import pytest

from generator.render.strings import t

WIDTHS = [1280, 390]
CASE = "acme-gpu-outage-01"
# One page of each kind: a case, a term, a facet, a co-occurrence table, a hand-written page and
# the library itself, in the folders they live in.
KINDS = [
    f"cases/{CASE}.html",
    "component/gpu-driver.html",
    "cause/index.html",
    "matrix/cause-x-component.html",
    "about.html",
    "index.html",
]


def open_page(pages, url: str, width: int, **options):
    return pages.open(
        url, viewport={"width": width, "height": 844 if width < 500 else 900}, **options
    )


@pytest.mark.parametrize("width", WIDTHS)
@pytest.mark.parametrize("lang", ["ko", "en"])
def test_the_logo_leads_to_the_library_in_the_pages_language(pages, base, lang, width):
    """Material's logo led to the root (a folder listing from disk; over http, the root page
    picks the browser's language, which sent a Korean reader with an English browser to the
    English library). Every page's logos, the header's and the drawer's, name the library of
    its own language as a file."""
    home = base + f"{lang}/index.html"
    context, page, watch = open_page(pages, base + f"{lang}/{KINDS[0]}", width, locale="en-US")
    for kind in KINDS:
        page.goto(base + f"{lang}/{kind}")
        hrefs = page.eval_on_selector_all("a.md-logo", "links => links.map(a => a.href)")
        assert hrefs and set(hrefs) == {home}, (kind, hrefs)
    # followed, it opens that page (the drawer's on a phone, where the header shows none)
    page.goto(base + f"{lang}/cases/{CASE}.html")
    if width < 500:
        page.click("label.md-header__button[for='__drawer']")
        page.click(".md-nav--primary a.md-logo")
    else:
        page.click(".md-header a.md-logo")
    page.wait_for_url(home)
    assert page.locator("html").get_attribute("lang") == lang
    assert watch.errors == []
    context.close()


def test_the_404_pages_logo_leads_to_the_root(pages, http):
    context, page, _ = open_page(pages, http + "404.html", 1280)
    assert page.eval_on_selector("a.md-logo", "a => a.href") == http + "index.html"
    context.close()


def results_of(page) -> list[str]:
    page.wait_for_selector("[data-il-library][data-il-ready='true']")
    return page.eval_on_selector_all(
        ".il-cards > .il-card", "cards => cards.map(c => c.dataset.case)"
    )


QUERIES = {"ko": "드라이버 업데이트", "en": "driver update"}


@pytest.mark.parametrize("width", WIDTHS)
@pytest.mark.parametrize("lang", ["ko", "en"])
def test_the_header_search_asks_the_library_from_every_page(pages, base, lang, width):
    """A search box on every page (a case, a term, a table, the about page) sends its query to
    the library page, which answers it with its one engine: the same cases as the library's own
    search box gives."""
    query = QUERIES[lang]
    context, page, watch = open_page(pages, base + f"{lang}/index.html", width)
    page.fill("[data-il-query]", query)
    page.keyboard.press("Enter")
    page.wait_for_function("q => new URLSearchParams(location.search).get('q') === q", arg=query)
    expected = results_of(page)
    assert expected
    for kind in KINDS[:5]:
        page.goto(base + f"{lang}/{kind}")
        box = page.locator("#il-header-query")
        assert box.get_attribute("placeholder") == t("search_label", lang)
        assert page.locator("label[for='il-header-query']").text_content() == t(
            "search_label", lang
        )
        box.click()  # on a phone, an icon that opens over the bar
        assert box.bounding_box()["width"] > width * (0.6 if width < 500 else 0.1)
        page.keyboard.type(query)
        page.keyboard.press("Enter")
        page.wait_for_url(f"**/{lang}/index.html?q=*")
        assert parse_qs(urlsplit(page.url).query)["q"] == [query], kind
        assert page.locator("[data-il-query]").input_value() == query
        assert results_of(page) == expected, kind
    assert watch.errors == []
    assert watch.foreign_requests(base) == []
    context.close()


@pytest.mark.parametrize("lang", ["ko", "en"])
def test_on_the_library_page_the_header_search_runs_in_place(pages, base, lang):
    context, page, _ = open_page(pages, base + f"{lang}/index.html", 1280)
    page.evaluate("window.stayed = true")
    page.fill("#il-header-query", QUERIES[lang])
    page.keyboard.press("Enter")
    page.wait_for_function(
        "q => new URLSearchParams(location.search).get('q') === q", arg=QUERIES[lang]
    )
    results_of(page)
    assert page.evaluate("window.stayed") is True  # no new page
    assert page.locator("[data-il-query]").input_value() == QUERIES[lang]
    assert page.locator("#il-header-query").input_value() == ""
    context.close()


def test_without_javascript_the_header_search_still_leads_to_the_library(pages, base):
    context, page, _ = open_page(
        pages, base + f"en/cases/{CASE}.html", 1280, java_script_enabled=False
    )
    page.fill("#il-header-query", "etcd")
    page.keyboard.press("Enter")
    page.wait_for_url("**/en/index.html?q=etcd")
    assert page.locator(".il-notice").first.inner_text() == t("noscript", "en")
    context.close()


def test_the_404_navigation_speaks_both_languages(pages, http):
    context, page, _ = open_page(pages, http + "404.html", 1280)
    lists = page.locator(".md-nav--primary > ul.md-nav__list")
    assert lists.evaluate_all("ls => ls.map(l => l.lang)") == ["ko", "en"]
    for n, lang in enumerate(["ko", "en"]):
        links = lists.nth(n).locator("a.md-nav__link")
        assert links.first.inner_text().strip() == t("library", lang)
        assert links.first.evaluate("a => a.href") == http + f"{lang}/index.html"
    context.close()


@pytest.mark.parametrize("lang", ["ko", "en"])
def test_labels_titles_and_aliases_say_their_language(pages, http, lang):
    context, page, _ = open_page(pages, http + f"{lang}/index.html", 1280)
    # the library's heading is the page's title, as the navigation names it
    assert page.locator("h1").inner_text() == t("library", lang)
    assert page.title().split(" - ")[0] == t("library", lang)
    for kind in KINDS[:4]:
        page.goto(http + f"{lang}/{kind}")
        label = page.locator(".il-breadcrumb").get_attribute("aria-label")
        assert label == t("breadcrumb", lang), kind
    # each alias in its own language (the fixture's GPU driver has one of each)
    page.goto(http + f"{lang}/component/gpu-driver.html")
    aliases = page.locator(".il-term__facts dd span").evaluate_all(
        "spans => spans.map(s => [s.textContent, s.closest('[lang]').lang])"
    )
    assert sorted(aliases) == [["NVIDIA driver", "en"], ["엔비디아 드라이버", "ko"]]
    context.close()
