"""The library page as a reader meets it, in a real Chromium: a shared filtered address shows the
view it asks for first, with nothing moving; the results' heading is never under the header or
the back-to-top button and the keyboard follows each change; the phone's drawer holds the focus
and the closed navigation is out of the way; and the small things (the applied filters' order,
an odd page number, the placeholder, the first result on a phone, the facet counts explained,
no library scripts on case pages). Both languages, 1280 and 390 px, over http and from disk."""

from __future__ import annotations

import re

import pytest

from generator.render.strings import t

WIDTHS = [1280, 390]
LANGS = ["ko", "en"]
PHONE = {"width": 390, "height": 844}


def open_page(pages, url: str, width: int = 1280, **options):
    viewport = PHONE if width < 500 else {"width": width, "height": 900}
    return pages.open(url, viewport=viewport, **options)


def ready(page) -> None:
    page.wait_for_selector("[data-il-library][data-il-ready='true']")


def visibility(page, selector: str) -> str:
    return page.eval_on_selector(selector, "el => getComputedStyle(el).visibility")


LAYOUT_SHIFT = """() => new Promise(done => {
  let total = 0;
  new PerformanceObserver(list => {
    for (const entry of list.getEntries()) if (!entry.hadRecentInput) total += entry.value;
  }).observe({type: 'layout-shift', buffered: true});
  requestAnimationFrame(() => requestAnimationFrame(() => done(total)));
})"""


# ---- A shared filtered address -------------------------------------------------------------


@pytest.mark.parametrize("width", WIDTHS)
@pytest.mark.parametrize("lang", LANGS)
def test_a_shared_filtered_address_shows_its_view_first(pages, base, lang, width):
    """The build writes the unfiltered list; an address with filters must never show it. Over
    http the library's script is held back, so the page is painted as it is before any of its
    scripts ran: the list, its count and the facet counts are hidden behind a loading line and
    the search panel already has its place. Then the filtered view appears whole, and nothing
    on the page has moved (layout shift)."""
    url = base + f"{lang}/index.html?organization=globex"
    context, page, watch = open_page(pages, None, width)
    held = []
    if base.startswith("http"):
        page.route(re.compile(r"/assets/library\.js(\?|$)"), lambda route: held.append(route))
        page.goto(url, wait_until="commit")
        page.wait_for_selector("[data-il-cards] .il-card", state="attached")
        while not held:
            page.wait_for_timeout(20)
        assert page.evaluate("document.documentElement.classList.contains('il-pending')")
        for hidden in ("[data-il-cards]", "[data-il-count]", "[data-il-note]"):
            assert visibility(page, hidden) == "hidden", hidden
        assert visibility(page, ".il-library__facets .il-facet__count") == "hidden"
        loading = page.locator(".il-loading")
        assert loading.is_visible() and loading.inner_text() == t("loading", lang)
        panel_top = page.locator("[data-il-search]").bounding_box()["y"]
        held[0].continue_()
    else:
        page.goto(url)
        panel_top = None
    ready(page)
    assert not page.evaluate("document.documentElement.classList.contains('il-pending')")
    assert page.locator("[data-il-count]").inner_text() == t("cases_count_one", lang, n=1)
    assert page.locator(".il-card").count() == 1 and page.locator(".il-card").is_visible()
    assert not page.locator(".il-loading").is_visible()
    if panel_top is not None:
        assert page.locator("[data-il-search]").bounding_box()["y"] == panel_top
    assert page.evaluate(LAYOUT_SHIFT) < 0.01
    assert watch.errors == []
    context.close()


def test_while_the_search_data_loads_the_filters_show_and_the_list_waits(pages, http):
    context, page, _ = open_page(pages, None)
    held = []
    page.route(re.compile(r"/en/search/index\.js(\?|$)"), lambda route: held.append(route))
    page.goto(http + "en/index.html?organization=globex&q=etcd", wait_until="domcontentloaded")
    while not held:
        page.wait_for_timeout(20)
    chips = page.locator("[data-il-applied] .il-chip--applied")
    assert chips.count() == 2 and chips.first.is_visible()
    assert visibility(page, "[data-il-cards]") == "hidden"
    assert page.locator(".il-loading").is_visible()
    held[0].continue_()
    ready(page)
    assert page.locator(".il-card").first.is_visible()
    context.close()


def test_an_address_of_nothing_the_page_reads_shows_the_list_at_once(pages, http):
    context, page, _ = open_page(pages, http + "en/index.html?utm_source=feed")
    ready(page)
    assert not page.evaluate("document.documentElement.classList.contains('il-pending')")
    assert page.locator(".il-card").first.is_visible()
    context.close()


# ---- The heading in view, the keyboard where the change is -----------------------------------

