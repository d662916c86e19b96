"""Builds are atomic (a failed or killed build leaves the published site as it was) and
reproducible (the same input gives the same bytes)."""

from __future__ import annotations

import errno
import hashlib
import os
import re
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest
from conftest import REPO, Project
from sitebuild import write_fixture_library

from generator.adapters.publish import SITE_MARK


def snapshot(folder: Path) -> dict[str, str]:
    return {
        p.relative_to(folder).as_posix(): hashlib.sha256(p.read_bytes()).hexdigest()
        for p in sorted(folder.rglob("*"))
        if p.is_file()
    }


def build(root: Path, *extra: str, wait: bool = True, env: dict | None = None):
    command = [sys.executable, "-m", "generator.cli", "build", "--root", str(root), *extra]
    env = {**os.environ, "NO_MKDOCS_2_WARNING": "1", **(env or {})}
    env.pop("SOURCE_DATE_EPOCH", None)
    if not wait:
        return subprocess.Popen(
            command,
            cwd=REPO,
            env=env,
            start_new_session=True,
            stdout=subprocess.DEVNULL,
            stderr=subprocess.DEVNULL,
        )
    return subprocess.run(command, cwd=REPO, env=env, capture_output=True, text=True, timeout=600)


@pytest.fixture(scope="module")
def built(tmp_path_factory) -> Project:
    project = Project(tmp_path_factory.mktemp("publish") / "project")
    write_fixture_library(project)
    result = build(project.root)
    assert result.returncode == 0, result.stderr
    return project


def staging_dirs(project: Project) -> list[Path]:
    return sorted(project.root.glob(".site.building-*"))


def test_a_failed_build_leaves_the_site_untouched(built: Project):
    before = snapshot(built.root / "site")
    original = (built.incidents / "acme-gpu-outage-01.md").read_text(encoding="utf-8")
    (built.incidents / "acme-gpu-outage-01.md").write_text(
        original.replace("cause: [gpu-failure]", "cause: [gpu-failur]"), encoding="utf-8"
    )
    try:
        result = build(built.root)
    finally:
        (built.incidents / "acme-gpu-outage-01.md").write_text(original, encoding="utf-8")
    assert result.returncode != 0
    assert "unknown cause term 'gpu-failur'" in result.stderr
    assert "Traceback" not in result.stderr
    assert snapshot(built.root / "site") == before
    assert staging_dirs(built) == []


def test_a_killed_build_leaves_the_site_untouched(built: Project):
    before = snapshot(built.root / "site")
    # A larger library, so the build is still writing when it is killed: the staging folder
    # appears as it starts writing its 4,000 files, and the build is killed 50 ms later (soon
    # enough that it cannot have finished writing and published).
    for n in range(300):
        built.add_incident(
            f"globex-extra-{n:02d}",
            organization="globex",
            occurred=f"20{10 + n // 28:02d}-01-{n % 28 + 1:02d}",
            url=f"https://reports.acme.dev/extra/{n}",
        )
    process = build(built.root, wait=False)
    try:
        deadline = time.monotonic() + 120
        while not staging_dirs(built) and time.monotonic() < deadline and process.poll() is None:
            time.sleep(0.01)
        assert staging_dirs(built), "the build never started writing"
        time.sleep(0.05)
        assert process.poll() is None, "the build finished before it could be killed"
        os.killpg(process.pid, signal.SIGKILL)
        process.wait(timeout=30)
    finally:
        if process.poll() is None:
            os.killpg(process.pid, signal.SIGKILL)
    assert snapshot(built.root / "site") == before
    left = staging_dirs(built)
    assert left  # the killed build's partial output stays aside, never in site/

    result = build(built.root)  # the next build publishes and clears what the killed one left
    assert result.returncode == 0, result.stderr
    assert staging_dirs(built) == []
    assert (built.root / "site" / "en" / "cases" / "globex-extra-00.html").exists()


def test_two_builds_of_the_same_input_are_identical(built: Project, tmp_path: Path):
    first, second = tmp_path / "first", tmp_path / "second"
    assert build(built.root, "--site-dir", str(first)).returncode == 0
    assert build(built.root, "--site-dir", str(second)).returncode == 0
    a, b = snapshot(first), snapshot(second)
    differing = sorted(path for path in set(a) | set(b) if a.get(path) != b.get(path))
    assert differing == []
    assert any("/search/words/" in p for p in a)  # the search index
    assert not any("pagefind" in p for p in a)


