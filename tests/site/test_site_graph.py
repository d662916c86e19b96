"""The library page's graph in a real Chromium (generator/outputs/assets/graph.js): labels that
never overlap, case titles when few cases are drawn, zoom and pan with the wheel, a drag, touch,
the buttons and the keyboard, targets big enough for a finger at 390 px, its own icon instead of
Material's pencil, and colours that read in the light and the dark scheme."""

from __future__ import annotations

from urllib.parse import parse_qs, urlsplit

import pytest
from sitebuild import FIXTURE_CASES

from generator.render.strings import t

CANVAS = "[data-il-graph-canvas]"
ONE_CASE = "index.html?graph=1&organization=globex"  # the one Globex case of the fixture
ALL_CASES = "index.html?graph=1"
WIDTHS = [1280, 390]
FACET_LABELS = {
    "ko": {
        "cause": "원인",
        "component": "구성 요소",
        "symptom": "증상",
        "contributing_factor": "기여 요인",
    },
    "en": {
        "cause": "Cause",
        "component": "Component",
        "symptom": "Symptom",
        "contributing_factor": "Contributing factor",
    },
}


@pytest.fixture(scope="module")
def file_base(site) -> str:
    """The site opened from disk, for the tests where how it is served makes no difference."""
    return site.as_uri() + "/"


def open_graph(pages, url: str, cases: int, width: int = 1280, dark: bool = False, **options):
    context, page, watch = pages.open(
        url,
        viewport={"width": width, "height": 900},
        color_scheme="dark" if dark else "light",
        **options,
    )
    page.wait_for_selector("[data-il-library][data-il-ready]")
    page.wait_for_function(
        "n => document.querySelector('[data-il-graph-canvas]').dataset.cases === String(n)",
        arg=cases,
    )
    if dark:  # the scheme the palette toggle sets; the page may already follow the system
        page.evaluate("document.body.setAttribute('data-md-color-scheme', 'slate')")
    page.locator(CANVAS).scroll_into_view_if_needed()
    return context, page, watch


def zoom(page) -> float:
    return float(page.get_attribute(CANVAS, "data-zoom"))


def view_box(page) -> list[float]:
    return [float(v) for v in page.get_attribute(f"{CANVAS} svg", "viewBox").split()]


def wait_zoom(page, check: str) -> None:
    """Wait for the drawn zoom (graph.js draws at the next frame) to satisfy `z => ...`."""
    page.wait_for_function(
        f"() => {{ const z = Number(document.querySelector('{CANVAS}').dataset.zoom); "
        f"return ({check})(z); }}"
    )


def wait_view_change(page, before: list[float]) -> None:
    page.wait_for_function(
        "b => document.querySelector('[data-il-graph-canvas] svg').getAttribute('viewBox')"
        ".split(' ').map(Number).some((v, i) => Math.abs(v - b[i]) > 1e-6)",
        arg=before,
    )
    page.evaluate("() => new Promise(r => requestAnimationFrame(() => r()))")


VISIBLE_LABELS = """() => [...document.querySelectorAll('[data-il-graph-canvas] .il-label text')]
  .filter(t => t.getClientRects().length && getComputedStyle(t).visibility !== 'hidden')
  .map(t => {
    const r = t.getBoundingClientRect();
    const group = t.closest('.il-label');
    return {text: t.textContent, i: group.dataset.i, kind: group.classList.contains('il-label--case')
      ? 'case' : 'term', left: r.left, top: r.top, right: r.right, bottom: r.bottom};
  })"""

NODES = """() => [...document.querySelectorAll('[data-il-graph-canvas] .il-node')].map(n => {
  const dot = n.querySelector('.il-node__dot').getBoundingClientRect();
  const hit = n.querySelector('.il-node__hit').getBoundingClientRect();
  return {i: n.dataset.i, case: n.dataset.case || null, x: dot.left + dot.width / 2,
    y: dot.top + dot.height / 2, r: dot.width / 2, dot: [dot.width, dot.height],
    hit: [hit.width, hit.height]};
})"""

CANVAS_RECT = f"""() => {{ const r = document.querySelector('{CANVAS}').getBoundingClientRect();
  return {{left: r.left, top: r.top, right: r.right, bottom: r.bottom}}; }}"""


