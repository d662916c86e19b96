"""The reader's experience in a real Chromium: phones, the reference card, the details of the
library page, the frame (palettes, language, feeds, footer, 404) and the root page. Both
languages, 1280 and 390 px, over http and from disk where the behaviour differs."""

from __future__ import annotations

import re

import pytest
from sitebuild import CHECKER, REPOSITORY

from generator.model.incident import SECTION_HEADINGS
from generator.pages.build import FULL_CARDS
from generator.render.strings import t

WIDE, PHONE = {"width": 1280, "height": 900}, {"width": 390, "height": 844}


def open_page(pages, url: str, **options):
    return pages.open(url, **({"viewport": WIDE} | options))


def ready(page) -> None:
    page.wait_for_selector("[data-il-library][data-il-ready='true']")


# ---- Phones -------------------------------------------------------------------------------

WIDE_PAGES = [
    "ko/index.html",
    "en/index.html?cause=gpu-failure",
    "ko/cases/acme-gpu-outage-01.html",
    "en/cases/globex-etcd-outage.html",
    "ko/component/gpu-driver.html",
    "en/cause/index.html",
    "ko/about.html",
    "en/matrix/cause-x-component.html",
    "ko/matrix/cause-x-component.html",
]


@pytest.mark.parametrize("url", WIDE_PAGES)
def test_no_page_is_wider_than_a_phone(pages, http, url):
    context, page, watch = open_page(pages, http + url, viewport=PHONE)
    page.wait_for_load_state("load")
    assert page.evaluate("document.documentElement.scrollWidth") <= PHONE["width"]
    assert watch.errors == []
    context.close()


@pytest.mark.parametrize("lang", ["ko", "en"])
def test_on_a_phone_the_filters_are_one_tap_from_the_top(pages, base, lang):
    context, page, watch = open_page(pages, base + f"{lang}/index.html", viewport=PHONE)
    button = page.locator(".il-filter-button")
    assert button.is_visible()
    assert button.bounding_box()["y"] < PHONE["height"]  # on the first screen
    assert button.inner_text() == t("filters", lang)
    facets = page.locator(".il-library__facets")
    assert facets.bounding_box()["y"] > 2 * PHONE["height"]  # closed: after the results
    button.click()
    close = page.locator(".il-drawer__close")
    assert page.evaluate("document.activeElement.classList.contains('il-drawer__close')")
    box = facets.bounding_box()
    assert (box["y"], box["height"]) == (0, PHONE["height"])  # the drawer covers the screen
    assert facets.get_attribute("role") == "dialog"
    page.click(".il-library__facets a[data-facet='cause'][data-term='gpu-failure']")
    page.wait_for_function(
        "t => document.querySelector('.il-drawer__close').textContent === t",
        arg=t("show_cases", lang, n=11),
    )
    assert button.inner_text() == t("filters_applied", lang, n=1)
    page.keyboard.press("Escape")
    assert not close.is_visible()
    assert page.evaluate("document.activeElement.classList.contains('il-filter-button')")
    assert button.get_attribute("aria-expanded") == "false"
    assert page.locator("[data-il-count]").inner_text() == t("cases_count", lang, n=11)
    assert watch.errors == []
    context.close()


def test_on_a_wide_screen_the_facets_stay_beside_the_results(pages, http):
    context, page, _ = open_page(pages, http + "en/index.html")
    assert not page.locator(".il-filter-button").is_visible()
    page.mouse.wheel(0, 3000)
    page.wait_for_timeout(200)
    box = page.locator(".il-library__facets").bounding_box()
    assert 0 <= box["y"] < 200  # sticky, not scrolled away
    context.close()


# ---- The reference card --------------------------------------------------------------------


@pytest.mark.parametrize("lang", ["ko", "en"])
def test_one_remaining_case_shows_its_labelled_sections(pages, base, lang):
    context, page, watch = open_page(pages, base + f"{lang}/index.html?organization=globex")
    ready(page)
    card = page.locator(".il-card")
    assert card.count() == 1
    headings = card.locator(".il-card__section h4").all_inner_texts()
    sections = SECTION_HEADINGS[lang]
    facets = {
        "ko": ["원인", "구성 요소", "기여 요인"],
        "en": ["Cause", "Component", "Contributing factor"],
    }
    assert headings == [sections["symptoms"], sections["trigger"], *facets[lang]] + [
        sections[k] for k in ("detection", "actions", "follow_ups", "lessons")
    ]
    # its chips are filters like any other, and the links inside work from this page
    chip = card.locator(".il-card__section a.il-chip[data-term='etcd']")
    assert chip.evaluate("a => a.href") == base + f"{lang}/component/etcd.html"
    assert watch.errors == []
    context.close()


