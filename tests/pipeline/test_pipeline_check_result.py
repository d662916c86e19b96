"""`incidents check` answers an unchanged library from its stored report, and never otherwise."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest
from click.testing import CliRunner
from conftest import REPO, Project

import generator.pipeline.check_result as check_result
from generator.cli import main


def run(root: Path, *args: str):
    return CliRunner().invoke(main, ["check", "--root", str(root), *args], catch_exceptions=False)


@pytest.fixture
def settled(monkeypatch):
    """Files written by the test count as settled: without this, a stat younger than
    RACY_SECONDS is never trusted and no report is stored (the rule the last test checks)."""
    monkeypatch.setattr(check_result, "RACY_SECONDS", 0)


def _stored(project: Project) -> Path:
    return project.root / check_result.RESULT_FILE


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
        "import generator.pipeline.check_result as r\n"
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


def test_a_stored_report_committed_to_git_or_forged_is_ignored(
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
    # A report in the repository, even with the right fingerprint, is not read.
    report = json.loads(stored.read_text(encoding="utf-8"))
    stored.write_text(json.dumps({**report, "diagnostics": []}), encoding="utf-8")
    git = ["git", "-c", "user.name=t", "-c", "user.email=t@reports.acme.dev"]
    subprocess.run([*git, "init", "-q"], cwd=project.root, check=True)
    subprocess.run([*git, "add", "-f", "."], cwd=project.root, check=True)
    subprocess.run([*git, "commit", "-qm", "x"], cwd=project.root, check=True)
    result = run(project.root)
    assert result.exit_code == 1 and "gpu-failurx" in result.output
    assert calls == [1, 1, 1]


def test_files_changed_within_the_racy_window_are_never_vouched_for(project: Project):
    """With RACY_SECONDS as shipped, files written just now give no fingerprint: an edit in the
    same clock tick as the check could leave the same stat."""
    _two_incidents(project)
    assert run(project.root).exit_code == 0
    assert not _stored(project).exists()