def overlaps(a: dict, b: dict) -> bool:
    return (
        a["left"] < b["right"]
        and b["left"] < a["right"]
        and a["top"] < b["bottom"]
        and (b["top"] < a["bottom"])
    )


def covers_node(label: dict, node: dict) -> bool:
    nx = max(label["left"], min(node["x"], label["right"]))
    ny = max(label["top"], min(node["y"], label["bottom"]))
    return (node["x"] - nx) ** 2 + (node["y"] - ny) ** 2 < (node["r"] - 0.5) ** 2


def assert_labels_readable(page) -> list[dict]:
    """No two visible labels overlap, none covers a node, all are inside the canvas."""
    labels = page.evaluate(VISIBLE_LABELS)
    nodes = page.evaluate(NODES)
    canvas = page.evaluate(CANVAS_RECT)
    for n, a in enumerate(labels):
        assert canvas["left"] <= a["left"] and a["right"] <= canvas["right"] + 0.5, a
        assert canvas["top"] <= a["top"] and a["bottom"] <= canvas["bottom"] + 0.5, a
        for b in labels[n + 1 :]:
            assert not overlaps(a, b), (a, b)
        for node in nodes:
            inside = canvas["left"] <= node["x"] <= canvas["right"]
            if inside and canvas["top"] <= node["y"] <= canvas["bottom"]:
                assert not covers_node(a, node), (a, node)
    return labels


def world_point(page, x: float, y: float) -> list[float]:
    """The graph coordinates shown at the page pixel (x, y)."""
    return page.evaluate(
        """([x, y]) => {
          const svg = document.querySelector('[data-il-graph-canvas] svg');
          const p = new DOMPoint(x, y).matrixTransform(svg.getScreenCTM().inverse());
          return [p.x, p.y];
        }""",
        [x, y],
    )


def canvas_point(page, fx: float, fy: float) -> tuple[float, float]:
    """A point of the canvas, in whole pixels: a mouse event carries whole-pixel coordinates, so
    a fractional point would be moved by up to half a pixel (a layout with the canvas at a
    fractional offset then failed to zoom "around the pointer" by that much)."""
    box = page.locator(CANVAS).bounding_box()
    return round(box["x"] + box["width"] * fx), round(box["y"] + box["height"] * fy)


# ---- Labels -----------------------------------------------------------------------------------


@pytest.mark.parametrize("width", WIDTHS)
@pytest.mark.parametrize("lang", ["ko", "en"])
def test_one_case_is_labelled_with_its_title_beside_a_node_one_can_see(pages, base, lang, width):
    context, page, watch = open_graph(pages, f"{base}{lang}/{ONE_CASE}", cases=1, width=width)
    labels = assert_labels_readable(page)
    [case] = [label for label in labels if label["kind"] == "case"]
    # the fixture's Globex case has no Korean translation: both pages show its English title
    assert case["text"] in ("Globex: etcd loses quorum", "Globex: etcd loses quor…")
    assert len([label for label in labels if label["kind"] == "term"]) == 4  # all four terms
    [node] = [n for n in page.evaluate(NODES) if n["case"]]
    assert min(node["dot"]) >= 10
    # beside its node: the label's box is within a few pixels of the node's edge
    nx = max(case["left"], min(node["x"], case["right"]))
    ny = max(case["top"], min(node["y"], case["bottom"]))
    assert ((node["x"] - nx) ** 2 + (node["y"] - ny) ** 2) ** 0.5 < node["r"] + 8
    assert watch.errors == []
    assert watch.foreign_requests(base) == []
    context.close()


