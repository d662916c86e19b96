"""How well search answers readers' questions: the site's own engine against Pagefind, on the
same built pages, in Chromium.

For each query file given (a query and the cases expected near the top, by language: see
tests/site/search_questions.yml and search_queries.yml), for each engine and language:
- top 3: the share of queries with an expected case among the first three results;
- first: the share of queries whose first result is an expected case;
- results: the median share of the library a query's results hold (the cases the page counts,
  "사례 n건"); `listed`, the same with the cases listed after them as matching part of the query;
- the median time of a query once the engine has loaded.

Engines: `http` and `file` are the library page's own search (`IncidentLibrary.search`) over http
and from disk; `python` is the agent server's engine on the repository's library; `pagefind` is
Pagefind (PyPI's `pagefind[bin]`, installed in an environment of the benchmark's own, never the
project's) indexing the case pages of the same site (their article, both languages) and queried
from Chromium over http. Pagefind lists every page that has every query word, so its results
and its listed cases are the same.

    .venv/bin/incidents build
    .venv/bin/python bench/search_relevance.py --site site \\
        --queries tests/site/search_questions.yml --queries tests/site/search_queries.yml

Works on any built site whose library page exposes `IncidentLibrary.search(query, filters,
page)`, so the figures before and after a change come from one script. Measurements, not tests.
"""

from __future__ import annotations

import argparse
import json
import shutil
import statistics
import subprocess
import sys
import tempfile
import venv
from pathlib import Path

import yaml

REPO = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(REPO / "tests"))

from browser import CHROMIUM, CHROMIUM_ARGS, serve  # noqa: E402

TOP = 20
PAGEFIND = "pagefind[bin]==1.5.2"
PAGEFIND_ENV = REPO / ".cache" / "bench-pagefind"  # the benchmark's own environment
CASE_ROOT = "article.md-content__inner"  # what Pagefind indexes of a case page (title included)

SITE_SEARCH = """async queries => {
  const out = [];
  for (const q of queries) {
    const started = performance.now();
    const r = await IncidentLibrary.search(q, {}, 1);
    const ms = performance.now() - started;
    const ids = (r.ids || r.items.map(i => i.id)).slice(0, TOP);
    const results = r.exact === undefined ? r.total : r.exact;
    out.push({ids: ids, results: results, listed: r.total, ms: ms});
  }
  return out;
}""".replace("TOP", str(TOP))

PAGEFIND_SEARCH = """async queries => {
  const pagefind = await import("/pagefind/pagefind.js");
  await pagefind.options({basePath: "/pagefind/"});
  await pagefind.init();
  await pagefind.search("gpu");
  const out = [];
  for (const q of queries) {
    const started = performance.now();
    const r = await pagefind.search(q);
    const data = await Promise.all(r.results.slice(0, TOP).map(x => x.data()));
    const ms = performance.now() - started;
    const ids = data.map(d => d.url.split("/").pop().replace(/\\.html$/, ""));
    out.push({ids: ids, results: r.results.length, listed: r.results.length, ms: ms});
  }
  return out;
}""".replace("TOP", str(TOP))


def read_queries(paths: list[Path]) -> dict[str, list[dict]]:
    queries: dict[str, list[dict]] = {}
    for path in paths:
        for lang, cases in yaml.safe_load(path.read_text(encoding="utf-8")).items():
            queries.setdefault(lang, []).extend(cases)
    return queries


def score(cases: list[dict], found: list[dict], library: int) -> dict:
    """The figures of one engine and language (see the module's docstring)."""
    top3 = first = 0
    misses = []
    for case, answer in zip(cases, found, strict=True):
        expected, ids = set(case["expect"]), answer["ids"]
        top3 += bool(expected & set(ids[:3]))
        first += bool(ids) and ids[0] in expected
        if not ids or ids[0] not in expected:
            misses.append(f"{case['query']!r} -> {ids[:3]}")
    n = max(len(cases), 1)
    return {
        "n": len(cases),
        "top3": top3,
        "first": first,
        "results": statistics.median(a["results"] / library for a in found) if found else 0,
        "listed": statistics.median(a["listed"] / library for a in found) if found else 0,
        "ms": statistics.median(a["ms"] for a in found) if found else 0,
        "share_top3": top3 / n,
        "share_first": first / n,
        "misses": misses,
    }


def pagefind_environment() -> Path:
    """The Python of the benchmark's own environment with Pagefind, made on first use."""
    python = PAGEFIND_ENV / "bin" / "python"
    if not python.exists():
        venv.create(PAGEFIND_ENV, with_pip=True)
        subprocess.run(
            [
                str(python),
                "-m",
                "pip",
                "install",
                "--quiet",
                "--disable-pip-version-check",
                PAGEFIND,
            ],
            check=True,
        )
    return python


def pagefind_site(site: Path, langs: list[str], into: Path) -> Path:
    """A copy of the case pages with Pagefind's index of them, and one blank page per language
    for queries (Pagefind picks the index of the page's language)."""
    copy = into / "site"
    for lang in langs:
        shutil.copytree(site / lang / "cases", copy / lang / "cases")
        (copy / f"pagefind-{lang}.html").write_text(
            f'<!doctype html><html lang="{lang}"><head><meta charset="utf-8"></head></html>',
            encoding="utf-8",
        )
    subprocess.run(
        [
            str(pagefind_environment()),
            "-m",
            "pagefind",
            "--site",
            str(copy),
            "--glob",
            "*/cases/*.html",
            "--root-selector",
            CASE_ROOT,
            "--quiet",
        ],
        check=True,
    )
    return copy


