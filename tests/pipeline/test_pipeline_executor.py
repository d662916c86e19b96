"""How the build uses processors (generator/pipeline/executor.py): `SerialExecutor.map`, and
`ForkExecutor.map` giving the same results in the same order from forked workers (where
`can_fork()`), staying in this process below `minimum` or while another thread runs, counting
what it forked, and `default_executor()` honouring INCIDENTS_JOBS=1."""

from __future__ import annotations

import gc
import os
import threading
import time

import pytest
from conftest import TAXONOMY

from generator.load.front_matter import parse_yaml
from generator.load.taxonomy import build_taxonomy
from generator.model.incident import incident_model
from generator.pipeline import executor as executor_module
from generator.pipeline.executor import (
    MIN_JOBS,
    ForkExecutor,
    SerialExecutor,
    can_fork,
    default_executor,
    serial,
)

needs_fork = pytest.mark.skipif(not can_fork(), reason="needs Linux, fork and two processors")


def square(n: int) -> int:
    return n * n


class TestSerial:
    def test_map_in_order(self):
        assert SerialExecutor().map(square, 5) == [0, 1, 4, 9, 16]
        assert serial.map(square, 0) == []

    def test_runs_here_and_forks_nothing(self):
        assert set(serial.map(lambda n: os.getpid(), 3)) == {os.getpid()}
        assert (serial.name, serial.forked) == ("serial", 0)


@needs_fork
@pytest.mark.alone  # forks: in a process with no other thread (tests/conftest.py)
class TestFork:
    def test_same_results_in_order_from_other_processes(self):
        executor = ForkExecutor(minimum=1)
        results = executor.map(lambda n: (n * n, os.getpid()), 50)
        assert [value for value, _ in results] == [n * n for n in range(50)]
        pids = {pid for _, pid in results}
        assert os.getpid() not in pids
        assert 1 <= len(pids) <= 2

    def test_counts_what_it_forked(self):
        executor = ForkExecutor(minimum=10)
        assert (executor.name, executor.forked) == ("fork", 0)
        executor.map(square, 12)
        executor.map(square, 3)  # below the minimum: here, not counted
        executor.map(square, 10)
        assert executor.forked == 22

    def test_below_the_minimum_the_jobs_stay_here(self):
        executor = ForkExecutor()
        assert executor.minimum == MIN_JOBS == 200
        pids = executor.map(lambda n: os.getpid(), MIN_JOBS - 1)
        assert set(pids) == {os.getpid()}
        assert executor.forked == 0
        assert os.getpid() not in set(executor.map(lambda n: os.getpid(), MIN_JOBS))

    def test_jobs_need_not_pickle_only_their_results_do(self):
        secret = threading.Lock()  # cannot be pickled; the workers inherit it by forking
        assert ForkExecutor(minimum=1).map(lambda n: (n, secret.locked()), 3) == [
            (0, False),
            (1, False),
            (2, False),
        ]

    def test_per_taxonomy_models_come_back_from_workers(self):
        taxonomy = build_taxonomy(parse_yaml(TAXONOMY, "taxonomy.yml"), "taxonomy.yml")[0]
        model = incident_model(taxonomy)

        def job(n: int):
            return model.model_construct(
                id=f"case-{n}", organization="acme", cause=("gpu-failure",)
            )

        results = ForkExecutor(minimum=1).map(job, 4)
        assert [type(r) for r in results] == [model] * 4
        assert [r.id for r in results] == ["case-0", "case-1", "case-2", "case-3"]
        assert results[2].cause == ("gpu-failure",)

    def test_a_failing_job_fails_the_map_and_leaves_no_state(self):
        executor = ForkExecutor(minimum=1)

        def job(n: int) -> int:
            if n == 3:
                raise ValueError("job 3")
            return n

        with pytest.raises(ValueError, match="job 3"):
            executor.map(job, 5)
        assert executor_module._current == []
        assert executor.map(square, 4) == [0, 1, 4, 9]

    def test_stays_serial_while_another_thread_runs(self):
        stop = threading.Event()
        thread = threading.Thread(target=stop.wait, daemon=True)
        thread.start()
        try:
            executor = ForkExecutor(minimum=1)
            assert set(executor.map(lambda n: os.getpid(), 20)) == {os.getpid()}
            assert executor.forked == 0
        finally:
            stop.set()
            thread.join()
        assert os.getpid() not in set(executor.map(lambda n: os.getpid(), 20))


