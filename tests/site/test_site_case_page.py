"""The case page in a real Chromium, over http and opened from disk, in both languages, on a
wide screen (1280 px) and a phone (390 px): its contents (Material's right sidebar when wide,
the page's own list when narrow), the permalink beside each section heading, the copy buttons
of the citation, the print style, and Korean line breaking; with no console error and nothing
axe calls serious. The markup itself is tested in tests/render/test_render_case_page.py."""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest
from browser import PageWatch, serious_violations, serve
from conftest import Project, translation_text
from sitebuild import build_fixture_site, write_fixture_library

CHECKER = "https://checker.acme.dev/"
LONG_TITLE = (
    "애크미: 드라이버 업데이트 뒤 인피니밴드 패브릭과 GPU 드라이버가 함께 멈춘 대규모 학습 클러스터"
)
LONG_URL = "https://reports.acme.dev/postmortems/2023/" + "gpu-driver-infiniband-" * 6 + "x"
CASES = {"ko": "ko/cases/acme-gpu-outage-02.html", "en": "en/cases/globex-etcd-outage.html"}
WIDTHS = (1280, 390)
COPIED = {"ko": "복사했습니다", "en": "Copied"}


@pytest.fixture(scope="module")
def site(tmp_path_factory) -> Path:
    """The browser tests' fixture library, with a checker configured (so case pages have the
    "check your cluster" block), and one case with a long Korean title and a long link."""
    project = Project(tmp_path_factory.mktemp("case-page") / "project")
    write_fixture_library(project)
    config = project.root / "mkdocs.yml"
    text = config.read_text(encoding="utf-8")
    text, n = re.subn(
        r"\n  check_cluster:\n(?:    .*\n)*",
        f"\n  check_cluster:\n    name: Acme checker\n    url: {CHECKER}\n",
        text,
    )
    assert n == 1
    config.write_text(text, encoding="utf-8")
    body = (
        translation_text("ko")
        .split("---\n\n", 1)[1]
        .replace("드라이버 업데이트.", f"드라이버 업데이트. [업데이트 공지]({LONG_URL})를 보세요.")
    )
    project.write("incidents/acme-gpu-outage-02.ko.md", translation_text("ko", LONG_TITLE, body))
    return build_fixture_site(project.root)


def open_case(pages, base: str, lang: str, width: int = 1280, **options):
    return pages.open(base + CASES[lang], viewport={"width": width, "height": 800}, **options)


SECTIONS_JS = """() => [...document.querySelectorAll('article .il-heading > h2')].map(h => {
  const section = h.closest('section');
  return ['#' + section.id, h.textContent.trim()];
})"""


def links(page, selector: str) -> list[list[str]]:
    return page.eval_on_selector_all(
        selector, "as => as.map(a => [a.getAttribute('href'), a.textContent.trim()])"
    )


@pytest.mark.parametrize("lang", CASES)
@pytest.mark.parametrize("width", WIDTHS)
def test_contents_list_every_section_and_jump_to_it(pages, base, lang, width):
    context, page, watch = open_case(pages, base, lang, width)
    sections = page.evaluate(SECTIONS_JS)
    assert len(sections) >= 12
    assert [href for href, _ in sections[-4:]] == [
        "#check-your-cluster",
        "#sources",
        "#cite",
        "#related",
    ]
    sidebar = page.locator(".md-sidebar--secondary nav.md-nav--secondary")
    own = page.locator("article nav.il-toc")
    if width >= 960:  # 60em and up: Material's sidebar, whose list the plugin filled
        assert sidebar.is_visible() and not own.is_visible()
        entries = links(page, ".md-sidebar--secondary .md-nav__link")
        shown = sidebar
    else:
        assert own.is_visible() and not sidebar.is_visible()
        assert own.get_attribute("aria-label") == {"ko": "목차", "en": "Table of contents"}[lang]
        entries = links(page, "article nav.il-toc a")
        shown = own
    assert entries == sections
    for href, _ in (sections[0], sections[-3], sections[-1]):
        shown.locator(f'a[href="{href}"]').click()
        page.wait_for_function("h => location.hash === h", arg=href)
        top = page.evaluate("h => document.querySelector(h).getBoundingClientRect().top", href)
        assert 0 <= top < 800, href  # on screen: the section the link names
    assert watch.errors == []
    context.close()