def browser_answers(site: Path, engines: list[str], queries: dict[str, list[dict]]) -> dict:
    from playwright.sync_api import sync_playwright

    out: dict[str, dict[str, list[dict]]] = {}
    with tempfile.TemporaryDirectory() as scratch, sync_playwright() as playwright:
        browser = playwright.chromium.launch(executable_path=CHROMIUM, args=CHROMIUM_ARGS)
        with serve(site) as url:
            for engine in (e for e in engines if e in ("http", "file")):
                base = url if engine == "http" else site.as_uri() + "/"
                for lang, cases in queries.items():
                    page = browser.new_context().new_page()
                    page.goto(f"{base}{lang}/index.html")
                    page.wait_for_selector("[data-il-library][data-il-ready]")
                    page.evaluate(SITE_SEARCH, ["gpu"])  # loads the engine
                    found = page.evaluate(SITE_SEARCH, [c["query"] for c in cases])
                    out.setdefault(engine, {})[lang] = found
                    page.context.close()
        if "pagefind" in engines:
            indexed = pagefind_site(site, list(queries), Path(scratch))
            with serve(indexed) as url:
                for lang, cases in queries.items():
                    page = browser.new_context().new_page()
                    page.goto(f"{url}pagefind-{lang}.html")
                    found = page.evaluate(PAGEFIND_SEARCH, [c["query"] for c in cases])
                    out.setdefault("pagefind", {})[lang] = found
                    page.context.close()
        browser.close()
    return out


def python_answers(queries: dict[str, list[dict]]) -> tuple[dict, int]:
    import time
    from datetime import date

    from generator.load.project import ProjectPaths
    from generator.model.library import build_library
    from generator.pipeline.check import check_project
    from generator.search.corpus import build_corpus
    from generator.search.engine import search

    checked = check_project(ProjectPaths.at(REPO), date.today())
    library = build_library(checked.taxonomy, checked.result.incidents)
    out: dict[str, list[dict]] = {}
    for lang, cases in queries.items():
        corpus = build_corpus(library, lang).corpus
        found = []
        for case in cases:
            started = time.perf_counter()
            result = search(corpus, case["query"])
            ms = (time.perf_counter() - started) * 1000
            found.append(
                {
                    "ids": list(result.ids[:TOP]),
                    "results": result.exact,
                    "listed": result.total,
                    "ms": ms,
                }
            )
        out[lang] = found
    return out, len(library.incidents)


def library_size(site: Path) -> int:
    data = json.loads((site / "api" / "incidents.json").read_text(encoding="utf-8"))
    return len(data["incidents"])


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--site", type=Path, required=True, help="a built site folder")
    parser.add_argument(
        "--queries", type=Path, action="append", help="a query file (may be given more than once)"
    )
    parser.add_argument("--engines", default="http,file,python,pagefind")
    parser.add_argument("--langs", default="ko,en")
    parser.add_argument("--misses", action="store_true", help="list the queries each engine misses")
    parser.add_argument("--json", type=Path, help="save the raw answers")
    args = parser.parse_args()

    files = args.queries or [REPO / "tests/site/search_questions.yml"]
    queries = {lang: cases for lang, cases in read_queries(files).items() if lang in args.langs}
    engines = args.engines.split(",")
    site = args.site.resolve()
    answers = browser_answers(site, engines, queries)
    size = library_size(site)
    if "python" in engines:
        answers["python"], python_size = python_answers(queries)
        if python_size != size:
            print(f"note: the repository has {python_size} cases, the site {size}", file=sys.stderr)

    names = ", ".join(p.name for p in files)
    print(f"site: {site} ({size} cases)   queries: {names}")
    print(
        f"{'engine':9} {'lang':4} {'n':>3} {'top 3':>11} {'first':>11} "
        f"{'results':>8} {'listed':>7} {'ms':>6}"
    )
    figures: dict[str, dict[str, dict]] = {}
    for engine in engines:
        for lang in queries:
            if lang not in answers.get(engine, {}):
                continue
            found = score(queries[lang], answers[engine][lang], size)
            figures.setdefault(engine, {})[lang] = found
            print(
                f"{engine:9} {lang:4} {found['n']:3d} "
                f"{found['top3']:3d} ({found['share_top3']:4.0%}) "
                f"{found['first']:3d} ({found['share_first']:4.0%}) "
                f"{found['results']:8.1%} {found['listed']:7.1%} {found['ms']:6.1f}"
            )
    site_engines = [e for e in ("http", "file", "python") if e in answers]
    for lang in queries:
        for other in site_engines[1:]:
            first = answers[site_engines[0]][lang]
            same = sum(
                a["ids"] == b["ids"] and a["results"] == b["results"]
                for a, b in zip(first, answers[other][lang], strict=True)
            )
            print(
                f"agreement {lang} {site_engines[0]} = {other}: "
                f"{same}/{len(first)} identical top {TOP}"
            )
    if args.misses:
        for engine, by_lang in figures.items():
            for lang, found in by_lang.items():
                for miss in found["misses"]:
                    print(f"miss {engine} {lang}: {miss}")
    if args.json:
        args.json.write_text(json.dumps(answers, ensure_ascii=False, indent=1), encoding="utf-8")
    return 0


if __name__ == "__main__":
    sys.exit(main())
