"""How the site build scales: synthetic libraries of N incidents against a plain Material site.

    .venv/bin/python bench/run.py [--sizes 100,1000,10000] [--keep] [--timeout 900] [--json FILE]

For each N it writes a synthetic project (bench/generate.py) and measures, each in a fresh process:

- `incidents check --root DIR`: wall time and peak memory;
- `incidents check` again, with the per-file cache (warm), and with nothing changed since;
- `mkdocs build` of the project, with the plugin's hooks timed inside the build process, split into
  core (load + validate, library, pages, search data + graph, render, plugin glue) and MkDocs
  (everything else, interpreter start-up included); peak RSS of the build process and of its
  child processes (the forked workers); site size; case page sizes; search index size;
- the baseline: a plain Material build (navigation.prune, no plugin, no search) of as many
  case pages (2×N, written as Markdown by `generate.write_plain_pages`), and the ratio ours/plain.

Every build runs with a timeout (15 minutes by default) and reports "timeout" instead of hanging.
Results are printed as a table at the end. See bench/README.md for what each figure means.
"""

from __future__ import annotations

import argparse
import contextlib
import functools
import inspect
import json
import os
import platform
import resource
import shutil
import signal
import statistics
import subprocess
import sys
import tempfile
import threading
import time
from collections import defaultdict
from dataclasses import asdict, dataclass
from datetime import UTC, datetime
from pathlib import Path

BENCH = Path(__file__).resolve().parent
REPO = BENCH.parent
sys.path.insert(0, str(BENCH))

from generate import write_plain_pages, write_project  # noqa: E402

from generator.pipeline.check_cache import RACY_SECONDS  # noqa: E402

VENV_BIN = Path(sys.executable).parent
INCIDENTS = VENV_BIN / "incidents"
ENV = {**os.environ, "NO_MKDOCS_2_WARNING": "1", "PYTHONDONTWRITEBYTECODE": "1"}

# Functions the core's build (generator.pipeline.site) and the plugin call, timed inside the build
# process, and the stage they belong to. Names no longer used are skipped; plugin work not listed
# here shows up as "other plugin work".
CORE_STAGES = {
    "check_project": "load + validate",
    "build_library": "library",
    "build_pages": "pages",
    "layout_terms": "search data + graph",
    "graph_payload": "search data + graph",
    "terms_payload": "search data + graph",
    "cases_payload": "search data + graph",
    "as_script": "search data + graph",
    "index_cases": "search corpus + index",
    "build_corpus": "search corpus + index",
    "search_files": "search corpus + index",
    "markdown_files": "Markdown (.md, llms.txt)",
    "api_files": "exports + feeds",
    "atom_feed": "exports + feeds",
    "_start_render": "render (left after the above)",
    "_rendered": "render (left after the above)",
    "with_policy": "CSP (post-page)",
    "write": "frames + writing files",
}
STAGE_ORDER = (
    "load + validate",
    "library",
    "pages",
    "search data + graph",
    "search corpus + index",
    "exports + feeds",
    "Markdown (.md, llms.txt)",
    "render (left after the above)",
    "CSP (post-page)",
    "frames + writing files",
    "other plugin work",
)


# --- running a child process -------------------------------------------------------------------


@dataclass
class Run:
    """One child process: wall and CPU time, exit code, peak RSS (largest process) and timeout.

    CPU time (user + system, the child and every descendant it waited for) is less disturbed than
    wall time when other work shares the machine.
    """

    seconds: float
    cpu_seconds: float
    returncode: int | None
    maxrss_mib: float
    timed_out: bool
    log: str

    @property
    def ok(self) -> bool:
        return not self.timed_out and self.returncode == 0