def test_many_cases_show_summaries_and_a_few_show_sections(pages, http):
    context, page, _ = open_page(pages, http + "en/index.html?cause=gpu-failure")
    ready(page)
    assert page.locator(".il-card__sections").count() == 0
    assert page.locator(".il-card .il-chips--compact").count() == 11
    page.goto(http + "en/index.html?organization=globex&cause=faulty-change")
    ready(page)
    assert page.locator(".il-card--full").count() == 1 <= FULL_CARDS
    context.close()


def test_a_term_page_with_few_cases_shows_sections_without_javascript(pages, http):
    context, page, _ = open_page(
        pages, http + "en/contributing-factor/missing-safeguard.html", java_script_enabled=False
    )
    assert page.locator(".il-card--full .il-card__section").count() >= 6
    context.close()


@pytest.mark.parametrize("lang", ["ko", "en"])
def test_facet_totals_count_the_values_present_in_the_results(pages, base, lang):
    context, page, _ = open_page(pages, base + f"{lang}/index.html")
    total = page.locator("#facet-organization .il-facet__total")
    assert total.inner_text() == "2"  # Acme and Globex
    page.goto(base + f"{lang}/index.html?organization=globex")
    ready(page)
    assert total.inner_text() == "1"
    assert page.locator("#facet-cause .il-facet__total").inner_text() == "1"
    context.close()


@pytest.mark.parametrize("lang", ["ko", "en"])
def test_the_cluster_block_links_the_checker_and_fits_one_case_or_many(pages, base, lang):
    context, page, _ = open_page(pages, base + f"{lang}/index.html")
    block = page.locator("#check-your-cluster")
    link = block.locator(".il-cluster__checker a")
    assert link.get_attribute("href") == CHECKER[1]
    assert link.inner_text() == t("cluster_checker", lang, name=CHECKER[0])
    lead = block.locator("[data-il-cluster-lead]")
    assert lead.inner_text() == t("cluster_lead", lang)
    page.goto(base + f"{lang}/index.html?organization=globex")
    ready(page)
    assert lead.inner_text() == t("cluster_lead_one", lang)
    assert block.locator(".il-chip").all_inner_texts() == ["etcd"]
    page.goto(base + f"{lang}/cases/globex-etcd-outage.html")
    assert page.locator("#check-your-cluster [data-il-cluster-lead]").inner_text() == t(
        "cluster_lead_one", lang
    )
    context.close()


# ---- Details of the library page -----------------------------------------------------------


def test_english_counts_are_singular_for_one(site):
    for path in site.rglob("*.html"):
        text = path.read_text(encoding="utf-8")
        assert not re.search(r"\b1 (cases|shared terms|terms)\b", text), path


def test_live_results_for_one_case_are_singular(pages, http):
    context, page, _ = open_page(pages, http + "en/index.html?organization=globex")
    ready(page)
    assert page.locator("[data-il-count]").inner_text() == "1 case"
    context.close()


@pytest.mark.parametrize(("lang", "other"), [("ko", "en"), ("en", "ko")])
def test_the_language_switch_keeps_filters_query_and_page(pages, base, lang, other):
    url = f"{lang}/index.html?q=gpu&cause=gpu-failure"
    context, page, watch = open_page(pages, base + url)
    ready(page)
    switch = page.locator(f"[data-il-alternate='{other}']")
    assert switch.get_attribute("href").endswith("?q=gpu&cause=gpu-failure")
    page.click(".il-library__facets a[data-facet='organization'][data-term='acme']")
    ready(page)
    assert "organization=acme" in switch.get_attribute("href")
    page.click(".md-header button.md-header__button[aria-label]:not([for])", strict=False)
    page.evaluate(f"document.querySelector(\"[data-il-alternate='{other}']\").click()")
    page.wait_for_url(f"**/{other}/index.html?*")
    ready(page)
    assert page.locator("[data-il-query]").input_value() == "gpu"
    chips = page.locator(".il-applied .il-chip--applied[data-term]")
    assert sorted(chips.evaluate_all("els => els.map(e => e.dataset.term)")) == [
        "acme",
        "gpu-failure",
    ]
    assert watch.errors == []
    context.close()