HEADING_IN_VIEW = """() => {
  const heading = document.querySelector('[data-il-count]').getBoundingClientRect();
  const header = document.querySelector('.md-header').getBoundingClientRect();
  const top = document.querySelector('.md-top');
  const shown = top && !top.classList.contains('md-top--hidden')
    && getComputedStyle(top).visibility !== 'hidden' && Number(getComputedStyle(top).opacity) > 0;
  const card = document.querySelector('.il-cards > .il-card').getBoundingClientRect();
  const button = shown ? top.getBoundingClientRect() : null;
  return {
    belowHeader: heading.top >= header.bottom - 0.5,
    clearOfTopButton: !button || (button.bottom <= heading.top + 0.5 && button.bottom <= card.top),
    onScreen: heading.top < innerHeight,
  };
}"""


def assert_heading_in_view(page) -> None:
    from browser import settle

    settle(page)
    assert page.evaluate(HEADING_IN_VIEW) == {
        "belowHeader": True,
        "clearOfTopButton": True,
        "onScreen": True,
    }


def focused(page, script: str):
    return page.evaluate(f"(() => {{ const el = document.activeElement; return {script}; }})()")


@pytest.mark.parametrize("width", WIDTHS)
@pytest.mark.parametrize("lang", LANGS)
def test_paging_brings_the_heading_into_view_and_the_keyboard_to_it(pages, base, lang, width):
    context, page, _ = open_page(pages, base + f"{lang}/index.html?organization=acme", width)
    ready(page)
    link = page.locator(".il-pagination a[data-page='2']:not([rel])")
    link.scroll_into_view_if_needed()
    link.focus()
    page.keyboard.press("Enter")
    page.wait_for_function("new URLSearchParams(location.search).get('page') === '2'")
    ready(page)
    assert focused(page, "el.hasAttribute('data-il-count')") is True
    assert_heading_in_view(page)
    context.close()


@pytest.mark.parametrize("lang", LANGS)
def test_a_facet_chosen_low_in_the_list_shows_the_heading_below_the_header(pages, base, lang):
    context, page, _ = open_page(pages, base + f"{lang}/index.html")
    page.set_viewport_size({"width": 1280, "height": 600})
    page.mouse.wheel(0, 4000)
    link = page.locator(".il-library__facets a[data-facet='component'][data-term='etcd']")
    link.scroll_into_view_if_needed()
    link.click()
    ready(page)
    assert_heading_in_view(page)
    assert focused(page, "el.dataset.term") == "etcd"
    context.close()


@pytest.mark.parametrize("lang", LANGS)
def test_the_drawers_show_button_lands_on_the_results(pages, base, lang):
    context, page, _ = open_page(pages, base + f"{lang}/index.html", 390)
    page.click(".il-filter-button")
    page.click(".il-library__facets a[data-facet='organization'][data-term='acme']")
    ready(page)
    close = page.locator(".il-drawer__close")
    assert close.inner_text() == t("show_cases", lang, n=22)
    close.click()
    assert focused(page, "el.hasAttribute('data-il-count')") is True
    assert_heading_in_view(page)
    context.close()


@pytest.mark.parametrize("width", WIDTHS)
@pytest.mark.parametrize("lang", LANGS)
def test_a_recommended_filter_takes_the_keyboard_to_the_filter_it_became(pages, base, lang, width):
    context, page, _ = open_page(pages, base + f"{lang}/index.html", width)
    page.fill("[data-il-query]", "etcd")
    suggestion = page.locator(".il-chip--suggested[data-term='etcd']")
    suggestion.wait_for()
    suggestion.focus()
    page.keyboard.press("Enter")
    ready(page)
    assert focused(page, "el.classList.contains('il-chip--applied') && el.dataset.term") == "etcd"
    context.close()


# ---- Phones: the drawer and the tab order -----------------------------------------------------


@pytest.mark.parametrize("lang", LANGS)
def test_the_drawer_holds_the_focus_until_it_closes(pages, base, lang):
    """The drawer is a modal dialog: Tab and Shift+Tab go round inside it, whatever is behind it
    cannot be reached (or paged with Enter), and Escape gives the focus back to its button."""
    context, page, watch = open_page(pages, base + f"{lang}/index.html", 390)
    page.click(".il-filter-button")
    inside = "el.closest('.il-library__facets') !== null"
    for key in ["Tab"] * 45 + ["Shift+Tab"] * 45:
        page.keyboard.press(key)
        assert focused(page, inside) is True, key
    assert page.evaluate(
        "document.querySelector('.il-library__results').closest('[inert]') !== null"
    )
    page.keyboard.press("Escape")
    assert focused(page, "el.classList.contains('il-filter-button')") is True
    assert page.evaluate("document.querySelector('[inert]') === null")
    assert watch.errors == []
    context.close()


