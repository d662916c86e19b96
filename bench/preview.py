"""How long an edit takes to show in the live preview (`incidents serve`) of a synthetic library.

    .venv/bin/python bench/preview.py [--count 1000] [--edits 5] [--seed 1]

Writes a synthetic project (bench/generate.py) to a temporary folder, starts `incidents serve` on
it, waits for the first build, then edits the title of one incident at a time (in its canonical
file) and measures, from the moment the file is written, how long until the server returns the
case page with the new title: the rebuild the browser's live reload waits for. Prints each
edit's time, then the median. A measurement, not a test.
"""

from __future__ import annotations

import argparse
import os
import signal
import socket
import statistics
import subprocess
import sys
import tempfile
import time
import urllib.request
from pathlib import Path

BENCH = Path(__file__).resolve().parent
sys.path.insert(0, str(BENCH))

from generate import write_project  # noqa: E402

INCIDENTS = Path(sys.executable).parent / "incidents"


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def fetch(url: str) -> str:
    try:
        with urllib.request.urlopen(url, timeout=5) as response:
            return response.read().decode("utf-8")
    except OSError:
        return ""


def wait_for(url: str, text: str, seconds: float, every: float = 0.05) -> float | None:
    """Seconds until `url` contains `text`, or None after `seconds`."""
    started = time.perf_counter()
    while time.perf_counter() - started < seconds:
        if text in fetch(url):
            return time.perf_counter() - started
        time.sleep(every)
    return None


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--count", type=int, default=1000, help="incidents in the library")
    parser.add_argument("--edits", type=int, default=5, help="edits to time")
    parser.add_argument("--seed", type=int, default=1)
    args = parser.parse_args(argv)

    with tempfile.TemporaryDirectory(prefix="incident-preview-") as work:
        project = write_project(args.count, Path(work) / "project", args.seed)
        port = free_port()
        log = Path(work) / "serve.log"
        with log.open("w") as out:
            server = subprocess.Popen(
                [str(INCIDENTS), "serve", "--root", str(project)]
                + ["--dev-addr", f"127.0.0.1:{port}"],
                stdout=out,
                stderr=subprocess.STDOUT,
                start_new_session=True,
                env={**os.environ, "NO_MKDOCS_2_WARNING": "1"},
            )
        try:
            files = sorted((project / "incidents").glob("*.md"))
            canonical = [f for f in files if f.name.count(".") == 1]
            first = canonical[0].stem
            started = time.perf_counter()
            ready = wait_for(f"http://127.0.0.1:{port}/en/cases/{first}.html", "<h1", 900, 0.5)
            if ready is None:
                sys.exit(f"the preview did not come up; see {log}")
            print(f"first build: {time.perf_counter() - started:.1f} s", flush=True)
            times = []
            for n in range(args.edits):
                # The canonical file holds the title in the incident's original language.
                target = canonical[(n * 97 + 11) % len(canonical)]
                stem = target.stem
                text = target.read_text(encoding="utf-8")
                line = next(x for x in text.split("\n") if x.startswith("title:"))
                lang = next(x for x in text.split("\n") if x.startswith("lang:")).split()[-1]
                marker = f"edit{n}x{os.getpid()}"
                value = line[len("title:") :].strip()
                if len(value) > 1 and value[0] in "\"'" and value[-1] == value[0]:
                    edited = f"title: {value[:-1]} {marker}{value[-1]}"  # inside the quotes
                else:
                    edited = f"{line} {marker}"
                target.write_text(text.replace(line, edited, 1), encoding="utf-8")
                seconds = wait_for(f"http://127.0.0.1:{port}/{lang}/cases/{stem}.html", marker, 120)
                shown = "timeout" if seconds is None else f"{seconds:.2f} s"
                print(f"edit {n + 1} ({target.name}): shown after {shown}", flush=True)
                if seconds is not None:
                    times.append(seconds)
                time.sleep(1.0)  # let the server settle before the next edit
            if times:
                print(f"median over {len(times)} edits: {statistics.median(times):.2f} s")
            # The server's own account of each rebuild (pages rebuilt, seconds).
            for line in log.read_text(encoding="utf-8", errors="replace").splitlines():
                if "preview: rebuil" in line or "Documentation built in" in line:
                    print("  server: " + line.split(" -  ", 1)[-1])
        finally:
            os.killpg(server.pid, signal.SIGTERM)
            server.wait(timeout=30)


if __name__ == "__main__":
    main()