def test_a_shared_filtered_link_says_it_is_loading(chromium, http):
    context = chromium.new_context(viewport=WIDE)
    page = context.new_page()
    release = []

    def slow(route):
        release.append(route)

    page.route(re.compile(r"/en/search/index\.js(\?|$)"), slow)
    page.goto(http + "en/index.html?organization=globex", wait_until="domcontentloaded")
    page.wait_for_selector("[data-il-library][data-il-ready='loading']")
    root = page.locator("[data-il-library]")
    assert root.get_attribute("data-il-ready") == "loading"
    assert page.locator("[data-il-range]").inner_text() == t("loading", "en")
    # Dimmed once its 0.2 s transition has run (read during it, the opacity is in between).
    dimmed = "() => getComputedStyle(document.querySelector('[data-il-cards]')).opacity < 0.5"
    page.wait_for_function(dimmed, timeout=2000)
    assert page.locator(".il-library__results").get_attribute("aria-busy") == "true"
    page.wait_for_timeout(100)
    while not release:
        page.wait_for_timeout(50)
    release[0].continue_()
    ready(page)
    assert page.locator(".il-card").count() == 1
    assert page.locator(".il-library__results").get_attribute("aria-busy") is None
    context.close()


@pytest.mark.parametrize("lang", ["ko", "en"])
def test_removing_a_filter_keeps_the_focus_on_the_filters(pages, base, lang):
    url = f"{lang}/index.html?q=gpu&cause=gpu-failure&organization=acme"
    context, page, _ = open_page(pages, base + url)
    ready(page)
    page.locator(".il-chip--applied[data-term='gpu-failure']").click()
    ready(page)
    focused = page.evaluate("document.activeElement.className")
    assert "il-chip--applied" in focused
    page.locator(".il-clear").click()
    ready(page)
    assert page.evaluate("document.activeElement.id") == "il-query"
    context.close()


def test_modifier_clicks_on_pagination_open_a_new_tab(pages, http):
    context, page, _ = open_page(pages, http + "en/index.html?organization=acme")
    ready(page)
    before = page.url
    with context.expect_page() as opened:
        page.locator(".il-pagination a[data-page='2']:not([rel])").click(modifiers=["Control"])
    new = opened.value
    new.wait_for_load_state()
    assert "page=2" in new.url
    assert page.url == before
    new.close()
    page.locator(".il-pagination a[data-page='2']:not([rel])").click()
    page.wait_for_url("**page=2")
    context.close()


@pytest.mark.parametrize("lang", ["ko", "en"])
def test_a_page_past_the_last_shows_the_last(pages, base, lang):
    context, page, _ = open_page(pages, base + f"{lang}/index.html?cause=gpu-failure&page=7")
    ready(page)
    assert page.locator("[data-il-range]").inner_text() == t(
        "range", lang, total=11, start=1, end=11
    )
    assert page.locator(".il-card").count() == 11
    assert "page=" not in page.url
    context.close()


def test_a_filter_chosen_low_in_the_list_brings_the_results_into_view(pages, http):
    context, page, _ = open_page(
        pages, http + "en/index.html", viewport={"width": 1280, "height": 600}
    )
    page.mouse.wheel(0, 4000)
    page.wait_for_timeout(200)
    assert page.locator("[data-il-count]").bounding_box()["y"] < 0
    link = page.locator(".il-library__facets a[data-facet='component'][data-term='etcd']")
    link.scroll_into_view_if_needed()
    link.click()
    ready(page)
    page.wait_for_timeout(200)
    assert page.locator("[data-il-count]").bounding_box()["y"] >= 0
    assert page.evaluate("document.activeElement.dataset.term") == "etcd"
    context.close()


@pytest.mark.parametrize("lang", ["ko", "en"])
def test_skip_links_lead_past_the_cards(pages, base, lang):
    context, page, _ = open_page(pages, base + f"{lang}/index.html")
    for _ in range(40):
        page.keyboard.press("Tab")
        if page.evaluate("document.activeElement.closest('.il-skip') !== null"):
            break
    else:
        pytest.fail("no skip link within 40 tab stops")
    assert page.evaluate("document.activeElement.textContent") == t("skip_to_results", lang)
    page.keyboard.press("Tab")
    assert page.evaluate("document.activeElement.getAttribute('href')") == "#il-facets"
    page.keyboard.press("Enter")
    page.keyboard.press("Tab")
    assert page.evaluate("document.activeElement.closest('.il-library__facets') !== null")
    context.close()


@pytest.mark.parametrize("lang", ["ko", "en"])
def test_without_javascript_a_note_says_filters_are_not_applied(pages, http, lang):
    context, page, _ = open_page(
        pages, http + f"{lang}/index.html?cause=gpu-failure", java_script_enabled=False
    )
    assert page.locator(".il-notice").first.inner_text() == t("noscript", lang)
    context.close()