def test_the_wide_sidebar_follows_the_reading(pages, base):
    """Material's scroll-spy marks the section being read, as it does for Markdown pages."""
    context, page, watch = open_case(pages, base, "en", 1280)
    page.locator(".md-sidebar--secondary a[href='#detection']").click()
    # the section jumped to is the one marked (section:target scrolls as Material's headings do)
    active = ".md-sidebar--secondary a.md-nav__link--active"
    page.wait_for_function(
        f"() => document.querySelector({json.dumps(active)})?.getAttribute('href') === '#detection'"
    )
    assert page.locator(active).count() == 1
    assert watch.errors == []
    context.close()


@pytest.mark.parametrize("lang", CASES)
def test_every_section_heading_has_a_permalink_to_its_section(pages, base, lang):
    context, page, watch = open_case(pages, base, lang)
    found = page.evaluate(
        """() => [...document.querySelectorAll('article .il-heading > h2')].map(h => {
          const link = h.parentElement.querySelector(':scope > a.headerlink');
          const href = link && link.getAttribute('href');
          return {
            section: h.closest('section').id, href,
            target: href && document.getElementById(href.slice(1)) === h.closest('section'),
            label: link && link.getAttribute('aria-label'), heading: h.textContent,
            tabIndex: link && link.tabIndex,
          };
        })"""
    )
    assert len(found) >= 12
    for item in found:
        assert item["href"] == "#" + item["section"] and item["target"], item
        assert item["heading"] in item["label"] and item["tabIndex"] == 0, item
    label = found[0]["label"]
    assert (
        label
        == {"ko": "증상 섹션으로 바로 가는 링크", "en": "Permanent link to this section: Symptoms"}[
            lang
        ]
    )
    first = page.locator("article .il-heading > a.headerlink").first
    assert first.evaluate("a => getComputedStyle(a).opacity") == "0"
    first.locator("xpath=..").hover()
    page.wait_for_function("a => getComputedStyle(a).opacity === '1'", arg=first.element_handle())
    context.close()


def test_permalinks_are_reached_and_shown_by_keyboard(pages, base):
    context, page, watch = open_case(pages, base, "ko", 390)
    for _ in range(200):
        page.keyboard.press("Tab")
        if page.evaluate("() => document.activeElement.matches('a.headerlink')"):
            break
    else:
        pytest.fail("Tab never reached a permalink")
    focused = page.evaluate(
        """() => { const a = document.activeElement, s = getComputedStyle(a);
          return [a.getAttribute('href'), s.opacity, s.outlineStyle]; }"""
    )
    assert focused[0] == "#symptoms"
    page.wait_for_function("() => getComputedStyle(document.activeElement).opacity === '1'")
    assert focused[2] != "none"
    page.keyboard.press("Enter")
    page.wait_for_function("() => location.hash === '#symptoms'")
    assert watch.errors == []
    context.close()


def citation(page, block: str) -> str:
    return page.locator(f"#{block} code").evaluate("e => e.textContent")


@pytest.mark.parametrize("lang", CASES)
def test_copy_buttons_copy_the_citation_with_the_clipboard_api(pages, site, lang):
    with serve(site) as url:
        context, page, watch = open_case(pages, url, lang)
        context.grant_permissions(["clipboard-read", "clipboard-write"], origin=url.rstrip("/"))
        for block, label in (("cite-text", "인용 복사"), ("cite-bibtex", "BibTeX 복사")):
            button = page.locator(f"button[data-il-copy='{block}']")
            if lang == "ko":
                assert button.inner_text() == label
            button.click()
            status = button.locator("xpath=..").locator("[role=status]")
            page.wait_for_function(
                "([s, t]) => s.textContent === t", arg=[status.element_handle(), COPIED[lang]]
            )
            assert page.evaluate("() => navigator.clipboard.readText()") == citation(page, block)
        # built without SITE_URL: no address in the citation (the page gives its path)
        assert citation(page, "cite-text").endswith("Incident Library, 2024.")
        assert watch.errors == []
        context.close()


# Where the Clipboard API is missing, or refuses (file:// in some browsers), the button selects
# the text and copies it with execCommand; a copy listener records what was copied.
NO_CLIPBOARD = "Object.defineProperty(Navigator.prototype, 'clipboard', {get: () => undefined});"
REFUSING = """Object.defineProperty(Navigator.prototype, 'clipboard', {get: () => ({
  writeText: () => Promise.reject(new DOMException('refused', 'NotAllowedError'))})});"""
RECORD = """document.addEventListener('copy', () => {
  window.__copied = String(window.getSelection()); });"""