@pytest.mark.parametrize("lang", LANGS)
def test_on_a_phone_the_skip_links_come_before_the_closed_navigation(pages, base, lang):
    """Closed, Material's navigation drawer sits off the screen; its links are no tab stops
    there. The page's skip links are among the first few."""
    context, page, _ = open_page(pages, base + f"{lang}/index.html", 390)
    stops = []
    for _ in range(8):
        page.keyboard.press("Tab")
        stops.append(focused(page, "[el.closest('.md-sidebar') !== null, el.textContent.trim()]"))
    assert not any(in_navigation for in_navigation, _ in stops), stops
    texts = [text for _, text in stops]
    assert t("skip_to_results", lang) in texts[:6], texts
    page.click("label.md-header__button[for='__drawer']")  # opened, it is reached again
    page.wait_for_function(
        "getComputedStyle(document.querySelector('.md-sidebar--primary')).visibility === 'visible'"
    )
    page.locator(".md-sidebar--primary a.md-nav__link").first.focus()
    assert focused(page, "el.closest('.md-sidebar--primary') !== null") is True
    context.close()


# ---- The small things ------------------------------------------------------------------------


@pytest.mark.parametrize("lang", LANGS)
def test_applied_filters_read_in_the_reference_order(pages, base, lang):
    """What the cases are about first (symptom, contributing factor), then the organization, as
    the reference page lists them; the address's order does not matter."""
    url = (
        f"{lang}/index.html?organization=acme&contributing_factor=unverified-assumption"
        "&symptom=training-job-failure"
    )
    context, page, _ = open_page(pages, base + url)
    ready(page)
    facets = page.locator("[data-il-applied] .il-chip--applied").evaluate_all(
        "chips => chips.map(c => c.dataset.facet)"
    )
    assert facets == ["symptom", "contributing_factor", "organization"]
    context.close()


@pytest.mark.parametrize("number", ["-3", "0", "x", "1.5"])
def test_a_page_number_that_is_no_page_leaves_the_address(pages, base, number):
    context, page, _ = open_page(pages, base + f"en/index.html?cause=gpu-failure&page={number}")
    ready(page)
    assert page.evaluate("location.search") == "?cause=gpu-failure"
    assert page.locator(".il-card").count() == 11
    context.close()


@pytest.mark.parametrize("lang", LANGS)
def test_the_placeholder_fits_the_search_box_on_a_phone(pages, base, lang):
    context, page, _ = open_page(pages, base + f"{lang}/index.html", 390)
    room, needed = page.eval_on_selector(
        "[data-il-query]",
        """input => {
             const s = getComputedStyle(input);
             const c = document.createElement('canvas').getContext('2d');
             c.font = s.font;
             return [input.clientWidth - parseFloat(s.paddingLeft) - parseFloat(s.paddingRight),
                     c.measureText(input.placeholder).width];
           }""",
    )
    assert needed <= room, (needed, room)
    assert page.locator("[data-il-query]").get_attribute("placeholder") == t(
        "search_placeholder", lang
    )
    context.close()


@pytest.mark.parametrize(
    "query", ["q=gpu", "q=driver&cause=gpu-failure&organization=acme", "organization=globex"]
)
@pytest.mark.parametrize("lang", LANGS)
def test_on_a_phone_the_first_result_is_on_the_first_screen(pages, base, lang, query):
    """A query and two filters above the results: the first card's title is read on the first
    screen of a 390 × 844 phone (it started at 750 px)."""
    context, page, _ = open_page(pages, base + f"{lang}/index.html?{query}", 390)
    ready(page)
    title = page.locator(".il-cards > .il-card .il-card__title").first.bounding_box()
    assert title["y"] + title["height"] <= 0.8 * PHONE["height"], title
    context.close()


@pytest.mark.parametrize("lang", LANGS)
def test_the_facet_counts_say_what_they_count(pages, base, lang):
    context, page, _ = open_page(pages, base + f"{lang}/index.html")
    note = page.locator(".il-library__facets .il-facets__note")
    assert note.is_visible() and note.inner_text() == t("facet_counts_note", lang)
    context.close()


def test_case_pages_load_none_of_the_librarys_scripts(pages, base):
    context, page, watch = open_page(pages, base + "ko/cases/acme-gpu-outage-01.html")
    page.wait_for_load_state("load")
    loaded = [u.rsplit("/", 1)[-1].split("?")[0] for u in watch.requests]
    assert not {"search-core.js", "library.js", "graph.js", "terms.js"} & set(loaded), loaded
    assert "case.js" in loaded
    context.close()