def run_timed(command: list[str], log: Path, timeout: float, cwd: Path | None = None) -> Run:
    """Run `command`, output to `log`; kill its whole process group after `timeout` seconds.

    `os.wait4` gives this child's own resource usage, so peak memory is per build, not the
    high-water mark of every child this harness has run. On Linux its ru_maxrss is the largest RSS
    of the child or of any descendant it waited for, in KiB.
    """
    with log.open("wb") as out:
        started = time.perf_counter()
        process = subprocess.Popen(
            command, stdout=out, stderr=subprocess.STDOUT, cwd=cwd, env=ENV, start_new_session=True
        )
        fired = threading.Event()

        def kill() -> None:
            fired.set()
            with contextlib.suppress(ProcessLookupError):
                os.killpg(process.pid, signal.SIGKILL)  # the group this Popen created, only

        timer = threading.Timer(timeout, kill)
        timer.start()
        try:
            _, status, usage = os.wait4(process.pid, 0)
        finally:
            timer.cancel()
        seconds = time.perf_counter() - started
    process.returncode = os.waitstatus_to_exitcode(status)
    cpu = usage.ru_utime + usage.ru_stime
    return Run(seconds, cpu, process.returncode, usage.ru_maxrss / 1024, fired.is_set(), str(log))


# --- the instrumented build (runs in the child process) ----------------------------------------


def child_build(project: Path, result: Path) -> None:
    """`mkdocs build` of `project` in this process, with the plugin's work timed; JSON to `result`.

    Wraps the plugin's hooks and the core functions the build calls (names in
    generator.pipeline.site and the plugin module), then runs MkDocs' own `build` command. Nothing
    on disk is changed.
    """
    from mkdocs.__main__ import cli

    import generator.adapters.mkdocs.frames as frames
    import generator.adapters.mkdocs.plugin as plugin
    import generator.pipeline.site as site

    seconds: dict[str, float] = defaultdict(float)
    calls: dict[str, int] = defaultdict(int)

    def timed(name: str, func):
        def iterated(items):  # a generator's work happens as it is iterated: timed there
            started = time.perf_counter()
            try:
                for item in items:
                    seconds[name] += time.perf_counter() - started
                    yield item
                    started = time.perf_counter()
            finally:
                seconds[name] += time.perf_counter() - started

        @functools.wraps(func)
        def wrapper(*args, **kwargs):
            started = time.perf_counter()
            try:
                result = func(*args, **kwargs)
                return iterated(result) if inspect.isgenerator(result) else result
            finally:
                seconds[name] += time.perf_counter() - started
                calls[name] += 1

        return wrapper

    for name in CORE_STAGES:
        for module in (site, plugin, frames):
            if callable(getattr(module, name, None)):
                setattr(module, name, timed(name, getattr(module, name)))
    cls = plugin.IncidentLibraryPlugin
    hooks = [name for name in vars(cls) if name.startswith("on_") and name != "on_serve"]
    for hook in hooks:
        setattr(cls, hook, timed(f"hook:{hook}", getattr(cls, hook)))

    started = time.perf_counter()
    cli.main(["build", "--clean", "-f", str(project / "mkdocs.yml")], standalone_mode=False)
    build_seconds = time.perf_counter() - started
    own = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss
    children = resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss  # the forked workers
    payload = {
        "seconds": dict(seconds),
        "calls": dict(calls),
        "hooks": hooks,
        "build_seconds": build_seconds,
        "maxrss_python_mib": own / 1024,
        "maxrss_children_mib": children / 1024,
    }
    result.write_text(json.dumps(payload, indent=2), encoding="utf-8")


# --- measuring one size ------------------------------------------------------------------------


def folder_size(folder: Path) -> tuple[int, int]:
    """(bytes, files) under `folder`."""
    total = count = 0
    for path in folder.rglob("*"):
        if path.is_file():
            total += path.stat().st_size
            count += 1
    return total, count


def page_sizes(folder: Path) -> list[int]:
    return sorted(p.stat().st_size for p in folder.glob("*.html"))


