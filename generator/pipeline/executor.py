"""How the build uses processors: an executor chosen at the edge and passed into the stages.

Every stage is a plain function; where its work splits into independent jobs (checking files,
ranking related cases, rendering pages) it hands them to `executor.map`. The serial executor runs
them in this process. The forked one runs them on two worker processes that inherit everything
the jobs read (the library, the pages) when they are forked, so nothing is pickled but job
numbers on the way in and results on the way out. With `map` this process only collects (working
on the same jobs beside its workers would slow it: it unpickles their results); with `start` it
goes on with other work of its own (the build makes the search corpus while the workers render)
and collects when it asks for the result. The job is held for the workers only until then: no
state survives it.
"""

from __future__ import annotations

import gc
import multiprocessing
import os
import sys
import threading
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from typing import Any, Protocol

# A build or a check allocates millions of objects that live until it ends (models, pages, the
# corpus' tuples): with the collector's usual thresholds it would walk them all again and again,
# a large share of a big build or a cold check. These collect the young objects far less often,
# and the old ones only when they have grown a lot.
BULK_THRESHOLDS = (50_000, 20, 100)


@contextmanager
def bulk_collection() -> Iterator[None]:
    """Collect garbage at BULK_THRESHOLDS while inside; the thresholds before are restored."""
    usual = gc.get_threshold()
    gc.set_threshold(*BULK_THRESHOLDS)
    try:
        yield
    finally:
        gc.set_threshold(*usual)


# Below this many jobs a worker costs more to start than it saves.
MIN_JOBS = 200


class Pending(Protocol):
    def result(self) -> list[Any]:
        """The jobs' results in order, once they are done."""
        ...

    def cancel(self) -> None:
        """Stop the jobs still running (the caller failed and wants no result)."""
        ...


class Executor(Protocol):
    name: str
    forked: int  # how many jobs ran on other processes so far

    def map(self, job: Callable[[int], Any], count: int) -> list[Any]:
        """`[job(i) for i in range(count)]`, in order."""
        ...

    def start(self, job: Callable[[int], Any], count: int) -> Pending:
        """`map`, which this process may leave to the workers while it does other work."""
        ...


class Done:
    """Results already there."""

    def __init__(self, results: list[Any]) -> None:
        self.results = results

    def result(self) -> list[Any]:
        return self.results

    def cancel(self) -> None:
        pass


class SerialExecutor:
    name = "serial"
    forked = 0

    def map(self, job: Callable[[int], Any], count: int) -> list[Any]:
        return [job(i) for i in range(count)]

    def start(self, job: Callable[[int], Any], count: int) -> Pending:
        return Done(self.map(job, count))


serial = SerialExecutor()


def processors() -> int:
    try:
        return len(os.sched_getaffinity(0))
    except AttributeError:  # pragma: no cover - not on Linux
        return os.cpu_count() or 1


_current: list[Callable[[int], Any]] = []  # the job of the map call under way (fork only)


def _run(index: int) -> Any:
    return _current[-1](index)


class ForkExecutor:
    """Two forked workers share the jobs; small batches run in this process."""

    name = "fork"

    def __init__(self, workers: int = 2, minimum: int = MIN_JOBS) -> None:
        self.workers = workers
        self.minimum = minimum
        self.forked = 0  # jobs that ran on the workers, for the build's log

    def map(self, job: Callable[[int], Any], count: int) -> list[Any]:
        return self.start(job, count).result()

    def start(self, job: Callable[[int], Any], count: int) -> Pending:
        # A thread holding a lock when the process forks would leave the child stuck (a preview
        # server has such threads; so has a pool already under way), so with other threads
        # running the jobs stay here.
        if count < self.minimum or threading.active_count() > 1:
            return Done(serial.map(job, count))
        _current.append(job)
        self.forked += count
        # What exists now is the workers' to read, not to collect: frozen, the collector (here
        # and in the workers) does not walk it, and so does not copy the workers' pages of it.
        gc.freeze()
        pool = multiprocessing.get_context("fork").Pool(self.workers)
        return _Forked(pool, pool.map_async(_run, range(count), chunksize=max(1, count // 16)))


class _Forked:
    """Jobs under way on forked workers; their job is held for the workers until they end."""

    def __init__(self, pool, results) -> None:
        self.pool, self.results = pool, results

    def result(self) -> list[Any]:
        try:
            return self.results.get()
        finally:
            self.cancel()

    def cancel(self) -> None:
        if self.pool is not None:
            self.pool.terminate()
            self.pool.join()
            self.pool = None
            _current.pop()
            gc.unfreeze()


def can_fork() -> bool:
    """A second processor and a safe `fork`: Linux only (macOS offers fork, but its system
    libraries are not fork-safe; Windows has none)."""
    return (
        sys.platform.startswith("linux")
        and processors() >= 2
        and "fork" in multiprocessing.get_all_start_methods()
    )


def default_executor() -> Executor:
    """What the edge passes in: forked workers where that is safe, unless INCIDENTS_JOBS=1."""
    if os.environ.get("INCIDENTS_JOBS", "") == "1" or not can_fork():
        return serial
    return ForkExecutor()
