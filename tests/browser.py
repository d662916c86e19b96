"""Real Chromium for the browser tests: Debian's package driven by Playwright from PyPI."""

from __future__ import annotations

import functools
import http.server
import json
import threading
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from urllib.parse import urlsplit

CHROMIUM = "/usr/bin/chromium"
CHROMIUM_ARGS = [
    "--headless",
    "--no-sandbox",
    "--disable-gpu",
    "--no-first-run",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
]


class _QuietHandler(http.server.SimpleHTTPRequestHandler):
    def log_message(self, format: str, *args: object) -> None:  # noqa: A002 - stdlib signature
        pass


@contextmanager
def serve(folder: Path) -> Iterator[str]:
    """Serve `folder` on a free loopback port; yields the base URL."""
    with serve_with(functools.partial(_QuietHandler, directory=str(folder))) as url:
        yield url


@contextmanager
def serve_with(handler) -> Iterator[str]:
    """Serve requests with `handler` (a request handler class) on a free loopback port; yields
    the base URL, ending in /."""
    server = http.server.ThreadingHTTPServer(("127.0.0.1", 0), handler)
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    try:
        yield f"http://127.0.0.1:{server.server_address[1]}/"
    finally:
        server.shutdown()
        server.server_close()


class PageWatch:
    """Collects console errors, page errors and every requested URL of a page."""

    def __init__(self, page) -> None:
        self.errors: list[str] = []
        self.requests: list[str] = []
        self.messages: list[str] = []  # every console message, for failure reports
        self._page = page
        self._handlers = (
            ("console", self._console),
            ("pageerror", lambda e: self.errors.append(str(e))),
            ("request", lambda r: self.requests.append(r.url)),
        )
        for event, handler in self._handlers:
            page.on(event, handler)

    def _console(self, message) -> None:
        self.messages.append(f"{message.type}: {message.text}")
        if message.type == "error":
            self.errors.append(message.text)

    def detach(self) -> None:
        """Stop watching (the page goes on to another test)."""
        for event, handler in self._handlers:
            self._page.remove_listener(event, handler)

    def foreign_requests(self, base: str) -> list[str]:
        return [u for u in self.requests if not (u.startswith(base) or u.startswith("data:"))]


class Tab:
    """A page of its own browser context, handed to one test at a time by `Pages`. It stands in
    for the context a test would have made: `close()` gives the page back, and the context's
    other methods are the context's, except that a test calling one that `reset` cannot undo
    (an init script, a CDP session) makes the page its own, closed with the test."""

    # Context methods whose effect `Pages.reset` undoes.
    RESETTABLE = frozenset({"grant_permissions", "clear_permissions", "cookies", "clear_cookies"})

    def __init__(self, pages: Pages, key: tuple, context, page) -> None:
        self.pages, self.key, self.context, self.page = pages, key, context, page
        self.watch: PageWatch | None = None
        self.kept = True  # False once a test did something `reset` cannot undo

    def __getattr__(self, name: str):
        if name not in self.RESETTABLE:
            self.kept = False
        return getattr(self.context, name)

    def close(self) -> None:
        self.pages.give_back(self)


