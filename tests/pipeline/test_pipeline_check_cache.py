"""The check cache never lets changed content pass, runs no code, and never breaks a check; an
unchanged library is answered from its stored report, and never otherwise."""

from __future__ import annotations

import errno
import hashlib
import json
import os
import pickle
import shutil
import subprocess
import sys
from dataclasses import fields
from datetime import date
from pathlib import Path

import pytest
from click.testing import CliRunner
from conftest import REPO, Project

import generator.pipeline.check_cache as check_cache
from generator.cli import main
from generator.validate.incident import FileOutcome


def cache_file(project: Project) -> Path:
    return check_cache.cache_folder(project.root) / check_cache.CACHE_FILE


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
    monkeypatch.setattr(check_cache, "RACY_SECONDS", 0)  # trust stats at once in this test
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
    real = check_cache.file_stat

    def coarse(path):
        stat = real(path)
        second = 1_000_000_000
        return stat and (stat[0] // second * second, stat[1] // second * second, *stat[2:])

    import generator.pipeline.check as project_module

    monkeypatch.setattr(check_cache, "file_stat", coarse)  # the stored report's fingerprint
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

    folder = check_cache.cache_folder(project.root)
    folder.mkdir(parents=True)
    for name in ("check.pickle", check_cache.CACHE_FILE, check_cache.RESULT_FILE):
        (folder / name).write_bytes(pickle.dumps(Payload()))
    assert run(project.root).exit_code == 0
    assert not marker.exists()
    stored = json.loads(cache_file(project).read_text(encoding="utf-8"))
    assert stored["format"] == check_cache.FORMAT


def _forged(good: str, path: Path) -> str:
    """A cache that says every file, `path` with its current bytes included, has no problem."""
    stored = json.loads(good)
    problems = [f.name for f in fields(FileOutcome)].index("problems")
    digest = hashlib.sha256(path.read_bytes()).hexdigest()
    for entry in stored["entries"]:
        entry[1][problems] = []
        if entry[0][0].endswith(path.name):
            entry[0][1] = digest
    stored["stats"] = []
    return json.dumps(stored)


@pytest.mark.parametrize("git", [False, True], ids=["tarball", "git-checkout"])
def test_a_cache_a_checkout_carries_is_never_read(project: Project, git: bool):
    """A project can carry any file, a forged cache too (committed, or in a tarball with no
    git to ask): the check keeps its cache where no checkout reaches, and reads nothing of the
    project's but its sources."""
    path = project.add_incident()
    assert run(project.root).exit_code == 0
    good = cache_file(project).read_text(encoding="utf-8")
    _break_same_size(path)
    forged = _forged(good, path)
    carried = project.root / ".cache"
    carried.mkdir()
    for name in ("incidents-check.json", check_cache.CACHE_FILE):  # where it was kept, and now
        (carried / name).write_text(forged, encoding="utf-8")
    if git:
        command = ["git", "-c", "user.name=t", "-c", "user.email=t@reports.acme.dev"]
        subprocess.run([*command, "init", "-q"], cwd=project.root, check=True)
        subprocess.run([*command, "add", "-f", "."], cwd=project.root, check=True)
        subprocess.run([*command, "commit", "-qm", "forged"], cwd=project.root, check=True)
    result = run(project.root)
    assert result.exit_code == 1
    assert "unknown cause term 'gpu-failurx'" in result.output
    assert (carried / check_cache.CACHE_FILE).read_text(encoding="utf-8") == forged  # untouched


def test_the_cache_lives_in_the_users_cache_folder_one_per_project(project: Project, tmp_path):
    """Under $XDG_CACHE_HOME (else ~/.cache), named by the project's real path: the same project
    reached through a link shares it, another project (a second checkout) has its own, and the
    project itself gains no file."""
    project.add_incident()
    before = sorted(p.relative_to(project.root) for p in project.root.rglob("*"))
    assert run(project.root).exit_code == 0
    assert sorted(p.relative_to(project.root) for p in project.root.rglob("*")) == before
    folder = check_cache.cache_folder(project.root)
    assert folder.parent == Path(os.environ["XDG_CACHE_HOME"]) / "incident-library"
    assert (folder / check_cache.CACHE_FILE).is_file()
    link = tmp_path / "link"
    link.symlink_to(project.root)
    assert check_cache.cache_folder(link) == folder
    copy = tmp_path / "copy"
    shutil.copytree(project.root, copy)
    assert check_cache.cache_folder(copy) != folder


@pytest.mark.parametrize("failure", ["read-only", "disk-full", "directory"])
def test_a_cache_that_cannot_be_written_never_breaks_the_check(
    project: Project, monkeypatch, failure
):
    project.add_incident()
    if failure == "directory":
        cache_file(project).mkdir(parents=True)
    else:
        code = errno.EROFS if failure == "read-only" else errno.ENOSPC
        real = Path.write_bytes

        def refuse(self, data):
            if self.parent == check_cache.cache_folder(project.root):
                real(self, data[: len(data) // 2])  # a disk that fills part way
                raise OSError(code, os.strerror(code))
            return real(self, data)

        monkeypatch.setattr(Path, "write_bytes", refuse)
    result = run(project.root)
    assert (result.exit_code, result.output) == (
        0,
        "ok: 1 incident checked, 0 error(s), 0 warning(s)\n",
    )
    leftovers = [p.name for p in check_cache.cache_folder(project.root).glob("*.tmp")]
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
    project: Project,
):
    """The workers encode the entries they check (a large library's are many thousands, slow
    to encode in one process); the file is the one JSON document the cache read back would
    write, byte for byte, and one `json.dumps` of the whole would give."""
    project.add_incident()
    project.add_incident("second-incident")
    assert run(project.root).exit_code == 0
    written = cache_file(project).read_bytes()
    loaded = check_cache.CheckCache(cache_file(project), summaries=True)
    assert len(loaded.entries) == 4 and loaded.written == {}
    assert loaded._data() == written
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


def _checked_twice(project: Project, change, today=date(2025, 1, 1), then=None):
    """Check the project with a cache whose stats are trusted at once, change something, and
    check again with the same cache: (first, second)."""
    from generator.load.project import ProjectPaths
    from generator.pipeline.check import check_project

    paths = ProjectPaths.at(project.root)
    cache = check_cache.CheckCache()
    first = check_project(paths, today, cache=cache)
    assert cache.stats, "the file's stat was not recorded"
    change()
    return first, check_project(paths, then or today, cache=cache)


def test_a_file_trusted_by_its_stat_is_checked_again_under_another_taxonomy(
    project: Project, monkeypatch
):
    """The file did not change, its stat vouches for it, but its outcome was judged against a
    taxonomy that no longer has its cause."""
    monkeypatch.setattr(check_cache, "RACY_SECONDS", 0)
    project.add_incident()
    taxonomy = project.root / "taxonomy.yml"
    text = taxonomy.read_text(encoding="utf-8")
    renamed = text.replace("id: gpu-failure", "id: gpu-fault")
    first, second = _checked_twice(project, lambda: taxonomy.write_text(renamed, "utf-8"))
    assert first.result.errors == ()
    assert any("unknown cause term 'gpu-failure'" in d.message for d in second.result.errors)


def test_a_file_trusted_by_its_stat_is_checked_again_on_another_day(project: Project, monkeypatch):
    """Dates are judged against the day of the check: a case from 2024 checked as of 2023 has
    dates in the future, whatever its stat says."""
    monkeypatch.setattr(check_cache, "RACY_SECONDS", 0)
    project.add_incident()
    first, second = _checked_twice(project, lambda: None, then=date(2023, 1, 1))
    assert first.result.errors == ()
    assert any("is in the future" in d.message for d in second.result.errors)


def test_a_cache_written_by_other_code_is_not_read(project: Project, monkeypatch):
    """Entries and stats written by another version of the checking code decide nothing."""
    monkeypatch.setattr(check_cache, "RACY_SECONDS", 0)
    project.add_incident()
    assert run(project.root, "--no-cache").exit_code == 0
    assert run(project.root).exit_code == 0  # writes the cache (and a report)
    file = cache_file(project)
    assert check_cache.CheckCache(file, summaries=True).stats
    monkeypatch.setattr(check_cache, "code_version", lambda: "another version")
    assert check_cache.CheckCache(file, summaries=True).entries == {}
    store = check_cache.ResultStore(check_cache.ProjectPaths.at(project.root), date.today())
    assert store.lookup() is None


def test_the_stored_form_is_read_back_by_the_outcome_types_and_refused_when_it_differs(
    project: Project,
):
    """An outcome's summary, with problems, marks and an identity, is stored as JSON and read
    back equal; a value that is not what its field's type says refuses the whole entry."""
    from generator.load.project import ProjectPaths, load_taxonomy
    from generator.pipeline.check import _check_bytes

    path = project.add_incident()
    text = path.read_text(encoding="utf-8")
    long = 'summary: "' + "A long summary. " * 14 + '"'  # a warning
    path.write_text(text.replace('summary: "Driver updates left GPUs unusable."', long), "utf-8")
    taxonomy, _ = load_taxonomy(ProjectPaths.at(project.root))
    display = "incidents/acme-gpu-outage.md"
    summary = _check_bytes(path.read_bytes(), path, display, taxonomy, date.today()).summary()
    assert summary.problems and summary.marks and summary.identity and summary.meta
    read = check_cache._reader(FileOutcome)
    stored = json.loads(json.dumps(check_cache._plain(summary)))
    assert read(stored) == summary
    problems = [f.name for f in fields(FileOutcome)].index("problems")
    for wrong in ("7", 7.0, True, None, ["x"]):
        bad = json.loads(json.dumps(stored))
        bad[problems][0][1] = wrong  # a diagnostic's line
        with pytest.raises((TypeError, ValueError)):
            read(bad)
    bad = json.loads(json.dumps(stored))
    bad[problems][0][5] = "fatal"  # a severity there is not
    with pytest.raises(ValueError):
        read(bad)
    with pytest.raises(ValueError):
        read(stored[:-1])  # a field short


# --- the stored report ------------------------------------------------------------------------


@pytest.fixture
def settled(monkeypatch):
    """Files written by the test count as settled: without this, a stat younger than
    RACY_SECONDS is never trusted and no report is stored (the rule the last test checks)."""
    monkeypatch.setattr(check_cache, "RACY_SECONDS", 0)


def _stored(project: Project) -> Path:
    return check_cache.cache_folder(project.root) / check_cache.RESULT_FILE


def _full_checks(monkeypatch) -> list[int]:
    """Counts the full checks the command runs (the stored report spares them)."""
    import generator.pipeline.check as check_module

    calls: list[int] = []
    real = check_module.check_project

    def counted(*args, **kwargs):
        calls.append(1)
        return real(*args, **kwargs)

    monkeypatch.setattr(check_module, "check_project", counted)
    return calls


def _two_incidents(project: Project) -> Path:
    project.add_incident()
    path = project.add_incident(
        "globex-etcd-outage",
        organization="globex",
        occurred="2023-05-02",
        url="https://reports.globex.dev/etcd",
    )
    # A warning (a summary over 200 characters) so the report has something to repeat.
    text = path.read_text(encoding="utf-8")
    long = 'summary: "' + "A long summary. " * 14 + '"'
    path.write_text(text.replace('summary: "Driver updates left GPUs unusable."', long), "utf-8")
    return path


def test_an_unchanged_library_repeats_the_full_report(project: Project, settled, monkeypatch):
    _two_incidents(project)
    calls = _full_checks(monkeypatch)
    translation = str(project.incidents / "globex-etcd-outage.ko.md")
    for arguments in [(), ("--format", "github"), (translation,)]:
        first = run(project.root, "--no-cache", *arguments)
        assert run(project.root, *arguments).output == first.output  # a full run, stores it
        count = len(calls)
        again = run(project.root, *arguments)
        assert len(calls) == count, "the second run checked again"
        assert (again.output, again.exit_code) == (first.output, first.exit_code)
    assert "summary is" in first.output and "globex-etcd-outage" in first.output
    assert "acme-gpu-outage" not in first.output


@pytest.mark.parametrize(
    "change",
    ["edit", "same-size edit, mtime restored", "new file", "removed file", "taxonomy", "date"],
)
def test_any_change_to_the_inputs_means_a_full_check(
    project: Project, settled, monkeypatch, change
):
    path = _two_incidents(project)
    assert run(project.root).exit_code == 0
    assert run(project.root).exit_code == 0
    calls = _full_checks(monkeypatch)
    if change == "edit":
        path.write_text(path.read_text(encoding="utf-8").replace("etcd", "etcd-x"), "utf-8")
    elif change == "same-size edit, mtime restored":
        before = os.stat(path)
        text = path.read_text(encoding="utf-8").replace(
            "cause: [gpu-failure]", "cause: [gpu-failurx]"
        )
        with path.open("r+", encoding="utf-8") as handle:
            handle.write(text)
        os.utime(path, ns=(before.st_atime_ns, before.st_mtime_ns))
        assert os.stat(path).st_size == before.st_size
    elif change == "new file":
        project.add_incident("initech-dns-outage", organization="initech", cause="[gpu-failurx]")
    elif change == "removed file":
        path.unlink()
        path.with_name("globex-etcd-outage.ko.md").unlink()
    elif change == "taxonomy":
        taxonomy = project.root / "taxonomy.yml"
        taxonomy.write_text(taxonomy.read_text(encoding="utf-8") + "\n# a comment\n", "utf-8")
    else:
        import generator.cli as cli

        real = cli.date

        class Tomorrow(real):
            @classmethod
            def today(cls):
                return real.fromordinal(real.today().toordinal() + 1)

        monkeypatch.setattr(cli, "date", Tomorrow)
    result = run(project.root)
    assert calls == [1]
    if change in ("same-size edit, mtime restored", "new file"):
        assert result.exit_code == 1 and "gpu-failurx" in result.output
    if change == "removed file":
        assert "1 incident checked" in result.output and "summary is" not in result.output


def test_an_unchanged_check_loads_neither_the_models_nor_yaml(project: Project):
    _two_incidents(project)
    script = (
        "import sys\n"
        "import generator.pipeline.check_cache as r\n"
        "r.RACY_SECONDS = 0\n"
        "from generator.cli import main\n"
        "try:\n"
        f"    main(['check', '--root', {str(project.root)!r}])\n"
        "except SystemExit:\n"
        "    pass\n"
        "print(sorted(m for m in ('pydantic', 'yaml', 'generator.validate.incident') "
        "if m in sys.modules))\n"
    )
    env = {**os.environ, "PYTHONPATH": str(REPO)}

    def loaded() -> str:
        done = subprocess.run(
            [sys.executable, "-c", script], capture_output=True, text=True, env=env, check=True
        )
        return done.stdout.strip().splitlines()[-1]

    assert loaded() != "[]"  # the first run checks in full
    assert loaded() == "[]"


def test_a_stored_report_the_project_carries_or_damaged_is_ignored(
    project: Project, settled, monkeypatch
):
    path = _two_incidents(project)
    assert run(project.root).exit_code == 0
    assert run(project.root).exit_code == 0
    stored = _stored(project)
    forged = json.loads(stored.read_text(encoding="utf-8"))
    text = path.read_text(encoding="utf-8")
    path.write_text(text.replace("cause: [gpu-failure]", "cause: [gpu-failurx]"), "utf-8")
    calls = _full_checks(monkeypatch)
    # A report with a foreign format, or damaged, is not read.
    stored.write_text(json.dumps({**forged, "format": "x"}), encoding="utf-8")
    assert run(project.root).exit_code == 1
    stored.write_text("{", encoding="utf-8")
    assert run(project.root).exit_code == 1
    # (That full run stored a good report, which the next run repeats.)
    assert run(project.root).exit_code == 1
    assert calls == [1, 1]
    # A report the project carries, even with the right fingerprint, is not read.
    report = json.loads(stored.read_text(encoding="utf-8"))
    clean = json.dumps({**report, "report": [[], report["report"][1]]})
    carried = project.root / ".cache"
    carried.mkdir()
    for name in ("incidents-check-result.json", check_cache.RESULT_FILE):
        (carried / name).write_text(clean, encoding="utf-8")
    stored.unlink()
    result = run(project.root)
    assert result.exit_code == 1 and "gpu-failurx" in result.output
    assert calls == [1, 1, 1]


def test_files_changed_within_the_racy_window_are_never_vouched_for(project: Project):
    """With RACY_SECONDS as shipped, files written just now give no fingerprint: an edit in the
    same clock tick as the check could leave the same stat."""
    _two_incidents(project)
    assert run(project.root).exit_code == 0
    assert not _stored(project).exists()
