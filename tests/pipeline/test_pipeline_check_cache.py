"""The check cache never lets changed content pass, runs no code, and never breaks a check."""

from __future__ import annotations

import errno
import json
import os
import pickle
import subprocess
from pathlib import Path

import pytest
from click.testing import CliRunner
from conftest import Project

import generator.pipeline.check_cache as check_cache
import generator.pipeline.check_result as check_result
from generator.cli import main


def run(root: Path, *args: str):
    return CliRunner().invoke(main, ["check", "--root", str(root), *args], catch_exceptions=False)


def _break_same_size(path: Path) -> None:
    """Replace a term with a typo of the same length, keeping the file's size and inode."""
    text = path.read_text(encoding="utf-8")
    broken = text.replace("cause: [gpu-failure]", "cause: [gpu-failurx]")
    assert broken != text and len(broken) == len(text)
    with path.open("r+", encoding="utf-8") as handle:  # in place: same inode
        handle.write(broken)


def test_a_same_size_edit_with_its_modification_time_restored_is_checked_again(
    project: Project, monkeypatch
):
    """`touch -r`, `cp -p` and `git checkout` can set a file's mtime back; its ctime moves."""
    monkeypatch.setattr(check_result, "RACY_SECONDS", 0)  # trust stats at once in this test
    path = project.add_incident()
    assert run(project.root).exit_code == 0
    before = os.stat(path)
    _break_same_size(path)
    os.utime(path, ns=(before.st_atime_ns, before.st_mtime_ns))  # what `touch -r` does
    after = os.stat(path)
    assert (after.st_mtime_ns, after.st_size, after.st_ino) == (
        before.st_mtime_ns,
        before.st_size,
        before.st_ino,
    )
    result = run(project.root)
    assert result.exit_code == 1
    assert "unknown cause term 'gpu-failurx'" in result.output