@pytest.mark.parametrize("width", WIDTHS)
@pytest.mark.parametrize("lang", ["ko", "en"])
def test_labels_of_all_cases_never_overlap_even_zoomed(pages, base, lang, width):
    context, page, watch = open_graph(
        pages, f"{base}{lang}/{ALL_CASES}", cases=FIXTURE_CASES, width=width
    )
    labels = assert_labels_readable(page)
    assert labels, "some labels are shown"
    # with 23 cases, case titles only show on hover
    assert [label for label in labels if label["kind"] == "case"] == []
    heights = {round(label["bottom"] - label["top"]) for label in labels if label["kind"] == "term"}

    page.locator(f"{CANVAS} svg").focus()
    page.keyboard.press("+")
    page.keyboard.press("+")
    wait_zoom(page, "z => z > 2")
    # placed again for the closer view: still apart, and none for a node now off the canvas
    zoomed = assert_labels_readable(page)
    # the text keeps its size on screen
    assert {
        round(label["bottom"] - label["top"]) for label in zoomed if label["kind"] == "term"
    } <= {h + d for h in heights for d in (-1, 0, 1)}
    assert watch.errors == []
    context.close()


@pytest.mark.parametrize("width", WIDTHS)
def test_zooming_in_on_a_few_cases_shows_their_titles(pages, file_base, width):
    context, page, watch = open_graph(
        pages, f"{file_base}en/{ALL_CASES}", cases=FIXTURE_CASES, width=width
    )
    # the Globex case sits apart from the 22 Acme cases
    node = page.locator(f'{CANVAS} .il-node--case[data-case="globex-etcd-outage"]')
    label = page.locator(f'{CANVAS} .il-label[data-i="{node.get_attribute("data-i")}"] text')
    assert not label.is_visible()
    box = node.bounding_box()
    page.mouse.move(box["x"] + box["width"] / 2, box["y"] + box["height"] / 2)
    for _ in range(4):
        page.mouse.wheel(0, -200)
    wait_zoom(page, "z => z > 3")
    page.mouse.move(1, 1)  # not hovering: the title shows by itself
    page.evaluate("() => new Promise(r => requestAnimationFrame(() => r()))")
    canvas = page.evaluate(CANVAS_RECT)
    on_canvas = [
        n
        for n in page.evaluate(NODES)
        if n["case"]
        and canvas["left"] <= n["x"] <= canvas["right"]
        and canvas["top"] <= n["y"] <= canvas["bottom"]
    ]
    assert 1 <= len(on_canvas) <= 8
    assert label.is_visible()
    assert label.text_content().startswith("Globex")
    assert_labels_readable(page)
    assert watch.errors == []
    context.close()


def test_the_drawing_is_the_same_each_time(pages, file_base):
    drawings = []
    for _ in range(2):
        context, page, _ = open_graph(
            pages, f"{file_base}en/{ALL_CASES}", cases=FIXTURE_CASES, width=390
        )
        drawings.append(
            page.evaluate(
                """() => [...document.querySelectorAll('[data-il-graph-canvas] .il-label')]
                  .map(g => [g.dataset.i, g.getAttribute('transform'), g.classList.contains(
                    'is-hidden'), g.querySelector('text').getAttribute('x'),
                    g.querySelector('text').getAttribute('y')].join(' '))"""
            )
        )
        context.close()
    assert drawings[0] == drawings[1]
    assert len(drawings[0]) > FIXTURE_CASES


def hidden_label_node(page, kind: str) -> str:
    """The data-i of a node of `kind` whose label is hidden and whose centre is its own."""
    index = page.evaluate(
        """kind => {
          for (const g of document.querySelectorAll('[data-il-graph-canvas] .il-label.is-hidden')) {
            if (!g.classList.contains('il-label--' + kind)) continue;
            const node = document.querySelector(
              `[data-il-graph-canvas] .il-node[data-i="${g.dataset.i}"]`);
            const r = node.querySelector('.il-node__dot').getBoundingClientRect();
            const at = document.elementFromPoint(r.left + r.width / 2, r.top + r.height / 2);
            if (at && at.closest('.il-node') === node) return g.dataset.i;
          }
          return null;
        }""",
        kind,
    )
    assert index is not None, f"no {kind} node with a hidden label to point at"
    return index