class Pages:
    """The browser tests' pages, each in a context of its own as a new context would be, but
    reused: a page a test has finished with is reset (blank; its origins' storage, cookies,
    permissions and routes cleared; its viewport and media restored) and handed to the next
    test that asks for the same context options. Its HTTP cache is kept, as a returning
    reader's: a file it serves is still a request `PageWatch` sees (the test servers send no
    freshness: Chromium reuses a file unasked for a tenth of its age, then asks whether it
    changed; no site is rebuilt in place between tests). A new context cost Chromium about
    0.7 s of CPU per library page (a renderer started, the theme's and the library's scripts
    compiled cold), a reset page about 0.2 s (bench/README.md, "make test"). Tests that need a
    context no reset can return to new (an init script, dialogs handled) make one from
    `chromium`; one that opens a CDP session of its own gets a page that is then closed."""

    IDLE = 6  # pages kept for later tests, the least recently used closed first (memory)

    def __init__(self, browser) -> None:
        self.browser = browser
        self.idle: list[Tab] = []  # least recently given back first

    @staticmethod
    def key(url: str | None, options: dict) -> tuple:
        scheme = url.split(":", 1)[0] if url else ""  # http and file pages use other renderers
        return (scheme, json.dumps(options, sort_keys=True, default=str))

    def open(self, url: str | None = None, **options) -> tuple[Tab, object, PageWatch]:
        """A page with these context options, watched, at `url` if one is given."""
        key = self.key(url, options)
        idle = [tab for tab in self.idle if tab.key == key]
        if idle:
            tab = idle[-1]
            self.idle.remove(tab)
        else:
            context = self.browser.new_context(**options)
            tab = Tab(self, key, context, context.new_page())
        tab.watch = PageWatch(tab.page)
        if url is not None:
            tab.page.goto(url)
        return tab, tab.page, tab.watch

    def give_back(self, tab: Tab) -> None:
        try:
            kept = tab.kept and self.reset(tab)
        except Exception:  # noqa: BLE001 - a page that cannot be reset is not reused
            kept = False
        if not kept:
            tab.context.close()
            return
        self.idle.append(tab)
        while len(self.idle) > self.IDLE:
            self.idle.pop(0).context.close()

    def reset(self, tab: Tab) -> bool:
        """Return the page to what a new context's page is; False if it cannot be."""
        page, context, options = tab.page, tab.context, json.loads(tab.key[1])
        if page.is_closed() or len(context.pages) != 1:
            return False
        origins = {_origin(url) for url in tab.watch.requests} - {None}
        tab.watch.detach()
        page.unroute_all(behavior="ignoreErrors")
        page.goto("about:blank")
        # A session for the reset only: one left attached would change the page (Chromium then
        # drops an emulated media type when the page navigates).
        cdp = context.new_cdp_session(page)
        for origin in origins:
            cdp.send("Storage.clearDataForOrigin", {"origin": origin, "storageTypes": "all"})
        cdp.detach()
        context.clear_permissions()
        page.emulate_media(media="null", color_scheme=options.get("color_scheme", "light"))
        viewport = options.get("viewport", {"width": 1280, "height": 720})
        if page.viewport_size != viewport:
            page.set_viewport_size(viewport)
        return True

    def close(self) -> None:
        for tab in self.idle:
            tab.context.close()
        self.idle.clear()


def _origin(url: str) -> str | None:
    """The storage origin of a requested URL (file: pages share one), None for data: and blank."""
    parts = urlsplit(url)
    if parts.scheme == "file":
        return "file://"
    return f"{parts.scheme}://{parts.netloc}" if parts.scheme in ("http", "https") else None


AXE = Path(__file__).resolve().parent.parent / "node_modules" / "axe-core" / "axe.min.js"


def settle(page) -> None:
    """Wait for the frames a scroll or click starts and for every transition they run to end: a
    control fading in (Material's back-to-top button, 125 ms, once the page scrolls up) would be
    judged at a contrast it only passes through (a case page's axe test failed so, once, under
    the load of the whole suite). Endless animations (a loading spinner) are not waited for."""
    page.evaluate(
        "() => new Promise(done => requestAnimationFrame(() => requestAnimationFrame(done)))"
    )
    page.wait_for_function(
        """() => document.getAnimations().every(a => a.playState !== 'running'
            || (a.effect && a.effect.getComputedTiming().iterations === Infinity))"""
    )


def axe_results(page, passes: bool = False) -> dict:
    """axe-core's results for the page, which must have been opened with `bypass_csp=True`: axe is
    injected as an inline script, which the site's own policy rightly refuses. Unless `passes`,
    only violations are gathered in full (`resultTypes`): axe then skips working out selectors for
    every element that passes, which changes no violation found and takes a fraction of the time
    on the library pages."""
    settle(page)
    page.add_script_tag(path=str(AXE))
    # With its experimental rule that an element's name holds its visible text (WCAG 2.5.3,
    # "label in name"), which a review found broken and axe leaves out by default.
    rules = "rules: {'label-content-name-mismatch': {enabled: true}}"
    options = f"{{{rules}}}" if passes else f"{{resultTypes: ['violations'], {rules}}}"
    script = f"async () => JSON.stringify(await axe.run(document, {options}))"
    return json.loads(page.evaluate(script))


def serious(results: dict) -> list[str]:
    """The serious and critical violations, one line each (id, impact, first element)."""
    return [
        f"{v['id']} ({v['impact']}): {v['nodes'][0]['target']}"
        for v in results["violations"]
        if v["impact"] in ("serious", "critical")
    ]


def serious_violations(page) -> list[str]:
    return serious(axe_results(page))
