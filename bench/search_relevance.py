"""How well the site's search answers readers' queries, and how fast, in Chromium.

For every query of a query file (tests/site/search_queries.yml: a query and the cases expected
near the top), over http and from disk (file://), in both languages:
- recall@3: the share of expected cases among the first three results (of min(3, expected));
- MRR: the mean of 1 / rank of the first expected case within the first 20 results;
- agreement: the share of queries whose first 20 results are the same cases in the same order
  from both engines (and from the Python engine, with --python);
- time per query once the engine has loaded: median, 95th percentile and maximum, plus a few
  long queries (60, 120 and 250 words) that once took seconds to minutes.

Works on any built site whose library page exposes `IncidentLibrary.search(query, filters,
page)` (this round's and the first round's), so the figures before and after a change come from
one script:

    .venv/bin/python bench/search_relevance.py --site site --python
    .venv/bin/python bench/search_relevance.py --site /tmp/bench/1000/site --latency-only

Measurements, not tests: the machine is noisy, run it more than once.
"""

from __future__ import annotations

import argparse
import json
import statistics
import sys
import time
from pathlib import Path

import yaml

REPO = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(REPO / "tests"))

from browser import CHROMIUM, CHROMIUM_ARGS, serve  # noqa: E402

TOP = 20
# A query is given LIMIT_MS; one that takes longer is reported as not finished (the first
# round's engine did not finish a 250-word query in 90 s).
LIMIT_MS = 30_000
SEARCH = """async ([q, filters]) => {
  const started = performance.now();
  const late = new Promise(resolve => setTimeout(() => resolve(null), LIMIT));
  const r = await Promise.race([IncidentLibrary.search(q, filters, 1), late]);
  const ms = performance.now() - started;
  if (!r) return {ids: [], ms: Infinity};
  return {ids: (r.ids || r.items.map(i => i.id)).slice(0, 20), ms: ms};
}""".replace("LIMIT", str(LIMIT_MS))


KOREAN_WORDS = "인피니밴드 배선 학습 중단 GPU 드라이버 노드 장애 메모리 제한 파드 재시작 지연"
ENGLISH_WORDS = (
    "infiniband cabling training stopped gpu driver node outage memory limit pod restart"
)


def long_queries(lang: str) -> list[str]:
    """Queries of 60, 120 and 250 different words: real ones first, then made-up ones (each
    matches nothing, the worst case: a typo correction is looked for)."""
    real = (KOREAN_WORDS if lang == "ko" else ENGLISH_WORDS).split()
    queries = []
    for size in (60, 120, 250):  # each its own made-up words, so no search is cached
        made_up = [f"{word}{size}x{n}" for n in range(1, 30) for word in real]
        queries.append(" ".join([*real[: size % 7], *made_up][:size]))
    return queries


def measure_page(page, queries: list[dict], lang: str, latency_only: bool) -> dict:
    page.evaluate(SEARCH, ["", {}])  # loads the engine
    page.evaluate(SEARCH, [queries[0]["query"] if queries else "gpu", {}])
    answers, times = {}, []
    for case in queries:
        found = page.evaluate(SEARCH, [case["query"], {}])
        answers[case["query"]] = found["ids"]
        times.append(found["ms"])
    long_times = []
    for query in long_queries(lang):
        long_times.append(page.evaluate(SEARCH, [query, {}])["ms"])
    result = {"answers": answers, "times": times, "long": long_times}
    if not latency_only:
        result.update(relevance(queries, answers))
    return result


def relevance(queries: list[dict], answers: dict[str, list[str]]) -> dict:
    recall, reciprocal = 0.0, 0.0
    misses = []
    for case in queries:
        ids = answers[case["query"]]
        expected = case["expect"]
        hit = len(set(ids[:3]) & set(expected)) / min(3, len(expected))
        recall += hit
        ranks = [n for n, found in enumerate(ids, 1) if found in expected]
        reciprocal += 1 / ranks[0] if ranks else 0.0
        if hit < 1:
            misses.append(case["query"])
    n = max(len(queries), 1)
    return {"recall": recall / n, "mrr": reciprocal / n, "misses": misses}


