"""The built site in a real Chromium, over http and opened from disk, in both languages."""

from __future__ import annotations

import pytest
from browser import serious_violations

CASE = "acme-gpu-outage-01"


def open_page(pages, url: str, **context_options):
    return pages.open(url, **context_options)


@pytest.mark.parametrize(("locale", "lang"), [("ko-KR", "ko"), ("en-US", "en"), ("de-DE", "ko")])
def test_root_sends_readers_to_their_language(pages, base, locale, lang):
    context, page, watch = open_page(pages, base + "index.html", locale=locale)
    page.wait_for_url(f"**/{lang}/index.html")
    assert page.locator("html").get_attribute("lang") == lang
    assert watch.errors == []
    context.close()


def test_reader_goes_from_home_to_a_case_and_switches_language(pages, base):
    context, page, watch = open_page(pages, base + "ko/page/2.html")
    page.click(f'.il-card[data-case="{CASE}"] .il-card__title a')
    page.wait_for_url(f"**/ko/cases/{CASE}.html")
    assert page.locator("article h1").inner_text() == "애크미: GPU 이탈"
    page.click(".md-header button[aria-label='언어설정']")
    page.click("[data-il-alternate='en']")
    page.wait_for_url(f"**/en/cases/{CASE}.html")
    assert page.locator("html").get_attribute("lang") == "en"
    assert page.locator("article h2").first.inner_text() == "Symptoms"
    page.click("#component .il-chip >> text=GPU driver")
    page.wait_for_url("**/en/component/gpu-driver.html")
    assert page.locator("[data-il-count]").inner_text() == "15 cases"
    assert watch.errors == []
    assert watch.foreign_requests(base) == []
    context.close()


def test_pages_work_without_javascript(pages, base):
    context, page, _ = open_page(pages, base + "en/index.html", java_script_enabled=False)
    assert page.locator(".il-card").count() == 20
    page.click(".il-pagination a[rel=next]")
    page.wait_for_url("**/en/page/2.html")
    assert page.locator(".il-card").count() == 3
    context.close()


def test_keyboard_focus_is_visible_on_chips_and_pagination(pages, base):
    context, page, _ = open_page(pages, base + "en/index.html")
    chip = page.locator(".il-card .il-chip").first
    chip.focus()
    outline = chip.evaluate("el => getComputedStyle(el).outlineStyle")
    assert outline != "none"
    link = page.locator(".il-pagination a").nth(1)
    link.focus()
    page.keyboard.press("Enter")
    page.wait_for_url("**/en/page/2.html")
    context.close()


# Every kind of page, and the states a reader brings the library page to: filtered, searching
# (the highlights), the phone's drawer open, the graph open (a few cases, and the overview of
# many), the header's search box open on a phone. (name, address, what the reader does first)
STATES = [
    ("root", "index.html?stay", None),
    ("library", "ko/index.html", None),
    ("library, filtered", "en/index.html?cause=gpu-failure&organization=acme", None),
    ("library, searching", "ko/index.html?q=gpu", None),
    ("library, searching", "en/index.html?q=driver%20update", None),
    ("library, partial matches", "en/index.html?q=etcd%20quorum%20driver", "partial"),
    ("library, drawer open", "ko/index.html?cause=gpu-failure", "drawer"),
    ("library, graph open", "ko/index.html?graph=1&cause=gpu-failure", "graph"),
    ("library, graph open", "en/index.html?graph=1", "graph"),
    ("header search open", f"en/cases/{CASE}.html", "header-search"),
    ("case", f"ko/cases/{CASE}.html", None),
    ("case", "en/cases/globex-etcd-outage.html", None),
    ("facet", "ko/cause/index.html", None),
    ("term", "en/component/gpu-driver.html", None),
    ("term, filtered", "ko/component/gpu-driver.html?organization=acme", None),
    ("term, page 2", "ko/organization/acme/2.html", None),
    ("matrix", "en/matrix/cause-x-component.html", None),
    ("matrix, filtered", "ko/matrix/symptom-x-cause.html?organization=globex", None),
    ("about", "en/about.html", None),
    ("about", "ko/about.html", None),
    ("404", "404.html", None),
]


