"""Real Chromium for the browser tests: Debian's package driven by Playwright from PyPI."""

from __future__ import annotations

import functools
import http.server
import json
import threading
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

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
        page.on("console", lambda m: self.messages.append(f"{m.type}: {m.text}"))
        page.on("console", lambda m: self.errors.append(m.text) if m.type == "error" else None)
        page.on("pageerror", lambda e: self.errors.append(str(e)))
        page.on("request", lambda r: self.requests.append(r.url))

    def foreign_requests(self, base: str) -> list[str]:
        return [u for u in self.requests if not (u.startswith(base) or u.startswith("data:"))]


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
    options = "{}" if passes else "{resultTypes: ['violations']}"
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
