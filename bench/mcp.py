"""How the agent server (`incidents mcp`) starts and answers at scale.

    .venv/bin/python bench/mcp.py [--sizes 1000,10000] [--repeat 5] [--keep] [--json FILE]

For each N it writes a synthetic project (bench/generate.py) and the exports a build of it would
write (api/incidents.json and taxonomy.json, made by the core without MkDocs), then starts the
server both ways, `--root PROJECT` and `--from PROJECT/api`, each in a fresh process, and speaks
JSON-RPC to it over stdio as a client would:

- start-up: from starting the process to the `initialize` answer, and to the first tool answer
  (a search sent right after the handshake: it waits for the library and its search index);
- the library's own report of how long it took to load (its line on standard error);
- query latency: each kind of call `--repeat` times once the library is loaded (median and
  slowest), with the size of its answer;
- the server's peak resident memory.

Measurements, not tests: run it on a quiet machine; one size at a time runs one server at a time.
"""

from __future__ import annotations

import argparse
import json
import os
import platform
import re
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from dataclasses import asdict, dataclass, field
from datetime import date
from pathlib import Path

BENCH = Path(__file__).resolve().parent
sys.path.insert(0, str(BENCH))

from generate import write_project  # noqa: E402

INCIDENTS = Path(sys.executable).parent / "incidents"

# Calls an agent makes, each sent `--repeat` times once the library is loaded.
CALLS: list[tuple[str, str, dict]] = [
    ("search, English words", "search_incidents", {"query": "NCCL timeout GPU", "limit": 10}),
    ("search, Korean words", "search_incidents", {"query": "드라이버 업데이트 후 노드"}),
    ("list by a filter", "search_incidents", {"filters": {"component": ["gpu"]}, "limit": 50}),
    (
        "list by dates and language",
        "search_incidents",
        {"occurred_from": "2020", "occurred_to": "2021-06", "original_language": "ko"},
    ),
    ("list everything, page 3", "search_incidents", {"limit": 50, "offset": 100}),
    ("get a case", "get_incident", {"id": "{first}", "lang": "en"}),
    ("related cases", "related_incidents", {"id": "{first}"}),
    ("top components", "top_components", {"limit": 10}),
    ("terms of a facet", "list_terms", {"facet": "organization"}),
]


@dataclass
class Run:
    size: int
    mode: str
    initialize_s: float = 0.0
    first_answer_s: float = 0.0
    loaded_s: float | None = None
    peak_rss_mb: float = 0.0
    calls: dict[str, dict] = field(default_factory=dict)


class Server:
    """`incidents mcp ARGS` spoken to line by line, as a stdio client does."""

    def __init__(self, args: list[str]) -> None:
        self.started = time.perf_counter()
        self.process = subprocess.Popen(
            [str(INCIDENTS), "mcp", *args],
            stdin=subprocess.PIPE,
            stdout=subprocess.PIPE,
            stderr=subprocess.PIPE,
            text=True,
            encoding="utf-8",
        )
        self.next_id = 0

    def request(self, method: str, params: dict) -> tuple[dict, int]:
        """The answer to one request and its size in characters."""
        self.next_id += 1
        message = {"jsonrpc": "2.0", "id": self.next_id, "method": method, "params": params}
        self.process.stdin.write(json.dumps(message) + "\n")
        self.process.stdin.flush()
        while True:
            line = self.process.stdout.readline()
            if not line:
                raise SystemExit(f"the server ended: {self.process.stderr.read()[-2000:]}")
            answer = json.loads(line)
            if answer.get("id") == self.next_id:
                return answer, len(line)

    def notify(self, method: str) -> None:
        self.process.stdin.write(json.dumps({"jsonrpc": "2.0", "method": method}) + "\n")
        self.process.stdin.flush()

    def call(self, tool: str, arguments: dict) -> tuple[dict, int]:
        answer, size = self.request("tools/call", {"name": tool, "arguments": arguments})
        result = answer.get("result", {})
        if "error" in answer or result.get("isError"):
            raise SystemExit(f"{tool}({arguments}) failed: {answer}")
        return result["structuredContent"], size

    def peak_rss_mb(self) -> float:
        status = Path(f"/proc/{self.process.pid}/status").read_text()
        found = re.search(r"VmHWM:\s+(\d+) kB", status)
        return int(found.group(1)) / 1024 if found else 0.0

    def stop(self) -> str:
        self.process.stdin.close()
        try:
            self.process.wait(timeout=30)
        except subprocess.TimeoutExpired:
            self.process.kill()
            self.process.wait()
        return self.process.stderr.read()


