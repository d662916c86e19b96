"""Work on a second processor: case pages rendered ahead of MkDocs, and lists of independent
jobs (checking files, ranking related cases) shared by two workers.

MkDocs builds pages one after another on one thread. Case pages are most of the rendering work,
and each depends only on its `Page`, so a forked worker renders a share of them ahead of MkDocs;
when MkDocs reaches such a page, its content is already there. The worker is a fork of the build
process, so it starts with the library and pages already in memory and nothing is pickled but
URLs on the way in and HTML on the way out. Off Linux, with one processor, or with
INCIDENTS_JOBS=1, everything is rendered in the build process as before.
"""

from __future__ import annotations

import multiprocessing
import os
import sys
import threading
from collections.abc import Callable, Iterator, Sequence
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from .pages import Page

# Below this many pages a worker costs more to start than it saves.
MIN_PAGES = 200
CHUNK = 16

_pages: dict[str, Page] = {}  # what a forked worker renders from (set before the fork)
_render: Callable[[Page], str] | None = None


def processors() -> int:
    try:
        return len(os.sched_getaffinity(0))
    except AttributeError:  # pragma: no cover - not on Linux
        return os.cpu_count() or 1


def can_fork() -> bool:
    """A second processor, `fork`, and no other thread running (a thread holding a lock when
    the process forks would leave the child stuck: a preview server has such threads).
    INCIDENTS_JOBS=1 keeps everything in one process."""
    return (
        os.environ.get("INCIDENTS_JOBS", "") != "1"
        and sys.platform.startswith("linux")  # macOS offers fork, but its system libraries
        and processors() >= 2  # are not fork-safe; Windows has none
        and "fork" in multiprocessing.get_all_start_methods()
        and threading.active_count() == 1
    )


_job: Callable[[int], Any] | None = None


def _run_job(index: int) -> Any:
    assert _job is not None
    return _job(index)


def split_map(job: Callable[[int], Any], count: int, minimum: int = MIN_PAGES) -> list[Any]:
    """`[job(i) for i in range(count)]` on two forked workers, in order. The workers inherit
    everything `job` reads; only results are pickled. This process only collects: working
    beside its workers, it was slowed by its own thread unpickling their results. Small inputs,
    one processor or no `fork`: all in this process."""
    global _job
    if count < minimum or not can_fork():
        return [job(i) for i in range(count)]
    _job = job
    try:
        with multiprocessing.get_context("fork").Pool(2) as pool:
            return pool.map(_run_job, range(count), chunksize=max(1, count // 16))
    finally:
        _job = None


def _render_one(url: str) -> tuple[str, str]:
    assert _render is not None
    return url, _render(_pages[url])


class RenderAhead:
    """A worker process that renders every other case page; `take(url)` returns its HTML."""

    def __init__(self, pages: Sequence[Page], render: Callable[[Page], str]):
        global _pages, _render
        self.assigned = {p.url for i, p in enumerate(pages) if i % 2 == 1}
        _pages = {p.url: p for p in pages if p.url in self.assigned}
        _render = render
        context = multiprocessing.get_context("fork")
        self._pool = context.Pool(1)
        ordered = [p.url for p in pages if p.url in self.assigned]
        self._results: Iterator[tuple[str, str]] = self._pool.imap(_render_one, ordered, CHUNK)
        self._ready: dict[str, str] = {}
        _pages, _render = {}, None  # the worker has its copy; the build process needs none

    @classmethod
    def start(cls, pages: Sequence[Page], render: Callable[[Page], str]) -> RenderAhead | None:
        if len(pages) < MIN_PAGES or not can_fork():
            return None
        return cls(pages, render)

    def take(self, url: str) -> str | None:
        """The worker's HTML for `url`, or None when the page is not the worker's to render."""
        if url not in self.assigned:
            return None
        self.assigned.discard(url)
        while url not in self._ready:
            done, content = next(self._results)
            self._ready[done] = content
        return self._ready.pop(url)

    def close(self) -> None:
        """Stop the worker (it has finished when every assigned page was taken)."""
        if self.assigned:
            self._pool.terminate()
        else:
            self._pool.close()
        self._pool.join()