def measure(
    count: int,
    work: Path,
    timeout: float,
    seed: int,
    plain_layout: str | None = "by-month",
) -> dict:
    """Every figure for a library of `count` incidents, in `work` (created, left in place).
    `plain_layout`: how the baseline's pages are foldered (None: no baseline)."""
    row: dict = {"incidents": count, "case_pages": 2 * count, "load_before": os.getloadavg()[0]}
    row["plain_layout"] = plain_layout or "-"
    project, plain = work / "project", work / "plain"

    started = time.perf_counter()
    write_project(count, project, seed)
    row["generate_s"] = time.perf_counter() - started
    status(f"N={count}: generated {2 * count} files in {row['generate_s']:.1f} s")

    check = run_timed(
        [str(INCIDENTS), "check", "--root", str(project)], work / "check.log", timeout
    )
    row["check"] = asdict(check)
    status(f"N={count}: incidents check {_seconds(check)}")
    report_failure(check)
    # Stats younger than RACY_SECONDS are never trusted (pipeline/check_cache.py): wait that long
    # after writing the corpus, then a check with the cold run's per-file cache ("warm", which
    # stores the report) and one with nothing changed since ("unchanged").
    time.sleep(max(0.0, started + row["generate_s"] + RACY_SECONDS + 0.5 - time.perf_counter()))
    for name in ("check_warm", "check_unchanged"):
        again = run_timed(
            [str(INCIDENTS), "check", "--root", str(project)], work / f"{name}.log", timeout
        )
        row[name] = asdict(again)
        status(f"N={count}: incidents check ({name[6:]}) {_seconds(again)}")
        report_failure(again)

    result = work / "build.json"
    build = run_timed(
        [sys.executable, str(Path(__file__).resolve()), "--child-build", str(project), str(result)],
        work / "build.log",
        timeout,
        cwd=project,
    )
    row["build"] = asdict(build)
    status(f"N={count}: build {_seconds(build)}")
    report_failure(build)
    if build.ok:
        inner = json.loads(result.read_text(encoding="utf-8"))
        timed = inner["seconds"]
        stages: dict[str, float] = defaultdict(float)
        for name, stage in CORE_STAGES.items():
            stages[stage] += timed.get(name, 0.0)
        # Everything the plugin's hooks did (publishing included).
        core = sum(v for k, v in timed.items() if k.startswith("hook:"))
        stages["other plugin work"] = core - sum(stages.values())
        row["core_s"] = core
        row["stages_s"] = dict(stages)
        row["mkdocs_s"] = build.seconds - core
        row["maxrss_python_mib"] = inner["maxrss_python_mib"]
        row["maxrss_children_mib"] = inner["maxrss_children_mib"]
        site = project / "site"
        row["site_bytes"], row["site_files"] = folder_size(site)
        cases = page_sizes(site / "ko" / "cases")
        row["case_html_median"] = statistics.median(cases) if cases else 0
        row["case_html_max"] = max(cases, default=0)
        sizes = [folder_size(site / lang / "search") for lang in ("ko", "en")]
        row["search_bytes"] = sum(size for size, _ in sizes)
        row["search_files"] = sum(files for _, files in sizes)

    if plain_layout is None:
        row["plain"] = asdict(Run(0.0, 0.0, None, 0.0, False, "skipped (--no-plain)"))
        row["load_after"] = os.getloadavg()[0]
        return row
    write_plain_pages(2 * count, plain, seed, plain_layout)
    baseline = run_timed(
        [sys.executable, "-m", "mkdocs", "build", "--clean", "-f", str(plain / "mkdocs.yml")],
        work / "plain.log",
        timeout,
        cwd=plain,
    )
    row["plain"] = asdict(baseline)
    status(f"N={count}: plain Material build of {2 * count} pages {_seconds(baseline)}")
    report_failure(baseline)
    if baseline.ok:
        row["plain_site_bytes"], row["plain_site_files"] = folder_size(plain / "site")
        plain_cases = sorted(p.stat().st_size for p in (plain / "site" / "ko").rglob("*.html"))
        row["plain_case_html_median"] = statistics.median(plain_cases) if plain_cases else 0
    if build.ok and baseline.ok:
        row["ratio_total"] = build.seconds / baseline.seconds
        row["ratio_cpu"] = build.cpu_seconds / baseline.cpu_seconds
    row["load_after"] = os.getloadavg()[0]
    return row


# --- output ------------------------------------------------------------------------------------


def status(message: str) -> None:
    print(f"[{time.strftime('%H:%M:%S')}] {message}", file=sys.stderr, flush=True)