@pytest.mark.parametrize("lang", ["ko", "en"])
def test_a_hidden_label_shows_on_hover_and_on_focus(pages, file_base, lang):
    context, page, watch = open_graph(
        pages, f"{file_base}{lang}/{ALL_CASES}", cases=FIXTURE_CASES, width=390
    )
    index = hidden_label_node(page, "case")
    label = page.locator(f'{CANVAS} .il-label[data-i="{index}"] text')
    node = page.locator(f'{CANVAS} .il-node[data-i="{index}"]')
    assert not label.is_visible()
    node.hover()
    assert label.is_visible()
    title = node.locator("title").text_content()
    assert label.text_content().rstrip("…") in title
    page.mouse.move(1, 1)
    assert not label.is_visible()

    node.focus()
    assert label.is_visible()
    page.locator("[data-il-graph] > summary").focus()
    assert not label.is_visible()
    assert watch.errors == []
    context.close()


def test_a_term_label_applies_its_filter_like_its_node(pages, file_base):
    context, page, watch = open_graph(pages, f"{file_base}en/{ONE_CASE}", cases=1, width=1280)
    page.click(f'{CANVAS} .il-label a[data-term="etcd"]')
    page.wait_for_function(
        "() => new URLSearchParams(location.search).getAll('component').includes('etcd')"
    )
    assert parse_qs(urlsplit(page.url).query)["organization"] == ["globex"]
    assert page.get_attribute(CANVAS, "data-cases") == "1"
    assert watch.errors == []
    context.close()


# ---- Zoom and pan -----------------------------------------------------------------------------


@pytest.mark.parametrize("width", WIDTHS)
def test_wheel_zooms_around_the_pointer(pages, base, width):
    context, page, watch = open_graph(
        pages, f"{base}en/{ALL_CASES}", cases=FIXTURE_CASES, width=width
    )
    x, y = canvas_point(page, 0.3, 0.6)
    before = view_box(page)
    under = world_point(page, x, y)
    page.mouse.move(x, y)
    page.mouse.wheel(0, -300)
    wait_view_change(page, before)
    after = view_box(page)
    assert after[2] < before[2] and after[3] < before[3]  # closer
    assert zoom(page) > 1
    assert world_point(page, x, y) == pytest.approx(under, abs=0.5)

    # out again: back to the fitted view, then the wheel scrolls the page
    page.mouse.wheel(0, 3000)
    wait_zoom(page, "z => z === 1")
    assert view_box(page) == pytest.approx(before, abs=0.05)
    scrolled = page.evaluate("scrollY")
    page.mouse.wheel(0, 200)
    page.wait_for_function("y => scrollY > y", arg=scrolled)
    assert watch.errors == []
    context.close()


def test_a_drag_pans_and_does_not_open_the_node_under_it(pages, file_base):
    context, page, watch = open_graph(
        pages, f"{file_base}ko/{ALL_CASES}", cases=FIXTURE_CASES, width=1280
    )
    page.click("[data-il-graph-zoom='in']")
    page.click("[data-il-graph-zoom='in']")
    wait_zoom(page, "z => z > 2")
    before = view_box(page)
    url = page.url
    box = page.locator(CANVAS).bounding_box()
    scale = box["width"] / before[2]  # page pixels per graph unit
    # start the drag on a node: moving makes it a pan, not a click on the node
    node = page.evaluate(NODES)
    inside = [
        n
        for n in node
        if box["x"] + 150 < n["x"] < box["x"] + box["width"] - 150
        and box["y"] + 100 < n["y"] < box["y"] + box["height"] - 100
    ]
    start = (inside[0]["x"], inside[0]["y"]) if inside else canvas_point(page, 0.5, 0.5)
    page.mouse.move(*start)
    page.mouse.down()
    for step in range(1, 11):
        page.mouse.move(start[0] + 8 * step, start[1] + 5 * step)
    page.mouse.up()
    wait_view_change(page, before)
    after = view_box(page)
    assert after[0] == pytest.approx(before[0] - 80 / scale, abs=0.5)
    assert after[1] == pytest.approx(before[1] - 50 / scale, abs=0.5)
    assert after[2:] == pytest.approx(before[2:])
    page.wait_for_timeout(200)
    assert page.url == url  # the node under the pointer was not opened
    assert watch.errors == []
    context.close()