@pytest.mark.parametrize("clipboard", [NO_CLIPBOARD, REFUSING], ids=["missing", "refusing"])
@pytest.mark.parametrize("lang", CASES)
def test_without_the_clipboard_api_the_selection_is_copied(chromium, base, lang, clipboard):
    context = chromium.new_context()
    context.add_init_script(clipboard + RECORD)
    page = context.new_page()
    watch = PageWatch(page)
    page.goto(base + CASES[lang])
    page.click("button[data-il-copy='cite-text']")
    page.wait_for_function(
        "t => document.querySelector('#cite [role=status]').textContent === t", arg=COPIED[lang]
    )
    assert page.evaluate("() => window.__copied") == citation(page, "cite-text")
    assert page.evaluate("() => String(getSelection())") == ""  # copied: nothing left selected
    assert watch.errors == []
    context.close()


def test_when_nothing_can_copy_the_text_is_left_selected(chromium, base):
    context = chromium.new_context()
    context.add_init_script(NO_CLIPBOARD + "document.execCommand = () => false;")
    page = context.new_page()
    page.goto(base + CASES["ko"])
    page.click("button[data-il-copy='cite-bibtex']")
    status = page.locator("button[data-il-copy='cite-bibtex'] ~ [role=status]")
    status.filter(has_text="복사하지 못했습니다").wait_for()
    assert page.evaluate("() => String(getSelection())") == citation(page, "cite-bibtex")
    context.close()


def test_copy_buttons_show_only_with_javascript(pages, base):
    for enabled in (True, False):
        context, page, _ = open_case(pages, base, "en", java_script_enabled=enabled)
        buttons = page.locator("#cite button")
        assert buttons.count() == 2
        assert [buttons.nth(n).is_visible() for n in range(2)] == [enabled, enabled]
        context.close()


@pytest.mark.parametrize("scheme", ["light", "dark"])
@pytest.mark.parametrize("lang", CASES)
def test_print_shows_addresses_keeps_blocks_whole_and_leaves_the_frame_out(
    pages, base, lang, scheme
):
    context, page, watch = open_case(pages, base, lang, color_scheme=scheme)
    page.emulate_media(media="print")
    # Material's links fade their colour (transition: color): wait for the end of it
    page.wait_for_function(
        "() => getComputedStyle(document.querySelector('#symptoms .il-chip')).color"
        " === 'rgb(0, 0, 0)'"
    )
    sources = page.eval_on_selector_all(
        "#sources li a",
        "as => as.map(a => [a.getAttribute('href'), getComputedStyle(a, '::after').content])",
    )
    assert sources
    for href, after in sources:  # Chromium reports attr() resolved: the text that is printed
        assert href.startswith("https://") and after == f'" ({href})"', after
    style = page.evaluate(
        """() => {
          const css = (s, p) => { const e = document.querySelector(s); return e && getComputedStyle(e)[p]; };
          return {
            cluster: css('.il-cluster', 'breakInside'),
            section: css('#symptoms', 'breakInside'),
            heading: css('#symptoms > .il-heading', 'breakAfter'),
            h1: css('article h1', 'breakAfter'),
            hidden: ['.md-header', '.md-sidebar--primary', '.md-sidebar--secondary', '.md-footer',
                     '.md-search', '.md-select', '.il-toc', '.il-copy', '.headerlink']
              .map(s => [s, css(s, 'display')]),
            text: css('article h1', 'color'), prose: css('#symptoms .il-prose p', 'color'),
            body: css('body', 'backgroundColor'), chip: css('#symptoms .il-chip', 'color'),
            checker: getComputedStyle(document.querySelector('.il-cluster a[href^="http"]'), '::after').content,
          };
        }"""
    )
    assert style["cluster"] == "avoid" and style["section"] == "avoid"
    assert style["heading"] == "avoid" and style["h1"] == "avoid"
    # (Material has no search box here: the site's search is the library page's own)
    assert [s for s, d in style["hidden"] if d is None] == [".md-search"]
    assert all(display in ("none", None) for _, display in style["hidden"]), style["hidden"]
    assert style["text"] == style["prose"] == style["chip"] == "rgb(0, 0, 0)"
    assert style["body"] == "rgb(255, 255, 255)"
    assert style["checker"] == f'" ({CHECKER})"'
    assert watch.errors == []
    context.close()


def test_print_after_content_is_the_address(pages, base):
    """Chromium reports `content: attr(href)` already resolved: the printed text is the URL."""
    context, page, _ = open_case(pages, base, "ko")
    page.emulate_media(media="print")
    link = page.locator("#trigger .il-prose a")
    after = link.evaluate("a => getComputedStyle(a, '::after').content")
    assert LONG_URL in after
    first = page.locator("#sources li a").first
    assert first.get_attribute("href") in first.evaluate(
        "a => getComputedStyle(a, '::after').content"
    )
    context.close()


