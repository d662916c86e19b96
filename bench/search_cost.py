"""Measure what a first search costs a reader: bytes transferred and time to first results.

Serves a built site on loopback, opens the library page in Debian's Chromium, types a query and
reports, from the keystroke to the first rendered results: the requests made, their bytes (bodies
plus headers, uncompressed as a static server sends them) and the elapsed time. It also reports the
page load before the query. A measurement, not a test: run it a few times on a quiet machine.

    .venv/bin/python bench/search_cost.py [--site site] [--lang ko] [--query "인피니밴드 배선이"]
"""

from __future__ import annotations

import argparse
import gzip
import statistics
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent / "tests"))

from browser import CHROMIUM, CHROMIUM_ARGS, serve  # noqa: E402
from playwright.sync_api import sync_playwright  # noqa: E402


def measure(site: Path, lang: str, query: str, runs: int) -> list[dict]:
    results = []
    with serve(site) as base, sync_playwright() as playwright:
        browser = playwright.chromium.launch(executable_path=CHROMIUM, args=CHROMIUM_ARGS)
        for _ in range(runs):
            context = browser.new_context()  # cold cache each run
            page = context.new_page()
            log: list[tuple[str, str, int]] = []
            phase = {"name": "load"}

            def record(request, log=log, phase=phase):
                response = request.response()
                sizes = request.sizes()
                total = sizes["responseBodySize"] + sizes["responseHeadersSize"] if response else 0
                log.append((phase["name"], request.url.removeprefix(base), total))

            page.on("requestfinished", record)
            started = time.perf_counter()
            page.goto(f"{base}{lang}/index.html")
            page.wait_for_selector("[data-il-library][data-il-ready]")
            loaded = time.perf_counter() - started
            phase["name"] = "query"
            page.evaluate(
                "() => { document.querySelector('[data-il-library]').dataset.ilReady = 'pending'; }"
            )
            started = time.perf_counter()
            page.fill("[data-il-query]", query)
            page.wait_for_function(
                "() => document.querySelector('[data-il-library]').dataset.ilReady === 'true'"
            )
            first = time.perf_counter() - started
            page.wait_for_timeout(200)
            load_bytes = sum(size for name, _, size in log if name == "load")
            query_log = [(url, size) for name, url, size in log if name == "query"]
            search_bytes = sum(size for _, url, size in log if "/search/" in url)
            # What a host that compresses text (GitHub Pages does, with gzip) would send for
            # the same requests: each file compressed, plus the same headers.
            query_gzip = sum(
                size - _body(site, url) + _gzipped(site, url) for url, size in query_log
            )
            results.append(
                {
                    "load_s": loaded,
                    "load_bytes": load_bytes,
                    "first_results_s": first,
                    "query_bytes": sum(size for _, size in query_log),
                    "query_requests": len(query_log),
                    "query_gzip_bytes": query_gzip,
                    "search_bytes": search_bytes,
                    "cards": page.locator(".il-card").count(),
                    "largest": sorted(query_log, key=lambda item: -item[1])[:3],
                    "requests": sorted(query_log, key=lambda item: -item[1]),
                }
            )
            context.close()
        browser.close()
    return results


def _file(site: Path, url: str) -> Path | None:
    path = site / url.split("?", 1)[0].split("#", 1)[0]
    return path if path.is_file() else None


def _body(site: Path, url: str) -> int:
    path = _file(site, url)
    return path.stat().st_size if path else 0


def _gzipped(site: Path, url: str) -> int:
    path = _file(site, url)
    return len(gzip.compress(path.read_bytes(), 6)) if path else 0


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--site", type=Path, default=Path("site"))
    parser.add_argument("--lang", default="ko")
    parser.add_argument("--query", default="인피니밴드 배선이")
    parser.add_argument("--runs", type=int, default=3)
    parser.add_argument("--list", action="store_true", help="list every request of the query")
    args = parser.parse_args()
    if not (args.site / args.lang / "search" / "index.js").is_file():
        sys.exit(f"{args.site} has no search index: build the site first (make site)")
    runs = measure(args.site, args.lang, args.query, args.runs)
    print(f"site {args.site}  lang {args.lang}  query {args.query!r}  runs {len(runs)}")
    print(
        f"  page load          median {statistics.median(r['load_s'] for r in runs) * 1000:7.0f} ms"
        f"  {statistics.median(r['load_bytes'] for r in runs) / 1024:8.1f} KiB"
    )
    first_ms = statistics.median(r["first_results_s"] for r in runs) * 1000
    print(
        f"  query to results   median {first_ms:7.0f} ms"
        f"  {statistics.median(r['query_bytes'] for r in runs) / 1024:8.1f} KiB"
        f" in {runs[0]['query_requests']} requests, {runs[0]['cards']} cards shown"
    )
    gzipped = statistics.median(r["query_gzip_bytes"] for r in runs)
    print(f"  the same, gzip-compressed as GitHub Pages sends text: {gzipped / 1024:8.1f} KiB")
    total = statistics.median(r["load_bytes"] + r["query_bytes"] for r in runs)
    search = statistics.median(r["search_bytes"] for r in runs)
    print(
        f"  load + first query {total / 1024:8.1f} KiB,"
        f" of which search data {search / 1024:.1f} KiB"
    )
    print(
        "  largest query requests: "
        + ", ".join(f"{u} {s / 1024:.1f} KiB" for u, s in runs[0]["largest"])
    )
    if args.list:
        for url, size in runs[0]["requests"]:
            print(f"    {size / 1024:8.1f} KiB  {url}")


if __name__ == "__main__":
    main()