@pytest.mark.parametrize("lang", ["ko", "en"])
def test_buttons_zoom_in_out_and_reset_within_bounds(pages, file_base, lang):
    context, page, watch = open_graph(
        pages, f"{file_base}{lang}/{ALL_CASES}", cases=FIXTURE_CASES, width=390
    )
    plus = page.get_by_role("button", name=t("graph_zoom_in", lang), exact=True)
    minus = page.get_by_role("button", name=t("graph_zoom_out", lang), exact=True)
    reset = page.get_by_role("button", name=t("graph_reset_label", lang), exact=True)
    assert (plus.inner_text(), minus.inner_text(), reset.inner_text()) == (
        "+",
        "−",
        t("graph_reset", lang),
    )
    fitted = view_box(page)
    minus.click()  # already the whole graph: nothing further out
    page.wait_for_timeout(100)
    assert zoom(page) == 1
    plus.click()
    wait_zoom(page, "z => Math.abs(z - 1.5) < 0.01")
    for _ in range(8):
        plus.click()
    wait_zoom(page, "z => z === 8")  # the closest view
    minus.click()
    wait_zoom(page, "z => Math.abs(z - 8 / 1.5) < 0.01")
    reset.click()
    wait_zoom(page, "z => z === 1")
    assert view_box(page) == pytest.approx(fitted, abs=0.05)
    for button in (plus, minus, reset):
        size = button.bounding_box()
        assert size["width"] >= 24 and size["height"] >= 24
    assert watch.errors == []
    context.close()


def test_keys_zoom_and_pan_when_the_graph_has_focus(pages, file_base):
    context, page, watch = open_graph(
        pages, f"{file_base}en/{ALL_CASES}", cases=FIXTURE_CASES, width=1280
    )
    svg = page.locator(f"{CANVAS} svg")
    svg.focus()
    assert page.evaluate("document.activeElement.classList.contains('il-graph__svg')")
    hint = page.locator("#il-graph-hint")
    assert svg.get_attribute("aria-describedby") == "il-graph-hint" and hint.is_visible()
    page.keyboard.press("+")
    wait_zoom(page, "z => Math.abs(z - 1.5) < 0.01")
    page.keyboard.press("=")
    wait_zoom(page, "z => Math.abs(z - 2.25) < 0.01")
    before = view_box(page)
    page.keyboard.press("ArrowRight")
    wait_view_change(page, before)
    moved = view_box(page)
    assert moved[0] > before[0] and moved[1] == before[1]
    page.keyboard.press("ArrowDown")
    wait_view_change(page, moved)
    assert view_box(page)[1] > moved[1]
    page.keyboard.press("-")
    wait_zoom(page, "z => Math.abs(z - 1.5) < 0.01")
    page.keyboard.press("0")
    wait_zoom(page, "z => z === 1")
    # the page does not scroll while the arrow keys move the graph
    scrolled = page.evaluate("scrollY")
    page.keyboard.press("+")
    page.keyboard.press("ArrowDown")
    page.wait_for_timeout(100)
    assert page.evaluate("scrollY") == scrolled
    assert watch.errors == []
    context.close()


def touch(cdp, kind: str, points: list[tuple[float, float]]) -> None:
    cdp.send(
        "Input.dispatchTouchEvent",
        {
            "type": kind,
            "touchPoints": [{"x": x, "y": y, "id": n} for n, (x, y) in enumerate(points)],
        },
    )


def test_pinch_zooms_and_one_finger_pans_on_a_phone(pages, file_base):
    context, page, watch = open_graph(
        pages,
        f"{file_base}ko/{ALL_CASES}",
        cases=FIXTURE_CASES,
        width=390,
        has_touch=True,
        is_mobile=True,
    )
    cdp = context.new_cdp_session(page)
    cx, cy = canvas_point(page, 0.5, 0.5)
    before = view_box(page)
    touch(cdp, "touchStart", [(cx - 30, cy), (cx + 30, cy)])
    for step in range(1, 9):
        touch(cdp, "touchMove", [(cx - 30 - 10 * step, cy), (cx + 30 + 10 * step, cy)])
    touch(cdp, "touchEnd", [])
    wait_zoom(page, "z => z > 2")
    assert zoom(page) == pytest.approx(220 / 60, rel=0.05)  # fingers 60 px apart, then 220
    pinched = view_box(page)
    assert pinched[2] < before[2]

    touch(cdp, "touchStart", [(cx, cy)])
    for step in range(1, 9):
        touch(cdp, "touchMove", [(cx - 6 * step, cy - 4 * step)])
    touch(cdp, "touchEnd", [])
    wait_view_change(page, pinched)
    panned = view_box(page)
    assert panned[0] > pinched[0] and panned[1] > pinched[1]  # the view follows the finger
    assert panned[2] == pytest.approx(pinched[2])
    assert watch.errors == []
    context.close()