def measure(size: int, mode: str, args: list[str], repeat: int) -> Run:
    run = Run(size, mode)
    server = Server(args)
    server.request(
        "initialize",
        {
            "protocolVersion": "2025-11-25",
            "capabilities": {},
            "clientInfo": {"name": "bench", "version": "0"},
        },
    )
    run.initialize_s = time.perf_counter() - server.started
    server.notify("notifications/initialized")
    first, _ = server.call("search_incidents", {"query": "GPU", "limit": 1})
    run.first_answer_s = time.perf_counter() - server.started
    first_id = first["results"][0]["id"]
    for label, tool, arguments in CALLS:
        arguments = json.loads(json.dumps(arguments).replace("{first}", first_id))
        times, size_of = [], 0
        for _ in range(repeat):
            started = time.perf_counter()
            _, size_of = server.call(tool, arguments)
            times.append(time.perf_counter() - started)
        run.calls[label] = {
            "median_ms": statistics.median(times) * 1000,
            "slowest_ms": max(times) * 1000,
            "answer_chars": size_of,
        }
    run.peak_rss_mb = server.peak_rss_mb()
    errors = server.stop()
    loaded = re.search(r"loaded in ([\d.]+) s", errors)
    run.loaded_s = float(loaded.group(1)) if loaded else None
    return run


def write_exports(project: Path) -> Path:
    """The api/ folder a build of `project` would write (JSON exports only, made by the core)."""
    from generator.load.files import ProjectPaths
    from generator.model.library import build_library
    from generator.outputs.exports import api_files
    from generator.pipeline.check import check_project
    from generator.pipeline.executor import default_executor

    checked = check_project(ProjectPaths.at(project), date.today(), executor=default_executor())
    library = build_library(checked.taxonomy, checked.result.incidents, default_executor())
    for path, data in api_files(library).items():
        if path.endswith(".json"):
            (project / path).parent.mkdir(parents=True, exist_ok=True)
            (project / path).write_bytes(data)
    return project / "api"


def table(runs: list[Run]) -> str:
    lines = [
        "| cases | server | initialize | first search answered | library loaded | peak memory |",
        "|---:|---|---:|---:|---:|---:|",
    ]
    for r in runs:
        loaded = f"{r.loaded_s:.1f} s" if r.loaded_s is not None else "?"
        lines.append(
            f"| {r.size:,} | `{r.mode}` | {r.initialize_s:.2f} s | {r.first_answer_s:.1f} s "
            f"| {loaded} | {r.peak_rss_mb:,.0f} MB |"
        )
    lines += [
        "",
        "| cases | server | call | median | slowest | answer |",
        "|---:|---|---|---:|---:|---:|",
    ]
    for r in runs:
        for label, c in r.calls.items():
            lines.append(
                f"| {r.size:,} | `{r.mode}` | {label} | {c['median_ms']:.0f} ms "
                f"| {c['slowest_ms']:.0f} ms | {c['answer_chars'] / 1000:.1f} k chars |"
            )
    return "\n".join(lines)


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--sizes", default="1000,10000")
    parser.add_argument("--repeat", type=int, default=5, help="times each call is sent")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--workdir", type=Path, default=None)
    parser.add_argument("--keep", action="store_true", help="keep the generated projects")
    parser.add_argument("--json", type=Path, default=None, help="save the raw figures")
    options = parser.parse_args(argv)
    work = Path(tempfile.mkdtemp(prefix="bench-mcp-", dir=options.workdir))
    runs: list[Run] = []
    try:
        for size in [int(s) for s in options.sizes.split(",")]:
            print(f"{size:,} cases: writing the project and its exports", file=sys.stderr)
            project = write_project(size, work / f"n{size}", options.seed)
            exports = write_exports(project)
            for mode, args in [
                ("--from", ["--from", str(exports)]),
                ("--root", ["--root", str(project)]),
            ]:
                print(f"{size:,} cases: incidents mcp {mode}", file=sys.stderr)
                runs.append(measure(size, mode, args, options.repeat))
            if not options.keep:
                shutil.rmtree(project)
    finally:
        if not options.keep:
            shutil.rmtree(work, ignore_errors=True)
        else:
            print(f"kept {work}", file=sys.stderr)
    print(f"{date.today()}, {platform.python_version()}, {os.cpu_count()} CPUs", file=sys.stderr)
    print(table(runs))
    if options.json:
        options.json.write_text(json.dumps([asdict(r) for r in runs], indent=1), encoding="utf-8")


if __name__ == "__main__":
    main()