def reach(page, action: str | None, width: int) -> bool:
    """Bring the page to the state; False where it has no such state at this width."""
    if action == "graph":
        page.wait_for_selector("[data-il-graph-canvas] svg")
    elif action == "drawer":
        if width > 900:
            return False  # the facet lists are beside the results, no drawer
        page.wait_for_selector("[data-il-library][data-il-ready='true']")
        page.click(".il-filter-button")
        page.wait_for_selector(".il-library.il-drawer-open")
    elif action == "partial":
        page.click(".il-partial > summary")  # the cases matching part of the query, opened
    elif action == "header-search":
        page.focus("#il-header-query")
        page.keyboard.type("etcd")
    return True


@pytest.mark.parametrize(("kind", "url", "action"), STATES, ids=[s[1] for s in STATES])
def test_axe_finds_no_serious_or_critical_violation(pages, site, kind, url, action):
    """Every kind of page and state at 1280 and 390 px, in the light and the dark palette."""
    # axe is injected as an inline script, which the site's own CSP rightly refuses. From disk.
    target = site.as_uri() + "/" + url
    found = []
    for width in (1280, 390):
        for scheme in ("light", "dark"):
            context, page, _ = open_page(
                pages,
                target,
                bypass_csp=True,
                viewport={"width": width, "height": 900},
                color_scheme=scheme,
            )
            if "il-library" in page.content():
                page.wait_for_selector("[data-il-library][data-il-ready='true']")
            if reach(page, action, width):
                found += [f"{kind}, {width} px {scheme}: {v}" for v in serious_violations(page)]
            context.close()
    assert found == []


def test_axe_judges_a_page_once_its_transitions_end_and_never_waits_for_a_spinner(chromium):
    """`settle`, which runs before every axe check: a control fading in is judged at its final
    colours (a back-to-top button caught mid-fade failed a contrast check once), and an endless
    animation does not hold it up."""
    from browser import settle

    page = chromium.new_page()
    page.set_content(
        "<style>#b{opacity:0;transition:opacity 300ms}#b.on{opacity:1}"
        "#s{animation:turn 1s linear infinite}@keyframes turn{to{transform:rotate(1turn)}}"
        "</style><div id=s>.</div><button id=b>Top</button>"
    )
    page.evaluate(
        "() => requestAnimationFrame(() => document.getElementById('b').className = 'on')"
    )
    settle(page)
    assert page.evaluate("() => getComputedStyle(document.getElementById('b')).opacity") == "1"
    page.close()


def test_a_page_handed_on_starts_as_a_new_contexts_page_would(pages, http):
    """The pages the browser tests share (tests/browser.py, `Pages`): what one test leaves in a
    page is gone when the next gets it, and a page a reset cannot restore is not handed on."""
    options = {"viewport": {"width": 700, "height": 600}}
    origin = http.rstrip("/")
    context, page, _ = pages.open(http + "en/index.html", **options)
    first = page
    page.evaluate(
        """() => { localStorage.setItem('k', 'v'); sessionStorage.setItem('k', 'v');
                   document.cookie = 'k=v'; }"""
    )
    context.grant_permissions(["clipboard-read"], origin=origin)
    page.emulate_media(media="print")
    page.goto(http + "en/about.html")  # a new context keeps its page's media type when it navigates
    assert page.evaluate("() => matchMedia('print').matches") is True
    page.set_viewport_size({"width": 300, "height": 300})
    page.route("**/*.css", lambda route: route.abort())
    context.close()

    context, page, watch = pages.open(http + "en/index.html", **options)
    assert page is first  # handed on, not new
    assert page.evaluate(
        "() => [localStorage.getItem('k'), sessionStorage.getItem('k'), document.cookie]"
    ) == [None, None, ""]
    permission = "() => navigator.permissions.query({name: 'clipboard-read'}).then(s => s.state)"
    assert page.evaluate(permission) != "granted"

    assert page.evaluate("() => matchMedia('print').matches") is False
    assert page.viewport_size == options["viewport"]
    styled = """() => [...document.styleSheets].filter(s => {
        try { return s.cssRules.length > 0; } catch (e) { return false; } }).length"""
    assert page.evaluate(styled) >= 4  # the theme's and the library's style sheets
    assert watch.errors == [] and all(u.startswith(origin) for u in watch.requests)
    context.new_cdp_session(page)  # a session of the test's own: the page is not handed on
    context.close()
    assert page.is_closed()
    context, page, _ = pages.open(http + "en/index.html", **options)
    assert page is not first
    context.close()