def report_failure(run: Run) -> None:
    """Show the end of a failed command's output (its log is deleted with the work folder)."""
    if run.ok or run.timed_out or run.returncode is None:
        return
    lines = Path(run.log).read_text(encoding="utf-8", errors="replace").splitlines()
    status("last lines of the output:\n    " + "\n    ".join(lines[-15:]))


def _seconds(run: Run, cpu: bool = False) -> str:
    if run.timed_out:
        return "timeout"
    if run.returncode is None:
        return "skipped"
    if run.returncode != 0:
        return f"failed (exit {run.returncode}; see {run.log})"
    return f"{run.seconds:.1f} s" + (f" (CPU {run.cpu_seconds:.1f} s)" if cpu else "")


def _mb(n: float) -> str:
    return f"{n / 1e6:,.1f} MB"


def _kib(n: float) -> str:
    return f"{n / 1024:,.1f} KiB"


def table(rows: list[dict]) -> str:
    """The results as a plain-text table, one column per N."""

    def value(row: dict, key: str):
        build_ok = row["build"]["returncode"] == 0 and not row["build"]["timed_out"]
        plain_ok = row["plain"]["returncode"] == 0 and not row["plain"]["timed_out"]
        stages = row.get("stages_s", {})
        match key:
            case "check":
                return _seconds(Run(**row["check"]))
            case "check_warm" | "check_unchanged":
                return _seconds(Run(**row[key])) if key in row else "-"
            case "check_rss":
                return f"{row['check']['maxrss_mib']:,.0f} MiB"
            case "build":
                return _seconds(Run(**row["build"]), cpu=True)
            case "plain":
                return _seconds(Run(**row["plain"]), cpu=True)
            case "load":
                return f"{row['load_before']:.1f} → {row.get('load_after', 0.0):.1f}"
            case "plain_rss":
                return f"{row['plain']['maxrss_mib']:,.0f} MiB" if plain_ok else "-"
        if key.startswith("plain_") and not plain_ok:
            return "-"
        if not key.startswith("plain_") and not build_ok and key not in ("incidents", "gen"):
            return "-"
        match key:
            case "incidents":
                return f"{row['incidents']:,} ({row['case_pages']:,} case pages)"
            case "gen":
                return f"{row['generate_s']:.1f} s"
            case "core":
                return f"{row['core_s']:.1f} s"
            case "mkdocs":
                return f"{row['mkdocs_s']:.1f} s"
            case "plain_layout":
                return row.get("plain_layout", "flat")
            case "per_page":
                return f"{row['build']['seconds'] / row['case_pages'] * 1000:.1f} ms"
            case "rss_py":
                return f"{row['maxrss_python_mib']:,.0f} MiB"
            case "rss_pf":
                return f"{row['maxrss_children_mib']:,.0f} MiB"
            case "site":
                return f"{_mb(row['site_bytes'])}, {row['site_files']:,} files"
            case "case_html":
                return f"{_kib(row['case_html_median'])} / {_kib(row['case_html_max'])}"
            case "index":
                return f"{_mb(row['search_bytes'])}, {row['search_files']:,} files"
            case "plain_site":
                return f"{_mb(row['plain_site_bytes'])}, {row['plain_site_files']:,} files"
            case "plain_case_html":
                return _kib(row["plain_case_html_median"])
            case "ratio_total" | "ratio_cpu":
                return f"{row[key]:.2f}×" if key in row else "-"
        if key.startswith("stage:"):
            return f"{stages.get(key[6:], 0.0):.2f} s"
        raise KeyError(key)

    stage_names = [s for s in STAGE_ORDER if any(s in row.get("stages_s", {}) for row in rows)]
    lines = [
        ("incidents", "incidents"),
        ("generate corpus", "gen"),
        ("incidents check", "check"),
        ("  peak RSS", "check_rss"),
        ("  again, per-file cache (warm)", "check_warm"),
        ("  again, nothing changed", "check_unchanged"),
        ("build, total (wall)", "build"),
        ("  core (plugin hooks)", "core"),
        *[(f"    {name}", f"stage:{name}") for name in stage_names],
        ("  MkDocs (incl. start-up)", "mkdocs"),
        ("  per case page", "per_page"),
        ("peak RSS, build process", "rss_py"),
        ("peak RSS, largest child (workers)", "rss_pf"),
        ("site", "site"),
        ("case page HTML, median / max", "case_html"),
        ("search index (<lang>/search/)", "index"),
        ("plain Material build, 2×N pages", "plain"),
        ("  page folders", "plain_layout"),
        ("  peak RSS", "plain_rss"),
        ("  site", "plain_site"),
        ("  case page HTML, median", "plain_case_html"),
        ("ratio build / plain", "ratio_total"),
        ("ratio CPU time build / plain", "ratio_cpu"),
        ("load average (1 min), start → end", "load"),
    ]
    headers = ["", *[f"N={row['incidents']:,}" for row in rows]]
    body = [[label, *[value(row, key) for row in rows]] for label, key in lines]
    widths = [max(len(r[i]) for r in [headers, *body]) for i in range(len(headers))]
    out = ["  ".join(cell.ljust(w) for cell, w in zip(headers, widths, strict=True))]
    out.append("  ".join("-" * w for w in widths))
    out += ["  ".join(cell.ljust(w) for cell, w in zip(r, widths, strict=True)) for r in body]
    return "\n".join(line.rstrip() for line in out)


