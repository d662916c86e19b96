"""Tests that fork run in a process where no other thread runs.

Under `make test` (pytest-xdist, one worker per processor) a worker may come to a test that
forks while a thread of an earlier test's fixture still runs (a test server kept for the
session); forking then is what the build's executor rightly refuses (a child could inherit a
lock that thread holds), and what such a test must not do. A test marked `alone` then runs,
with the other such tests of its file, in a plain pytest started for them once per file, and
reports here what it did there. Where no other thread runs, it runs as any test does.
tests/conftest.py loads these hooks; a test of them loads this module as a plugin."""

from __future__ import annotations

import os
import subprocess
import sys
import tempfile
import threading
import xml.etree.ElementTree as ElementTree
from pathlib import Path

import pytest

ALONE = "INCIDENTS_TEST_ALONE"  # set in the pytest started for them: its tests run where they are
_results = pytest.StashKey[dict]()


def pytest_configure(config) -> None:
    config.addinivalue_line("markers", "alone: forks, so runs where no other thread runs")
    config.stash[_results] = {}


@pytest.hookimpl(tryfirst=True)
def pytest_pyfunc_call(pyfuncitem):
    if (
        pyfuncitem.get_closest_marker("alone") is None
        or os.environ.get(ALONE)
        or threading.active_count() == 1
    ):
        return None
    outcomes = _run_elsewhere(pyfuncitem)
    outcome, detail = outcomes.get(pyfuncitem.name) or outcomes.get("", ("error", "not run"))
    if outcome == "skipped":
        pytest.skip(detail)
    if outcome != "passed":
        pytest.fail(f"in a pytest of its own (no other thread): {outcome}\n{detail}")
    return True


def _run_elsewhere(item) -> dict[str, tuple[str, str]]:
    """The outcomes of the `alone` tests of `item`'s file, run in a pytest of their own, by
    test name; under "" what that pytest said if it reported no test."""
    results = item.config.stash[_results]
    path = str(item.path)
    if path not in results:
        env = {k: v for k, v in os.environ.items() if not k.startswith("PYTEST_XDIST")}
        with tempfile.TemporaryDirectory(prefix="alone-") as folder:
            report = Path(folder) / "report.xml"
            run = subprocess.run(
                [sys.executable, "-m", "pytest", "-q", "-p", "no:xdist", "-p", "no:cacheprovider"]
                + ["-m", "alone", f"--junitxml={report}", path],
                cwd=item.config.rootpath,
                env=env | {ALONE: "1"},
                capture_output=True,
                text=True,
                timeout=600,
            )
            cases = ElementTree.parse(report).getroot().iter("testcase") if report.exists() else ()
            outcomes = {}
            for case in cases:
                problem = next(iter(case), None)  # <failure>, <error> or <skipped>
                if problem is None:
                    outcomes[case.get("name")] = ("passed", "")
                    continue
                detail = problem.get("message") or ""
                if problem.tag != "skipped":
                    detail += "\n" + (problem.text or "")
                outcomes[case.get("name")] = (problem.tag, detail)
        results[path] = outcomes or {"": ("error", run.stdout[-4000:] + run.stderr[-4000:])}
    return results[path]
