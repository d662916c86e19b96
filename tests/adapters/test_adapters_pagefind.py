"""The Pagefind adapter: every failure of the indexer is a clear error, never a hang."""

from __future__ import annotations

import json
import os
import re
import stat
from pathlib import Path

import pytest

from generator.adapters import pagefind
from generator.adapters.pagefind import SearchIndex, SearchIndexError, index_language


def fake_binary(tmp_path: Path, script: str) -> Path:
    path = tmp_path / "pagefind"
    path.write_text("#!/bin/sh\n" + script, encoding="utf-8")
    path.chmod(path.stat().st_mode | stat.S_IEXEC)
    return path


def documents(tmp_path: Path) -> Path:
    folder = tmp_path / "documents"
    (folder / "cases").mkdir(parents=True)
    (folder / "cases" / "x.html").write_text(
        '<html lang="en"><body><article data-pagefind-body>GPU</article></body></html>'
    )
    return folder


def test_a_real_run_indexes_the_documents(tmp_path):
    assert index_language(documents(tmp_path), tmp_path / "out") == 1
    assert (tmp_path / "out" / "pagefind.js").is_file()
    assert not list((tmp_path / "out").glob("pagefind-ui.*"))


def test_the_index_says_which_case_each_result_is(tmp_path):
    """The browser maps Pagefind's result ids to cases without fetching a fragment per result."""
    folder = documents(tmp_path)
    (folder / "cases" / "y.html").write_text(
        '<html lang="ko"><body><article data-pagefind-body>q00000 gpu</article></body></html>'
    )
    assert index_language(folder, tmp_path / "out") == 2
    cases = json.loads((tmp_path / "out" / pagefind.FRAGMENT_MAP).read_text())
    assert sorted(cases.values()) == ["x", "y"]
    for fragment in cases:
        assert (tmp_path / "out" / "fragment" / f"{fragment}.pf_fragment").is_file()


def test_a_binary_that_chatters_on_stdout_does_not_hang_the_build(tmp_path, monkeypatch):
    """Pagefind's Python API waited forever for a reply when the binary printed a stray line;
    the command line has an exit status."""
    real = pagefind.pagefind_command()[0]
    chatty = fake_binary(tmp_path, f'echo "hello from a wrapper"\nexec "{real}" "$@"\n')
    monkeypatch.setenv("PAGEFIND_BINARY_PATH", str(chatty))
    assert index_language(documents(tmp_path), tmp_path / "out") == 1


@pytest.mark.parametrize(
    ("script", "message"),
    [
        ("echo 'disk exploded' >&2\nexit 3\n", "Pagefind failed (exit status 3): disk exploded"),
        ("exit 0\n", "Pagefind indexed no pages"),
        ("sleep 30\n", "Pagefind did not finish within 1 s"),
    ],
)
def test_a_failing_empty_or_stuck_indexer_is_a_clear_error(tmp_path, monkeypatch, script, message):
    monkeypatch.setenv("PAGEFIND_BINARY_PATH", str(fake_binary(tmp_path, script)))
    with pytest.raises(SearchIndexError, match=re.escape(message)):
        index_language(documents(tmp_path), tmp_path / "out", timeout=1)


def test_a_missing_binary_is_a_clear_error(tmp_path, monkeypatch):
    monkeypatch.setenv("PAGEFIND_BINARY_PATH", str(tmp_path / "nowhere" / "pagefind"))
    with pytest.raises(SearchIndexError, match="Pagefind's binary is not installed"):
        index_language(documents(tmp_path), tmp_path / "out")


def test_the_background_run_reports_its_failure_and_cleans_up(tmp_path, monkeypatch):
    monkeypatch.setenv("PAGEFIND_BINARY_PATH", str(fake_binary(tmp_path, "exit 1\n")))
    index = SearchIndex([("ko/cases/x.html", "<html></html>")], tmp_path / "work")
    index.start()
    with pytest.raises(SearchIndexError, match="exit status 1"):
        index.wait()
    index.discard()
    assert not (tmp_path / "work").exists()
    assert os.environ["PAGEFIND_BINARY_PATH"]


@pytest.mark.parametrize("script", [None, "exit 3\n"])
def test_the_build_command_reports_a_missing_or_failing_indexer_in_one_line(tmp_path, script):
    """End to end: `incidents build` with no Pagefind binary, or one that fails, exits 1 with
    the reason and no traceback, and the previous site is left as it was."""
    import subprocess
    import sys

    from conftest import REPO, Project
    from sitebuild import write_fixture_library

    project = Project(tmp_path / "project")
    write_fixture_library(project)
    site = project.root / "site"
    site.mkdir()
    (site / "index.html").write_text("previous site", encoding="utf-8")
    binary = tmp_path / "nowhere" / "pagefind" if script is None else fake_binary(tmp_path, script)
    done = subprocess.run(
        [sys.executable, "-m", "generator.cli", "build", "--root", str(project.root)],
        cwd=REPO,
        capture_output=True,
        text=True,
        env={**os.environ, "PAGEFIND_BINARY_PATH": str(binary), "NO_MKDOCS_2_WARNING": "1"},
        timeout=600,
    )
    output = done.stdout + done.stderr
    assert done.returncode == 1, output
    assert "Traceback" not in output
    expected = "Pagefind's binary is not installed" if script is None else "exit status 3"
    assert expected in output
    assert (site / "index.html").read_text(encoding="utf-8") == "previous site"