def test_korean_breaks_between_words_and_english_as_usual(pages, base):
    context, page, _ = open_case(pages, base, "ko", 390)
    breaks = page.evaluate(
        """() => ['article h1', '#symptoms h2', '.il-prose p', '.il-related a:not(.il-chip)',
                   '.il-toc a'].map(s => {
          const st = getComputedStyle(document.querySelector(s));
          return [s, st.wordBreak, st.overflowWrap]; })"""
    )
    for selector, word_break, overflow_wrap in breaks:
        assert (word_break, overflow_wrap) == ("keep-all", "anywhere"), selector
    context.close()
    context, page, _ = open_case(pages, base, "en", 390)
    assert (
        page.evaluate("() => getComputedStyle(document.querySelector('article h1')).wordBreak")
        == "normal"
    )
    context.close()
    context, page, _ = pages.open(base + "ko/index.html", viewport={"width": 390, "height": 800})
    title = page.locator(".il-card__title").first
    assert title.evaluate("e => getComputedStyle(e).wordBreak") == "keep-all"
    context.close()


def test_a_korean_title_keeps_its_words_whole(pages, base):
    """Each line of the long Korean title ends at a space: no word is cut in two."""
    context, page, _ = open_case(pages, base, "ko", 390)
    lines = page.evaluate(
        """() => {
          const h1 = document.querySelector('article h1'), text = h1.firstChild, range = document.createRange();
          const lines = []; let top = null, start = 0;
          for (let i = 0; i < text.length; i++) {
            range.setStart(text, i); range.setEnd(text, i + 1);
            const rect = range.getClientRects()[0];
            if (!rect) continue;
            if (top !== null && rect.top > top + 2) { lines.push(text.data.slice(start, i)); start = i; }
            if (top === null || rect.top > top + 2) top = rect.top;
          }
          lines.push(text.data.slice(start));
          return lines;
        }"""
    )
    assert len(lines) > 1 and "".join(lines) == LONG_TITLE
    words = LONG_TITLE.split(" ")
    for line in lines:
        assert all(word in words for word in line.split()), lines
    context.close()


@pytest.mark.parametrize("lang", CASES)
def test_nothing_of_the_page_is_wider_than_a_phone(pages, base, lang):
    """At 390 px every block of the content stays within the screen (long Korean titles, long
    URLs and the citation blocks included; a <pre> scrolls inside itself)."""
    context, page, watch = open_case(pages, base, lang, 390)
    wide = page.evaluate(
        """() => [...document.querySelectorAll('article.md-content__inner *')]
          .filter(e => !e.closest('pre > code *'))
          .map(e => [e.tagName + (e.className ? '.' + e.className : ''), e.getBoundingClientRect()])
          .filter(([, r]) => r.width > 0 && (r.right > 390.5 || r.left < -0.5))
          .map(([name, r]) => name + ' ' + Math.round(r.left) + '..' + Math.round(r.right))"""
    )
    assert wide == []
    assert watch.errors == []
    context.close()


@pytest.mark.parametrize("lang", CASES)
@pytest.mark.parametrize("width", WIDTHS)
def test_axe_finds_no_serious_violation_on_the_case_page(pages, site, lang, width):
    # axe is injected as an inline script, which the site's own CSP rightly refuses
    context, page, _ = pages.open(
        site.as_uri() + "/" + CASES[lang] + "?stay",
        viewport={"width": width, "height": 800},
        bypass_csp=True,
    )
    page.click("button[data-il-copy='cite-text']")  # the status shows its message
    page.locator("article .headerlink").first.focus()
    violations = serious_violations(page)
    assert violations == []
    context.close()


@pytest.mark.parametrize("lang", CASES)
def test_on_a_phone_the_citation_wraps_instead_of_scrolling(pages, base, lang):
    """The citation's blocks scrolled sideways on a phone (a region the keyboard had to reach to
    read it): they wrap, and nothing in them is wider than the screen."""
    context, page, _ = open_case(pages, base, lang, 390)
    widths = page.eval_on_selector_all(
        "#cite pre, #cite pre > code", "els => els.map(e => [e.scrollWidth, e.clientWidth])"
    )
    assert len(widths) == 4
    assert all(scroll <= client for scroll, client in widths), widths
    context.close()