def test_the_parallel_build_equals_the_serial_one(tmp_path: Path):
    """With 150 incidents (300 case pages) the render worker, the check workers and the related
    case workers all run; INCIDENTS_JOBS=1 does the same work in one process. The sites match."""
    sys.path.append(str(REPO / "bench"))  # after site-packages: bench/mcp.py is no `mcp`
    from generate import write_project

    from generator.pipeline.executor import processors

    root = write_project(150, tmp_path / "project", seed=3)
    sites = {}
    for jobs in ("", "1"):
        site = tmp_path / f"site-{jobs or 'parallel'}"
        command = [sys.executable, "-m", "generator.cli", "build", "--root", str(root)]
        env = {**os.environ, "NO_MKDOCS_2_WARNING": "1", "INCIDENTS_JOBS": jobs}
        env.pop("SOURCE_DATE_EPOCH", None)
        result = subprocess.run(
            [*command, "--site-dir", str(site)],
            cwd=REPO,
            env=env,
            capture_output=True,
            text=True,
            timeout=600,
        )
        assert result.returncode == 0, result.stderr[-3000:]
        # One processor (or INCIDENTS_JOBS=1): no worker.
        parallel = not jobs and processors() >= 2 and sys.platform.startswith("linux")
        assert ("jobs on forked workers)" in result.stderr) == parallel
        sites[jobs] = snapshot(site)
    a, b = sites[""], sites["1"]
    assert len([p for p in a if p.startswith("ko/cases/") and p.endswith(".html")]) == 150
    differing = sorted(path for path in set(a) | set(b) if a.get(path) != b.get(path))
    assert differing == []


@pytest.mark.parametrize("target", ["incidents", "overrides", "site/../incidents", ".", "docs/ko"])
def test_a_site_folder_that_would_replace_the_sources_is_refused(built: Project, target: str):
    before = {p: p.read_bytes() for p in sorted(built.incidents.rglob("*.md"))}
    result = build(built.root, "--site-dir", target)
    assert result.returncode != 0
    refusals = ("holds the project's sources", "replace the project itself", "should not be within")
    assert any(refusal in result.stderr for refusal in refusals), result.stderr[-500:]
    assert "Traceback" not in result.stderr
    assert {p: p.read_bytes() for p in sorted(built.incidents.rglob("*.md"))} == before
    assert (built.root / "overrides" / "main.html").is_file()


def test_a_site_folder_that_is_a_symbolic_link_is_published_through_it(tmp_path: Path):
    """A web root linked as site/ gets the new site (when it is empty or a build wrote it); the
    link stays a link."""
    project = Project(tmp_path / "project")
    write_fixture_library(project)
    web_root = tmp_path / "www" / "incidents"
    web_root.mkdir(parents=True)
    (project.root / "site").symlink_to(web_root, target_is_directory=True)
    for _ in range(2):  # empty, then holding the site the first build published
        result = build(project.root)
        assert result.returncode == 0, result.stderr[-2000:]
        assert (project.root / "site").is_symlink()
        assert (web_root / "ko" / "index.html").is_file()
        assert (web_root / SITE_MARK).is_file()
    assert sorted(p.name for p in web_root.parent.iterdir()) == [".incidents.lock", "incidents"]


@pytest.mark.parametrize(
    "how",
    ["committed site link", "--site-dir .git", "site_dir in mkdocs.yml", "--site-dir elsewhere"],
)
def test_a_folder_no_build_wrote_is_never_replaced(tmp_path: Path, how: str):
    """Publishing replaces the whole site folder, so the build replaces only a folder that is
    empty or holds the mark of a site it published: a `site` link committed to a pull request,
    `--site-dir .git`, a `site_dir:` line naming a folder of the project, or any other folder
    with files in it is refused and left exactly as it was."""
    project = Project(tmp_path / "project")
    write_fixture_library(project)
    (project.root / ".git").mkdir()
    (project.root / ".git" / "config").write_text("[core]\n", encoding="utf-8")
    (project.root / "schema").mkdir()
    (project.root / "schema" / "keep.json").write_text("{}", encoding="utf-8")
    outside = tmp_path / "home"
    outside.mkdir()
    (outside / "notes.txt").write_text("mine", encoding="utf-8")
    extra: tuple[str, ...] = ()
    if how == "committed site link":
        (project.root / "site").symlink_to(outside, target_is_directory=True)
        victim = outside
    elif how == "--site-dir .git":
        extra, victim = ("--site-dir", str(project.root / ".git")), project.root / ".git"
    elif how == "site_dir in mkdocs.yml":
        config = project.root / "mkdocs.yml"
        text = config.read_text(encoding="utf-8")
        config.write_text(text.replace("site_dir: site", "site_dir: schema"), encoding="utf-8")
        assert "site_dir: schema" in config.read_text(encoding="utf-8")
        victim = project.root / "schema"
    else:
        extra, victim = ("--site-dir", str(outside)), outside
    before = snapshot(victim)
    result = build(project.root, *extra)
    assert result.returncode != 0
    assert "no build of this library wrote" in result.stderr, result.stderr[-800:]
    assert "Traceback" not in result.stderr
    assert snapshot(victim) == before
    assert not (victim / "index.html").exists()