# ---- On a phone, the summary, the colours -------------------------------------------------------


@pytest.mark.parametrize("url", [ONE_CASE, ALL_CASES])
def test_targets_are_big_enough_for_a_finger_at_390_px(pages, file_base, url):
    cases = 1 if url == ONE_CASE else FIXTURE_CASES
    context, page, _ = open_graph(pages, f"{file_base}en/{url}", cases=cases, width=390)
    canvas = page.locator(CANVAS).bounding_box()
    assert canvas["height"] >= canvas["width"] * 0.95  # square on a phone, not 1000 × 640
    nodes = page.evaluate(NODES)
    assert len(nodes) > cases
    for node in nodes:
        assert min(node["hit"]) >= 24, node
    labels = page.evaluate(VISIBLE_LABELS)
    assert labels and min(label["bottom"] - label["top"] for label in labels) >= 11
    context.close()


@pytest.mark.parametrize("lang", ["ko", "en"])
def test_summary_has_a_graph_icon_and_no_pencil(pages, file_base, lang):
    context, page, _ = open_graph(pages, f"{file_base}{lang}/{ONE_CASE}", cases=1)
    summary = page.locator("[data-il-graph] > summary")
    before = summary.evaluate(
        """s => { const b = getComputedStyle(s, '::before');
          return {content: b.content, mask: b.maskImage || b.webkitMaskImage}; }"""
    )
    assert before["content"] == "none"
    assert "url(" not in before["mask"]
    # Material's chevron stays
    assert summary.evaluate("s => getComputedStyle(s, '::after').content") != "none"
    icon = summary.locator("svg.il-graph__icon")
    assert icon.get_attribute("aria-hidden") == "true" and icon.is_visible()
    assert icon.locator("circle").count() >= 3
    # its name, then the legend's five kinds of node (shown with the panel closed, as the
    # reference page shows it; hidden from screen readers, who have the panel's list)
    assert summary.locator(".il-graph__title").inner_text() == t("graph", lang)
    key = summary.locator(".il-graph__key")
    assert key.get_attribute("aria-hidden") == "true" and key.is_visible()
    assert key.locator(".il-graph__kind").all_inner_texts() == [
        *(FACET_LABELS[lang][f] for f in ("cause", "component", "symptom", "contributing_factor")),
        t("kind_case", lang),
    ]
    summary.click()  # still opens and closes the panel
    assert page.evaluate("!document.querySelector('[data-il-graph]').open")
    context.close()


def over(colour: list[int], background: list[int]) -> list[float]:
    """`colour` (RGBA, alpha 0-255) painted over an opaque background."""
    alpha = colour[3] / 255
    return [alpha * c + (1 - alpha) * b for c, b in zip(colour[:3], background[:3], strict=True)]


def contrast(a: list[float], b: list[float]) -> float:
    def luminance(rgb):
        def channel(c):
            c = c / 255
            return c / 12.92 if c <= 0.03928 else ((c + 0.055) / 1.055) ** 2.4

        r, g, b = (channel(c) for c in rgb[:3])
        return 0.2126 * r + 0.7152 * g + 0.0722 * b

    la, lb = luminance(a), luminance(b)
    return (max(la, lb) + 0.05) / (min(la, lb) + 0.05)


COLOURS = """() => {
  const rgb = c => {
    const probe = document.createElement('canvas').getContext('2d');
    probe.fillStyle = c; probe.fillRect(0, 0, 1, 1);
    return [...probe.getImageData(0, 0, 1, 1).data];
  };
  const canvas = document.querySelector('[data-il-graph-canvas]');
  const label = canvas.querySelector('.il-label:not(.is-hidden) text');
  return {
    background: rgb(getComputedStyle(canvas).backgroundColor),
    label: rgb(getComputedStyle(label).fill),
    halo: rgb(getComputedStyle(label).stroke),
    case: rgb(getComputedStyle(canvas.querySelector('.il-node--case .il-node__dot')).fill),
    scheme: document.body.getAttribute('data-md-color-scheme'),
  };
}"""