# ---- The frame -------------------------------------------------------------------------------


def test_the_palette_follows_the_system_and_the_toggle(pages, base):
    context, page, watch = open_page(pages, base + "ko/index.html", color_scheme="dark")
    assert page.locator("body").get_attribute("data-md-color-scheme") == "slate"
    toggle = page.locator("label.md-header__button[for^='__palette']:visible")
    assert toggle.get_attribute("title") == t("palette_to_light", "ko")
    toggle.click()
    page.wait_for_function("document.body.dataset.mdColorScheme === 'default'")
    page.goto(base + "en/cause/index.html")  # the choice is kept
    assert page.locator("body").get_attribute("data-md-color-scheme") == "default"
    assert page.locator("label.md-header__button[for^='__palette']:visible").get_attribute(
        "title"
    ) == t("palette_to_dark", "en")
    assert watch.errors == []
    context.close()


@pytest.mark.parametrize("lang", ["ko", "en"])
def test_feeds_data_and_repository_are_linked_from_every_page(pages, base, lang):
    context, page, watch = open_page(pages, base + f"{lang}/cases/acme-gpu-outage-01.html")
    feed = page.locator("link[rel~='alternate'][type='application/atom+xml']")
    assert feed.evaluate("l => l.href").endswith(f"/{lang}/feed.xml")
    assert feed.get_attribute("title") == t("feed_title", lang)
    api = page.locator("link[rel~='alternate'][type='application/json']")
    assert api.evaluate("l => l.href").endswith("/api/incidents.json")
    footer = page.locator(".il-footer a")
    assert footer.all_inner_texts() == [
        t("feed_link", lang),
        t("api_link", lang),
        t("repository_link", lang),
    ]
    assert footer.nth(2).get_attribute("href") == REPOSITORY
    page.wait_for_timeout(300)
    assert not [u for u in watch.requests if u.endswith("sitemap.xml")]
    assert watch.errors == []
    context.close()


def test_titles_name_the_page_then_the_library_once(site):
    for path in site.rglob("*.html"):
        match = re.search(r"<title>([^<]*)</title>", path.read_text(encoding="utf-8"))
        parts = match.group(1).split(" - ")
        assert len(parts) == len(set(parts)), (path, match.group(1))


def test_the_404_page_speaks_both_languages_and_links_home(pages, base):
    """Over http and opened from disk: a site built without its address gives the 404 page
    links relative to itself (MkDocs writes them from the server's root, none of which a page
    opened from disk finds), so it loads Material's styles and scripts from the site."""
    context, page, watch = open_page(pages, base + "404.html")
    sections = page.locator(".il-not-found")
    assert sections.evaluate_all("s => s.map(e => e.lang)") == ["ko", "en"]
    for n, lang in enumerate(["ko", "en"]):
        assert sections.nth(n).locator("h1").inner_text() == t("not_found_title", lang)
        link = sections.nth(n).locator("a")
        assert link.evaluate("a => a.href") == base + f"{lang}/index.html"
    # Material's stylesheet: its header sticks to the top (static without it) ...
    assert page.eval_on_selector(".md-header", "h => getComputedStyle(h).position") == "sticky"
    # ... and its script: the header's title swaps to the page's as the reader scrolls.
    assert page.evaluate("() => typeof document$ === 'object'")
    assert watch.foreign_requests(base) == [] and watch.errors == []
    context.close()


def test_every_link_of_the_404_page_is_a_file_of_the_site(site):
    """Every href and src of a 404 page built without the site's address names a file under
    the site folder, from the page's own folder (as file:// and a server's root read them)."""
    page = (site / "404.html").read_text(encoding="utf-8")
    links = re.findall(r'(?:href|src)="([^"#?]*)[^"]*"', page)
    local = [link for link in links if link and not re.match(r"^[a-z]+:", link)]
    assert len(local) > 10 and all(not link.startswith("/") for link in local), local
    assert [link for link in local if not (site / link).is_file()] == []


def test_the_root_page_is_small_and_remembers_the_language_chosen(pages, base):
    root = base + "index.html"
    context, page, watch = open_page(pages, root + "?stay", locale="ko-KR")
    assert page.locator("link[rel='stylesheet']").count() == 1  # no theme: its own small page
    assert page.locator("script").count() == 1
    page.goto(base + "ko/index.html")
    page.evaluate("document.querySelector(\"[data-il-alternate='en']\").click()")
    page.wait_for_url("**/en/index.html")
    page.goto(root)
    page.wait_for_url("**/en/index.html")  # not the browser's Korean
    assert watch.errors == []
    context.close()