def test_an_edit_in_the_same_second_on_a_coarse_clock_is_checked_again(
    project: Project, monkeypatch
):
    """On a file system with one-second timestamps an edit right after a check has the same
    stat; such racy stats are never trusted (git's rule for its index)."""
    real = check_result.file_stat

    def coarse(path):
        stat = real(path)
        second = 1_000_000_000
        return stat and (stat[0] // second * second, stat[1] // second * second, *stat[2:])

    import generator.pipeline.check as project_module

    monkeypatch.setattr(check_result, "file_stat", coarse)  # the stored report's fingerprint
    monkeypatch.setattr(project_module, "file_stat", coarse)  # the per-file cache
    path = project.add_incident()
    for _ in range(5):  # the check and the edit usually fall in the same second
        path.write_text(path.read_text(encoding="utf-8").replace("gpu-failurx", "gpu-failure"))
        assert run(project.root).exit_code == 0
        _break_same_size(path)
        assert run(project.root).exit_code == 1


def test_the_cache_is_json_and_a_pickle_in_its_place_is_never_loaded(project: Project, tmp_path):
    project.add_incident()
    marker = tmp_path / "pwned"

    class Payload:
        def __reduce__(self):
            return (Path.touch, (marker,))

    (project.root / ".cache").mkdir()
    for name in ("incidents-check.pickle", "incidents-check.json"):
        (project.root / ".cache" / name).write_bytes(pickle.dumps(Payload()))
    assert run(project.root).exit_code == 0
    assert not marker.exists()
    stored = json.loads((project.root / check_cache.CACHE_FILE).read_text(encoding="utf-8"))
    assert stored["format"] == check_cache.FORMAT


def test_a_cache_committed_to_git_is_ignored(project: Project, monkeypatch):
    """A cache in the repository could claim that a broken file passes: it is not read."""
    path = project.add_incident()
    assert run(project.root).exit_code == 0
    cache_file = project.root / check_cache.CACHE_FILE
    good = cache_file.read_text(encoding="utf-8")
    _break_same_size(path)
    cache_file.write_text(good, encoding="utf-8")
    git = ["git", "-c", "user.name=t", "-c", "user.email=t@reports.acme.dev"]
    subprocess.run([*git, "init", "-q"], cwd=project.root, check=True)
    subprocess.run([*git, "add", "-f", "."], cwd=project.root, check=True)
    subprocess.run([*git, "commit", "-qm", "x"], cwd=project.root, check=True)
    # Forge the cache: every stored outcome claims the file has no problem, with its new content.
    stored = json.loads(good)
    for entry in stored["entries"]:
        entry[1]["problems"] = []
    stored["stats"] = []
    import hashlib

    for entry in stored["entries"]:
        if entry[0][0].endswith("acme-gpu-outage.md"):
            entry[0][1] = hashlib.sha256(path.read_bytes()).hexdigest()
    cache_file.write_text(json.dumps(stored), encoding="utf-8")
    subprocess.run([*git, "commit", "-qam", "forged"], cwd=project.root, check=True)
    result = run(project.root)
    assert result.exit_code == 1
    assert "unknown cause term 'gpu-failurx'" in result.output
    assert cache_file.read_text(encoding="utf-8") == json.dumps(stored)  # and not rewritten


@pytest.mark.parametrize("failure", ["read-only", "disk-full", "directory"])
def test_a_cache_that_cannot_be_written_never_breaks_the_check(
    project: Project, monkeypatch, failure
):
    project.add_incident()
    if failure == "directory":
        (project.root / check_cache.CACHE_FILE).mkdir(parents=True)
    else:
        code = errno.EROFS if failure == "read-only" else errno.ENOSPC
        real = Path.write_bytes

        def refuse(self, data):
            if self.parent.name == ".cache":
                real(self, data[: len(data) // 2])  # a disk that fills part way
                raise OSError(code, os.strerror(code))
            return real(self, data)

        monkeypatch.setattr(Path, "write_bytes", refuse)
    result = run(project.root)
    assert (result.exit_code, result.output) == (
        0,
        "ok: 1 incident checked, 0 error(s), 0 warning(s)\n",
    )
    leftovers = [p.name for p in (project.root / ".cache").glob("*.tmp")]
    assert leftovers == []


def test_check_without_a_cache_keeps_summaries_and_collects_garbage_in_bulk(
    project: Project, monkeypatch
):
    """`incidents check --no-cache` keeps only what the checks across files need, as with its
    cache (a full model per file was kept, and sent back from the workers, for nothing), and
    collects garbage at the build's thresholds while it checks."""
    import gc

    from generator.pipeline import check as check_module
    from generator.pipeline import executor as executor_module
    from generator.validate.incident import MetaSummary

    project.add_incident()
    usual = gc.get_threshold()
    seen = {}
    real_check, real_combine = check_module._check_bytes, check_module.combine

    def checking(*args):
        seen["threshold"] = gc.get_threshold()
        return real_check(*args)

    def combining(outcomes):
        seen["metas"] = {type(o.meta) for o in outcomes if o.meta is not None}
        return real_combine(outcomes)

    monkeypatch.setattr(check_module, "_check_bytes", checking)
    monkeypatch.setattr(check_module, "combine", combining)
    result = run(project.root, "--no-cache")
    assert (result.exit_code, result.output) == (
        0,
        "ok: 1 incident checked, 0 error(s), 0 warning(s)\n",
    )
    assert seen == {"threshold": executor_module.BULK_THRESHOLDS, "metas": {MetaSummary}}
    assert gc.get_threshold() == usual


def test_entries_encoded_where_they_were_checked_are_written_as_loaded_ones_are(
    project: Project, tmp_path
):
    """The workers encode the entries they check (writing 20,000 of them took a second in one
    process); the file is the one JSON document the cache read back would write, byte for
    byte, and one `json.dumps` of the whole would give."""
    project.add_incident()
    project.add_incident("second-incident")
    assert run(project.root).exit_code == 0
    written = (project.root / check_cache.CACHE_FILE).read_bytes()
    loaded = check_cache.CheckCache(project.root / check_cache.CACHE_FILE, summaries=True)
    assert len(loaded.entries) == 4 and loaded.written == {}
    loaded._write(tmp_path / "again.json")
    assert (tmp_path / "again.json").read_bytes() == written
    whole = json.dumps(json.loads(written), ensure_ascii=False, separators=(",", ":"))
    assert whole.encode("utf-8") == written


def test_a_summary_is_its_own_summary(project: Project):
    """A worker sends a summary back and the cache keeps it as it is (making it again was
    20,000 new objects in the one process, at 10,000 incidents)."""
    from datetime import date

    from generator.load.project import ProjectPaths, load_taxonomy
    from generator.pipeline.check import _check_bytes

    path = project.add_incident()
    taxonomy, _ = load_taxonomy(ProjectPaths.at(project.root))
    full = _check_bytes(
        path.read_bytes(), path, "incidents/acme-gpu-outage.md", taxonomy, date.today()
    )
    summary = full.summary()
    assert summary != full and summary.meta is not None and summary.text is not None
    assert summary.summary() is summary
    assert full.summary() == summary
