"""The MkDocs adapter: a thin translation of the core's site, and a build that did not run it
(a shell that ignores unknown plugins, as Zensical does) is refused."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

from conftest import REPO, Project
from sitebuild import write_fixture_library

from generator.adapters.mkdocs.plugin import MARKER


def build(root: Path):
    command = [sys.executable, "-m", "generator.cli", "build", "--root", str(root)]
    env = {**os.environ, "NO_MKDOCS_2_WARNING": "1"}
    return subprocess.run(command, cwd=REPO, env=env, capture_output=True, text=True, timeout=600)


def test_every_page_carries_the_marker_of_the_plugin(tmp_path):
    project = Project(tmp_path / "project")
    write_fixture_library(project)
    result = build(project.root)
    assert result.returncode == 0, result.stderr[-2000:]
    site = project.root / "site"
    for url in ("index.html", "ko/index.html", "en/cases/globex-etcd-outage.html", "en/about.html"):
        assert MARKER in (site / url).read_text(encoding="utf-8"), url


def test_a_build_in_which_the_plugin_did_not_run_fails(tmp_path):
    """Drop the plugin from mkdocs.yml, as a shell that ignores it would: MkDocs itself still
    succeeds, but `incidents build` says the site was built without the plugin."""
    project = Project(tmp_path / "project")
    write_fixture_library(project)
    config = project.root / "mkdocs.yml"
    text = config.read_text(encoding="utf-8")
    start = text.index("plugins:\n")
    end = text.index("\n\n", start)
    config.write_text(text[:start] + "plugins: []\n" + text[end:], encoding="utf-8")
    result = build(project.root)
    assert result.returncode == 1
    assert "was built without the incident-library plugin" in result.stderr


def test_the_plugin_is_a_thin_adapter():
    """The plugin translates: at most ~150 lines, and its hooks stay short."""
    import ast

    source = (REPO / "generator" / "adapters" / "mkdocs" / "plugin.py").read_text(encoding="utf-8")
    assert len(source.splitlines()) <= 160
    tree = ast.parse(source)
    hooks = [
        node
        for node in ast.walk(tree)
        if isinstance(node, ast.FunctionDef) and node.name.startswith("on_")
    ]
    assert hooks
    for hook in hooks:
        assert hook.end_lineno - hook.lineno <= 30, hook.name


def test_a_second_build_in_the_same_process_starts_afresh(tmp_path, monkeypatch):
    """MkDocs keeps a plugin object for the life of the process: what one build knew (its
    command, its staging folder) must not leak into the next."""
    from generator.adapters.mkdocs.commands import build_site
    from generator.load.project import ProjectPaths

    monkeypatch.setenv("NO_MKDOCS_2_WARNING", "1")
    first = Project(tmp_path / "first")
    write_fixture_library(first)
    assert build_site(ProjectPaths.at(first.root)) == 0  # `mkdocs build`: staged, published
    second = Project(tmp_path / "second")
    write_fixture_library(second)
    from sitebuild import build_fixture_site

    site = build_fixture_site(second.root)  # MkDocs' build() straight away: no staging
    assert (site / "index.html").is_file()
    assert list(second.root.glob(".site.building-*")) == []


def test_a_build_without_a_site_url_says_so_and_the_preview_does_not(caplog):
    """A published site with no address of its own would carry the preview's localhost in its
    permalinks, feeds and sitemap: the build warns (MkDocs' --strict then fails, since the
    warning is logged under `mkdocs.`); `serve` uses its local address quietly."""
    import logging
    from types import SimpleNamespace

    from generator.adapters.mkdocs.support import DEFAULT_SITE_URL, resolve_site_url

    for value in ("", None):
        built = SimpleNamespace(site_url=value)
        with caplog.at_level(logging.WARNING, logger="mkdocs"):
            resolve_site_url(built, preview=False)
        assert built.site_url == DEFAULT_SITE_URL
        (record,) = [r for r in caplog.records if r.name.startswith("mkdocs.")]
        assert record.levelno == logging.WARNING and "site_url is not set" in record.message
        caplog.clear()
    previewed = SimpleNamespace(site_url="")
    with caplog.at_level(logging.WARNING, logger="mkdocs"):
        resolve_site_url(previewed, preview=True)
    assert previewed.site_url == DEFAULT_SITE_URL and caplog.records == []
    given = SimpleNamespace(site_url="https://incidents.example.org/")
    resolve_site_url(given, preview=False)
    assert given.site_url == "https://incidents.example.org/"


def test_a_preview_writes_again_only_the_files_a_rebuild_changed(tmp_path):
    """serve --dirty writes a file the core made only when the last rebuild changed it, or when
    it is not on disk yet; a build writes every one."""
    from types import SimpleNamespace

    from generator.adapters.mkdocs.support import StaticFile

    config = SimpleNamespace(
        site_dir=str(tmp_path / "site"),
        use_directory_urls=False,
        plugins=SimpleNamespace(_current_plugin="incident_library"),
    )
    kept = StaticFile.at(config, "en/search/text/0.js", b"a", touched=False)
    assert kept.is_modified()  # not written yet
    kept.copy_file(dirty=True)
    assert (tmp_path / "site" / "en/search/text/0.js").read_bytes() == b"a"
    assert not kept.is_modified()
    assert StaticFile.at(config, "en/search/text/0.js", b"b").is_modified()  # touched by default
    markdown = StaticFile.at(config, "en/cases/a.md", b"# A", touched=False)
    assert (markdown.dest_uri, markdown.is_documentation_page(), markdown.is_modified()) == (
        "en/cases/a.md",
        False,
        True,
    )
