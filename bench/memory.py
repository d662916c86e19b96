"""Resident memory of the core build, stage by stage, on a project (no MkDocs).

    .venv/bin/python bench/memory.py PROJECT      # e.g. a corpus from bench/generate.py

Runs `generator.pipeline.site.build` with the build's own executor and prints, for each stage, its
time and the process's resident memory before and after it, with the peak so far (VmRSS and
VmHWM from /proc, so Linux only). Then what the finished site holds. A measurement, not a test:
it says which stage holds the memory a large build needs.
"""

from __future__ import annotations

import argparse
import functools
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

import generator.pipeline.site as site  # noqa: E402
from generator.load.project import ProjectPaths  # noqa: E402
from generator.pipeline.executor import default_executor  # noqa: E402

# The build's stages as generator/pipeline/site.py calls them, in order (tests/bench holds the names
# to the module's): the render starts on the workers, the build process makes the layout, the
# corpus and the files meanwhile, then gathers the rendered pages.
STAGES = (
    "check_project",
    "build_library",
    "build_pages",
    "_start_render",
    "layout_terms",
    "index_cases",
    "build_corpus",
    "_files",
    "_rendered",
)


def memory() -> tuple[int, int]:
    """(resident, peak resident) of this process, in MiB."""
    found = {}
    with open("/proc/self/status", encoding="ascii") as status:
        for line in status:
            if line.startswith(("VmRSS:", "VmHWM:")):
                key, value = line.split(":")
                found[key] = int(value.split()[0]) // 1024
    return found["VmRSS"], found["VmHWM"]


def watched(name: str, func):
    @functools.wraps(func)
    def wrapper(*args, **kwargs):
        started, (before, _) = time.perf_counter(), memory()
        try:
            return func(*args, **kwargs)
        finally:
            after, peak = memory()
            seconds = time.perf_counter() - started
            print(
                f"{name:14s} {seconds:6.1f} s   resident {before:6,} -> {after:6,} MiB"
                f"   peak so far {peak:6,} MiB",
                flush=True,
            )

    return wrapper


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("project", type=Path, help="folder with taxonomy.yml and incidents/")
    args = parser.parse_args()
    for name in STAGES:
        setattr(site, name, watched(name, getattr(site, name)))
    built = site.build(ProjectPaths.at(args.project), executor=default_executor())
    resident, peak = memory()
    contents = sum(len(v) for v in built.contents.values())
    files = sum(len(v) for v in built.files.values())
    print(f"after the build: resident {resident:,} MiB, peak {peak:,} MiB")
    print(
        f"the site holds {contents / 2**20:,.0f} MiB of compressed page content "
        f"({len(built.contents):,} pages) and {files / 2**20:,.0f} MiB of other files "
        f"({len(built.files):,})"
    )


if __name__ == "__main__":
    main()