def test_publishing_swaps_in_one_step_and_cleans_what_killed_builds_left(tmp_path: Path):
    """Folders of builds that were killed (staging, search documents, an old site set aside) go
    with the next publish; the swap leaves no moment without a complete site."""
    from generator.adapters.publish import Publication

    site = tmp_path / "site"
    site.mkdir()
    (site / "index.html").write_text("old", encoding="utf-8")
    dead = 2**22 + 12345  # no such process
    for kind in ("building", "search", "old"):
        (tmp_path / f".site.{kind}-{dead}").mkdir()
    publication = Publication(site)
    assert sorted(p.name for p in tmp_path.iterdir() if p.name.startswith(".site.")) == []
    publication.staging.mkdir()
    (publication.staging / "index.html").write_text("new", encoding="utf-8")
    seen: list[str] = []
    import os as os_module

    real_replace = os_module.replace

    def watching_replace(a, b):  # only used where the atomic exchange is unavailable
        seen.append((site / "index.html").read_text() if site.exists() else "no site")
        return real_replace(a, b)

    os_module.replace = watching_replace
    try:
        publication.publish()
    finally:
        os_module.replace = real_replace
    assert (site / "index.html").read_text() == "new"
    assert "no site" not in seen
    assert sorted(p.name for p in tmp_path.iterdir()) == [".site.lock", "site"]


def test_two_publishes_at_once_both_complete(tmp_path: Path):
    import threading

    from generator.adapters.publish import Publication

    site = tmp_path / "site"
    errors: list[BaseException] = []

    def publish(n: int) -> None:
        try:
            publication = Publication(site)
            staging = publication.staging.with_name(publication.staging.name + f"-{n}")
            publication.staging = staging
            staging.mkdir()
            (staging / "index.html").write_text(str(n), encoding="utf-8")
            publication.publish()
        except BaseException as exc:  # noqa: BLE001 - the test reports any failure
            errors.append(exc)

    threads = [threading.Thread(target=publish, args=(n,)) for n in range(4)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    assert errors == []
    assert (site / "index.html").read_text() in {"0", "1", "2", "3"}


@pytest.mark.parametrize("code", [errno.ENOSPC, errno.EROFS])
def test_a_build_that_cannot_write_says_so_and_keeps_the_site(
    built: Project, monkeypatch, capsys, code
):
    """A disk that fills, or a folder that cannot be written, during the build: one line that
    names the problem, no traceback, the published site as it was, nothing left behind."""
    import mkdocs.utils

    from generator.adapters.mkdocs.commands import build_site
    from generator.load.project import ProjectPaths

    before = snapshot(built.root / "site")
    real = mkdocs.utils.write_file
    calls = []

    def failing(content, output_path):
        calls.append(output_path)
        if len(calls) == 5:
            raise OSError(code, os.strerror(code), output_path)
        return real(content, output_path)

    monkeypatch.setattr(mkdocs.utils, "write_file", failing)
    monkeypatch.setenv("NO_MKDOCS_2_WARNING", "1")
    assert build_site(ProjectPaths.at(built.root)) == 1
    err = capsys.readouterr().err
    assert f"error: the site could not be written: {os.strerror(code)}" in err
    assert "Traceback" not in err
    assert snapshot(built.root / "site") == before
    assert staging_dirs(built) == []
    assert list(built.root.glob(".site.search-*")) == []


def test_a_library_published_before_1970_builds(tmp_path: Path):
    """SOURCE_DATE_EPOCH comes from the newest publication date; before 1970 it would be
    negative, which gzip refuses."""
    project = Project(tmp_path / "project")
    write_fixture_library(project)
    for path in project.incidents.glob("*.md"):
        text = path.read_text(encoding="utf-8")
        text = re.sub(r"(published|date|occurred): \d{4}(-\d\d(-\d\d)?)?", r"\1: 1965", text)
        path.write_text(text, encoding="utf-8")
    result = build(project.root)
    assert result.returncode == 0, result.stderr[-2000:]


@pytest.mark.parametrize(
    ("link", "target"),
    [
        ("docs/env.txt", "/proc/self/environ"),
        ("docs/ko/passwd.md", "/etc/passwd"),
        ("overrides/partials/env.html", "/proc/self/environ"),
        ("docs/config.txt", "../.git/config"),
        ("mkdocs.yml", "/etc/passwd"),
        ("taxonomy.yml", "/proc/self/environ"),
    ],
)
def test_a_link_out_of_the_project_stops_the_build_before_anything_is_written(
    built: Project, link: str, target: str
):
    """Whatever the build reads (pages, theme, settings, taxonomy), a link that leaves the
    project is an error naming the file; the build's environment never reaches the site."""
    before = snapshot(built.root / "site")
    path = built.root / link
    (built.root / ".git").mkdir(exist_ok=True)
    (built.root / ".git" / "config").write_text("extraheader = AUTHORIZATION: x\n")
    moved = path.with_name(path.name + ".real") if path.exists() else None
    if moved is not None:
        path.rename(moved)
    path.symlink_to(target)
    try:
        result = build(built.root, env={"IL_CANARY": "never-published-canary"})
    finally:
        path.unlink()
        if moved is not None:
            moved.rename(path)
    assert result.returncode != 0
    assert f"{link}:1:1: is a symbolic link" in result.stderr, result.stderr[-800:]
    assert "Traceback" not in result.stderr
    assert "never-published-canary" not in result.stderr + result.stdout
    assert snapshot(built.root / "site") == before
    assert staging_dirs(built) == []