@needs_fork
@pytest.mark.alone  # forks: in a process with no other thread (tests/conftest.py)
class TestStart:
    """`start`: the workers run the jobs while this process goes on with work of its own."""

    def test_this_process_works_while_the_workers_run(self, tmp_path):
        flag = tmp_path / "main-done"

        def job(n: int) -> tuple[int, int, bool]:
            if n == 0:  # waits for this process's own work, which must run meanwhile
                deadline = time.monotonic() + 20
                while not flag.exists() and time.monotonic() < deadline:
                    time.sleep(0.01)
            return n * n, os.getpid(), flag.exists()

        executor = ForkExecutor(minimum=1)
        pending = executor.start(job, 8)
        flag.write_text("done", encoding="utf-8")  # this process's work, done meanwhile
        results = pending.result()
        assert [value for value, _, _ in results] == [n * n for n in range(8)]
        assert results[0][2] is True  # job 0 saw it
        assert os.getpid() not in {pid for _, pid, _ in results}
        assert executor_module._current == [] and executor.forked == 8
        assert gc.get_freeze_count() == 0  # frozen for the workers' sake only while they ran

    def test_a_second_start_meanwhile_stays_here(self):
        executor = ForkExecutor(minimum=1)
        pending = executor.start(lambda n: os.getpid(), 20)
        try:  # the pool's own threads run now: forking again could leave a child stuck
            assert set(executor.start(lambda n: os.getpid(), 5).result()) == {os.getpid()}
        finally:
            assert os.getpid() not in set(pending.result())

    def test_cancel_stops_the_workers_and_leaves_no_state(self):
        executor = ForkExecutor(minimum=1)
        pending = executor.start(lambda n: time.sleep(30), 4)
        started = time.monotonic()
        pending.cancel()
        pending.cancel()  # twice is harmless
        assert time.monotonic() - started < 10
        assert executor_module._current == [] and threading.active_count() == 1
        assert executor.map(square, 3) == [0, 1, 4]

    def test_serial_start_gives_the_results(self):
        assert serial.start(square, 4).result() == [0, 1, 4, 9]


class TestDefault:
    def test_incidents_jobs_1_is_serial(self, monkeypatch):
        monkeypatch.setenv("INCIDENTS_JOBS", "1")
        assert default_executor() is serial

    @needs_fork
    def test_forked_where_that_is_safe(self, monkeypatch):
        monkeypatch.delenv("INCIDENTS_JOBS", raising=False)
        chosen = default_executor()
        assert isinstance(chosen, ForkExecutor)
        assert (chosen.workers, chosen.minimum, chosen.forked) == (2, MIN_JOBS, 0)
        monkeypatch.setenv("INCIDENTS_JOBS", "2")
        assert isinstance(default_executor(), ForkExecutor)

    def test_serial_where_fork_is_not_safe(self, monkeypatch):
        monkeypatch.delenv("INCIDENTS_JOBS", raising=False)
        monkeypatch.setattr(executor_module, "can_fork", lambda: False)
        assert default_executor() is serial

    def test_one_processor_cannot_fork(self, monkeypatch):
        monkeypatch.setattr(executor_module, "processors", lambda: 1)
        assert not can_fork()

    def test_another_platform_cannot_fork(self, monkeypatch):
        monkeypatch.setattr(executor_module.sys, "platform", "darwin")
        assert not can_fork()