def machine() -> str:
    """One line about where the figures were measured."""
    from importlib.metadata import version

    import mkdocs

    return (
        f"{datetime.now(UTC):%Y-%m-%d} · {os.cpu_count()} CPUs (nproc) · "
        f"{platform.system()} {platform.machine()} · Python {platform.python_version()} · "
        f"mkdocs {mkdocs.__version__} · mkdocs-material {version('mkdocs-material')}"
    )


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--sizes", default="100,1000,10000", help="comma-separated incident counts")
    parser.add_argument("--keep", action="store_true", help="keep the generated projects and sites")
    parser.add_argument("--workdir", type=Path, help="where to work (default: a new temp folder)")
    parser.add_argument("--timeout", type=float, default=900, help="seconds allowed per build")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--json", type=Path, help="also write the raw figures here")
    parser.add_argument(
        "--no-plain",
        action="store_true",
        help="skip the plain Material baseline",
    )
    parser.add_argument(
        "--plain-layout",
        choices=("by-month", "flat"),
        default="by-month",
        help="the baseline's page folders: by-month (docs/<lang>/cases/<year>/<month>/, the "
        "default) or flat (docs/<lang>/cases/, whose navigation grows with the square of N)",
    )
    parser.add_argument("--child-build", nargs=2, type=Path, help=argparse.SUPPRESS)
    args = parser.parse_args(argv)
    if args.child_build:
        child_build(*args.child_build)
        return
    try:
        sizes = [int(s) for s in args.sizes.split(",") if s.strip()]
    except ValueError:
        parser.error("--sizes takes comma-separated integers, e.g. 100,1000")
    if not sizes or min(sizes) < 1:
        parser.error("--sizes needs positive counts")

    if args.workdir:
        args.workdir.mkdir(parents=True, exist_ok=True)
        root = Path(tempfile.mkdtemp(prefix="incident-bench-", dir=args.workdir))
    else:
        root = Path(tempfile.mkdtemp(prefix="incident-bench-"))
    status(f"working in {root}")
    # The check's cache goes with the projects (a folder per project path), not in ~/.cache.
    ENV["XDG_CACHE_HOME"] = str(root / "cache")
    rows = []
    try:
        for count in sizes:
            work = root / f"n{count}"
            work.mkdir()
            layout = None if args.no_plain else args.plain_layout
            rows.append(measure(count, work, args.timeout, args.seed, layout))
            if not args.keep:
                shutil.rmtree(work)
            if args.json:
                args.json.write_text(json.dumps(rows, indent=2), encoding="utf-8")
    finally:
        if args.keep:
            status(f"kept {root}")
        else:
            shutil.rmtree(root, ignore_errors=True)
    print(machine())
    print(table(rows))


if __name__ == "__main__":
    main()