def python_answers(queries: dict) -> dict:
    from datetime import date

    from generator.load.project import ProjectPaths
    from generator.model.library import build_library
    from generator.pipeline.check import check_project
    from generator.search.corpus import build_corpus
    from generator.search.engine import search

    checked = check_project(ProjectPaths.at(REPO), date.today())
    library = build_library(checked.taxonomy, checked.result.incidents)
    out = {}
    for lang, cases in queries.items():
        corpus = build_corpus(library, lang).corpus
        answers, times = {}, []
        for case in cases:
            started = time.perf_counter()
            answers[case["query"]] = list(search(corpus, case["query"]).ids[:TOP])
            times.append((time.perf_counter() - started) * 1000)
        out[lang] = {"answers": answers, "times": times, "long": [], **relevance(cases, answers)}
    return out


def percentile(values: list[float], share: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(share * len(ordered)))] if ordered else 0.0


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--site", type=Path, required=True, help="a built site folder")
    parser.add_argument("--queries", type=Path, default=REPO / "tests/site/search_queries.yml")
    parser.add_argument("--engines", default="http,file")
    parser.add_argument("--langs", default="ko,en")
    parser.add_argument("--python", action="store_true", help="also the Python engine (this repo)")
    parser.add_argument(
        "--latency-only", action="store_true", help="no relevance (synthetic sites)"
    )
    parser.add_argument("--json", type=Path, help="save the raw figures")
    args = parser.parse_args()

    from playwright.sync_api import sync_playwright

    queries = yaml.safe_load(args.queries.read_text(encoding="utf-8"))
    langs = args.langs.split(",")
    site = args.site.resolve()
    results: dict[str, dict[str, dict]] = {}
    with sync_playwright() as playwright, serve(site) as url:
        browser = playwright.chromium.launch(executable_path=CHROMIUM, args=CHROMIUM_ARGS)
        for engine in args.engines.split(","):
            base = url if engine == "http" else site.as_uri() + "/"
            for lang in langs:
                page = browser.new_context().new_page()
                page.goto(f"{base}{lang}/index.html")
                page.wait_for_selector("[data-il-library][data-il-ready]")
                print(f"{engine} {lang} ...", file=sys.stderr)
                found = measure_page(page, queries[lang], lang, args.latency_only)
                found["engine"] = page.get_attribute("[data-il-library]", "data-il-engine")
                results.setdefault(engine, {})[lang] = found
                page.context.close()
        browser.close()
    if args.python:
        results["python"] = python_answers({lang: queries[lang] for lang in langs})

    print(f"site: {site}   queries: {args.queries.name}   top {TOP}")
    print(
        f"{'engine':8} {'lang':4} {'n':>4} {'recall@3':>9} {'MRR':>6} "
        f"{'median ms':>10} {'p95 ms':>7} {'max ms':>7}  long queries (60/120/250 words) ms"
    )
    for engine, by_lang in results.items():
        for lang, found in by_lang.items():
            times = found["times"]
            quality = (
                f"{found['recall']:9.3f} {found['mrr']:6.3f}"
                if "recall" in found
                else f"{'-':>9} {'-':>6}"
            )
            longs = " / ".join(
                f"{t:.0f}" if t != float("inf") else f">{LIMIT_MS}" for t in found["long"]
            )
            print(
                f"{engine:8} {lang:4} {len(times):4d} {quality} "
                f"{statistics.median(times) if times else 0:10.1f} {percentile(times, 0.95):7.1f} "
                f"{max(times, default=0):7.1f}  {longs}"
            )
    engines = list(results)
    for lang in langs:
        for i, first in enumerate(engines):
            for second in engines[i + 1 :]:
                a, b = results[first][lang]["answers"], results[second][lang]["answers"]
                same = sum(1 for q in a if a[q] == b.get(q))
                print(
                    f"agreement {lang} {first} = {second}: {same}/{len(a)} "
                    f"({same / max(len(a), 1):.2f}) identical ordered top {TOP}"
                )
    for engine, by_lang in results.items():
        for lang, found in by_lang.items():
            if found.get("misses"):
                print(f"misses {engine} {lang}: {found['misses']}")
    if args.json:
        args.json.write_text(json.dumps(results, ensure_ascii=False, indent=1), encoding="utf-8")
    return 0


if __name__ == "__main__":
    sys.exit(main())