@pytest.mark.parametrize("dark", [False, True], ids=["light", "dark"])
@pytest.mark.parametrize("width", WIDTHS)
def test_labels_and_case_nodes_read_in_both_schemes(pages, file_base, dark, width):
    context, page, watch = open_graph(
        pages, f"{file_base}en/{ONE_CASE}", cases=1, width=width, dark=dark
    )
    colours = page.evaluate(COLOURS)
    assert (colours["scheme"] == "slate") == dark
    background = colours["background"]
    assert contrast(over(colours["label"], background), background) >= 4.5, colours
    assert colours["halo"][:3] == background[:3]
    assert contrast(over(colours["case"], background), background) >= 3, colours
    assert watch.errors == []
    context.close()


# ---- Many cases: the repository's own library ------------------------------------------------


@pytest.fixture(scope="module")
def repository_base(repository_site) -> str:
    return repository_site.as_uri() + "/"


@pytest.mark.parametrize("width", WIDTHS)
@pytest.mark.parametrize("lang", ["ko", "en"])
def test_many_cases_are_drawn_as_an_overview_of_their_terms(pages, repository_base, lang, width):
    """Drawn one by one, the repository's cases and their terms were 134 nodes with the
    central ones unlabelled. Over 30 cases the graph shows the 40 most used terms, linked where
    they occur together, and the largest are labelled."""
    context, page, watch = pages.open(
        f"{repository_base}{lang}/{ALL_CASES}", viewport={"width": width, "height": 900}
    )
    page.wait_for_selector(f"{CANVAS}[data-overview='true'] svg")
    page.locator(CANVAS).scroll_into_view_if_needed()
    assert page.locator(f"{CANVAS} .il-node--case").count() == 0
    terms = page.locator(f"{CANVAS} .il-node").count()
    assert 10 < terms <= 40
    assert page.locator(f"{CANVAS} line[data-pair]").count() > 0
    assert_labels_readable(page)
    # the ten largest terms (the most cases) have their labels shown
    largest = page.evaluate(
        """() => [...document.querySelectorAll('[data-il-graph-canvas] .il-node')]
             .map(n => [n.querySelector('.il-node__dot').getBoundingClientRect().width, n.dataset.i])
             .sort((a, b) => b[0] - a[0]).slice(0, 10).map(([, i]) => i)"""
    )
    hidden = page.evaluate(
        """ids => ids.filter(i => document.querySelector(
             `[data-il-graph-canvas] .il-label[data-i="${i}"]`).classList.contains('is-hidden'))""",
        largest,
    )
    # a phone's canvas is a third as wide: a few may show only on a tap
    assert hidden == [] if width == 1280 else len(hidden) <= 3, hidden
    status = page.locator("[data-il-graph-status]").inner_text()
    assert status.startswith(t("graph_overview", lang).split("{")[0])
    assert watch.errors == []
    context.close()


@pytest.mark.parametrize("lang", ["ko", "en"])
def test_the_drawing_is_one_tab_stop(pages, repository_base, lang):
    """A keyboard passes the drawing in one Tab (its keys zoom and pan it); its nodes are no tab
    stops, the table under it names the same terms as links."""
    context, page, _ = pages.open(
        f"{repository_base}{lang}/{ALL_CASES}", viewport={"width": 1280, "height": 900}
    )
    page.wait_for_selector(f"{CANVAS} svg")
    page.focus("[data-il-graph-zoom='reset']")
    page.keyboard.press("Tab")
    assert page.evaluate("document.activeElement.classList.contains('il-graph__svg')")
    page.keyboard.press("Tab")
    assert page.evaluate("document.activeElement.closest('[data-il-graph-canvas]') === null")
    assert page.evaluate("document.activeElement.closest('[data-il-pairs]') !== null")
    context.close()
