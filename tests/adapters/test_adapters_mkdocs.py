"""The MkDocs adapter: a thin translation of the core's site, and a build that did not run it
(a shell that ignores unknown plugins, as Zensical does) is refused."""

from __future__ import annotations

import os
import re
import subprocess
import sys
from pathlib import Path

from conftest import REPO, Project
from sitebuild import write_fixture_library

from generator.adapters.mkdocs.plugin import MARKER


def build(root: Path, *options: str, site_url: str = ""):
    command = [sys.executable, "-m", "generator.cli", "build", "--root", str(root), *options]
    env = {**os.environ, "NO_MKDOCS_2_WARNING": "1", "SITE_URL": site_url}
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
    """Without the site's address the build invents none (the preview has the one MkDocs serves
    it at): it warns, naming what needs SITE_URL (MkDocs' --strict then fails, since the
    warning is logged under `mkdocs.`)."""
    import logging
    from types import SimpleNamespace

    from generator.adapters.mkdocs.support import resolve_site_url

    for value in ("", None):
        built = SimpleNamespace(site_url=value)
        with caplog.at_level(logging.WARNING, logger="mkdocs"):
            resolve_site_url(built, preview=False)
        assert built.site_url == value
        (record,) = [r for r in caplog.records if r.name.startswith("mkdocs.")]
        assert record.levelno == logging.WARNING and "site_url is not set" in record.message
        assert "SITE_URL" in record.message and "sitemap" in record.message
        caplog.clear()
    previewed = SimpleNamespace(site_url="http://127.0.0.1:8000/")
    with caplog.at_level(logging.WARNING, logger="mkdocs"):
        resolve_site_url(previewed, preview=True)
    assert caplog.records == []
    given = SimpleNamespace(site_url="https://incidents.example.org/")
    resolve_site_url(given, preview=False)
    assert given.site_url == "https://incidents.example.org/"


def test_strict_refuses_a_build_without_its_address_and_builds_one_with_it(tmp_path):
    """--strict without SITE_URL: the warning (the fixture's review warnings come with it), then
    one line saying the build stopped, and no site written. With SITE_URL: the sitemap, canonical links, feeds and citations give
    absolute addresses under it."""
    import xml.etree.ElementTree as ET

    project = Project(tmp_path / "project")
    write_fixture_library(project)
    refused = build(project.root, "--strict")
    assert refused.returncode == 1
    lines = refused.stderr.splitlines()
    (warning,) = [line for line in lines if "site_url is not set" in line]
    assert warning.startswith("WARNING") and "set SITE_URL" in warning
    assert re.fullmatch(r"error: Aborted with \d+ warnings in strict mode!", lines[-1])
    assert not (project.root / "site").exists()

    built = build(project.root, site_url="https://lib.example.org/incidents/")
    assert built.returncode == 0, built.stderr[-2000:]
    assert "site_url is not set" not in built.stderr
    site, base = project.root / "site", "https://lib.example.org/incidents/"
    ns = {"s": "http://www.sitemaps.org/schemas/sitemap/0.9", "x": "http://www.w3.org/1999/xhtml"}
    entries = ET.parse(site / "sitemap.xml").getroot().findall("s:url", ns)
    urls = {u.find("s:loc", ns).text: u for u in entries}
    case = urls[f"{base}ko/cases/globex-etcd-outage.html"]
    assert {
        link.attrib["hreflang"]: link.attrib["href"] for link in case.findall("x:link", ns)
    } == {
        "ko": f"{base}ko/cases/globex-etcd-outage.html",
        "en": f"{base}en/cases/globex-etcd-outage.html",
        "x-default": f"{base}index.html",
    }
    assert (site / "sitemap.xml.gz").is_file()
    text = (site / "en/cases/globex-etcd-outage.html").read_text(encoding="utf-8")
    assert f'<link rel="canonical" href="{base}en/cases/globex-etcd-outage.html">' in text
    assert f'<a href="{base}en/cases/globex-etcd-outage.html">' in text  # the permalink
    assert f"howpublished = {{\\url{{{base}en/cases/globex-etcd-outage.html}}}}" in text
    home = (site / "ko/index.html").read_text(encoding="utf-8")
    assert f'<link rel="canonical" href="{base}ko/index.html">' in home
    feed = (site / "en/feed.xml").read_text(encoding="utf-8")
    assert f"<id>{base}en/cases/globex-etcd-outage.html</id>" in feed and "urn:uuid" not in feed


def _built(root: Path):
    """Build the project at `root` with MkDocs' own build() in this process; its plugin object
    keeps this build's site and MkDocs objects."""
    from mkdocs.commands.build import build as mkdocs_build
    from mkdocs.config import load_config

    config = load_config(str(root / "mkdocs.yml"))
    mkdocs_build(config)
    return config, config.plugins["incident-library"]


def _framer(config, plugin):
    from generator.adapters.mkdocs.frames import Framer

    nav, files, env = plugin.mkdocs
    return Framer(config, env, nav, files, plugin.site, plugin.known)


def test_every_framed_page_is_what_material_draws_for_it(tmp_path):
    """The pages outside the navigation are Material's frame drawn once per kind and filled in
    per page: each must equal the page Material draws for it in full, with its own title,
    description, address, language links, sections and content, escaped as Jinja escapes
    them (the title here holds &, ' and <, which Material's header would write as they are)."""
    from markupsafe import Markup

    from generator.adapters.mkdocs.frames import framed

    project = Project(tmp_path / "project")
    write_fixture_library(project)
    project.add_incident(
        "initech-odd-title",
        title="Initech: O'Brien & the <5 GPUs",
        organization="acme",
        contributing_factor="[]",  # no section of its own: other sections than the rest
    )
    config, plugin = _built(project.root)
    framer = _framer(config, plugin)
    site, written = plugin.site, project.root / "site"
    pages = [p for p in site.pages if framed(p)]
    kinds = {type(p).__name__ for p in pages}
    assert {"CasePage", "TermPage", "HomePage"} <= kinds
    cases = [p for p in pages if p.url.startswith("en/cases/")]
    assert len({framer.key(p) for p in cases}) == 2 < len(cases)  # one frame serves many
    for page in pages:
        values = framer.values(page, site.content(page.url))
        expected = framer.material(page, {k: Markup(v) for k, v in values.items()})
        assert (written / page.url).read_text(encoding="utf-8") == expected, page.url
    odd = (written / "en/cases/initech-odd-title.html").read_text(encoding="utf-8")
    assert "<title>Initech: O&#39;Brien &amp; the &lt;5 GPUs - " in odd
    assert "the <5" not in odd.split("</header>")[0]


def test_a_preview_writes_again_only_what_a_rebuild_changed(tmp_path):
    """serve --dirty: after an edit, the pages and files the rebuild changed are written, and
    the files no longer on disk; the others are left as they were. Without `pages` and
    `files` (a build) every one is written."""
    from generator.adapters.mkdocs import frames
    from generator.pipeline.executor import serial

    project = Project(tmp_path / "project")
    write_fixture_library(project)
    config, plugin = _built(project.root)
    framer = _framer(config, plugin)
    site = project.root / "site"
    case, other = (
        site / "en/cases/acme-gpu-outage-01.html",
        site / "en/cases/acme-gpu-outage-02.html",
    )
    data, gone = site / "en/search/text/0.js", site / "en/search/text/1.js"
    for path in (case, other, data):
        path.write_text("stale", encoding="utf-8")
    gone.unlink()
    drawn = frames.write(
        framer, serial, plugin.frames, pages={case.relative_to(site).as_posix()}, files=set()
    )
    assert drawn == plugin.frames
    assert case.read_text(encoding="utf-8").lstrip().startswith("<!doctype html>")
    assert other.read_text(encoding="utf-8") == "stale"
    assert data.read_text(encoding="utf-8") == "stale" and gone.is_file()
    # A frame that changed (the navigation, the theme) writes every page of its kind again.
    changed = {key: frames.Frame(("changed",), ()) for key in plugin.frames}
    frames.write(framer, serial, changed, pages=set(), files=set())
    assert other.read_text(encoding="utf-8").lstrip().startswith("<!doctype html>")
    frames.write(framer, serial, plugin.frames)
    assert data.read_bytes() == plugin.site.files["en/search/text/0.js"]


def test_a_preview_draws_one_frame_per_language_while_they_hold(tmp_path, monkeypatch):
    """A rebuild of the preview draws one page of each language again; as long as those are
    drawn as before, the last rebuild's frames are used, and a kind of page new since is drawn."""
    from generator.adapters.mkdocs import frames

    project = Project(tmp_path / "project")
    write_fixture_library(project)
    config, plugin = _built(project.root)
    framer = _framer(config, plugin)
    drawn = []
    draw = frames.Framer.draw

    def counting(self, page):
        drawn.append(page.lang)
        return draw(self, page)

    monkeypatch.setattr(frames.Framer, "draw", counting)
    kept = frames.write(framer, serial_executor(), plugin.frames, pages=set(), files=set())
    assert sorted(drawn) == ["en", "ko"] and kept == plugin.frames
    drawn.clear()
    term = next(p for p in plugin.site.pages if type(p).__name__ == "TermPage")
    fewer = {key: frame for key, frame in plugin.frames.items() if key != framer.key(term)}
    assert frames.write(framer, serial_executor(), fewer, pages=set(), files=set()) == kept
    assert len(drawn) == 3  # the probes, and the kind of page missing from `fewer`


def serial_executor():
    from generator.pipeline.executor import serial

    return serial


def test_a_dirty_rebuild_keeps_the_names_of_the_hand_written_pages(tmp_path):
    """`serve --dirty`: MkDocs reads only the hand-written pages that changed; the pages drawn
    in a rebuild still name the others in their navigation (they said "None"), so the frames
    of the last rebuild still hold and no page is written again for nothing."""
    from mkdocs.commands.build import build as mkdocs_build
    from mkdocs.config import load_config

    project = Project(tmp_path / "project")
    write_fixture_library(project)
    site = tmp_path / "served"

    def rebuild(start: bool = False):
        config = load_config(str(project.root / "mkdocs.yml"), site_dir=str(site))
        if start:  # MkDocs keeps its plugin objects in this process: a new server starts afresh
            config.plugins.on_shutdown()
        config.plugins.on_startup(command="serve", dirty=True)
        mkdocs_build(config, serve_url="http://127.0.0.1:8000/", dirty=True)
        return config.plugins["incident-library"]

    first = rebuild(start=True).frames
    second = rebuild().frames
    assert second == first
    page = (site / "en/cases/acme-gpu-outage-01.html").read_text(encoding="utf-8")
    nav = page.split('class="md-nav md-nav--primary"', 1)[1].split("</nav>", 1)[0]
    assert "About" in nav and "None" not in nav


def test_a_preview_rebuilds_an_edited_case_without_mkdocs_as_mkdocs_would(tmp_path):
    """`serve --dirty`: an edit of the library alone is rebuilt by the core and written into the
    last full build's frames; the site is then the one a full build of the edited library
    writes, file for file. An edit of a hand-written page, a case added or a build error is
    left to MkDocs."""
    from mkdocs.commands.build import build as mkdocs_build
    from mkdocs.config import load_config

    project = Project(tmp_path / "project")
    write_fixture_library(project)

    def full(site):
        config = load_config(str(project.root / "mkdocs.yml"), site_dir=str(site))
        config.plugins.on_shutdown()  # MkDocs keeps its plugin objects: each server starts afresh
        config.plugins.on_startup(command="serve", dirty=True)
        mkdocs_build(config, serve_url="http://127.0.0.1:8000/", dirty=True)
        return config.plugins["incident-library"]

    def files(site):
        return {
            p.relative_to(site).as_posix(): p.read_bytes() for p in site.rglob("*") if p.is_file()
        }

    served, fresh = tmp_path / "served", tmp_path / "fresh"
    plugin = full(served)
    case = project.incidents / "acme-gpu-outage-01.md"
    text = case.read_text(encoding="utf-8")
    case.write_text(text.replace("Acme: GPUs fall off the bus", "Acme: edited"), encoding="utf-8")
    before = files(served)
    assert plugin.preview.rebuild(plugin)
    after = files(served)
    assert "Acme: edited" in after["en/cases/acme-gpu-outage-01.html"].decode()
    assert after["en/cases/acme-gpu-outage-02.html"] == before["en/cases/acme-gpu-outage-02.html"]
    # Left to MkDocs: a broken case, a new case, an edited hand-written page.
    case.write_text(text.replace("cause: [", "cause: [gpu-failur, "), encoding="utf-8")
    assert not plugin.preview.rebuild(plugin) and files(served) == after
    case.write_text(text.replace("Acme: GPUs fall off the bus", "Acme: edited"), encoding="utf-8")
    project.add_incident("initech-new-case")
    assert not plugin.preview.rebuild(plugin) and files(served) == after
    for path in project.incidents.glob("initech-new-case*"):
        path.unlink()
    page = next((project.root / "docs" / "en").glob("*.md"))
    written = page.read_text(encoding="utf-8")
    page.write_text(written + "\nOne more line.\n", encoding="utf-8")
    assert not plugin.preview.rebuild(plugin) and files(served) == after
    page.write_text(written, encoding="utf-8")
    full(fresh)
    assert files(fresh) == after


def test_the_preview_is_told_of_saved_files_and_not_of_files_read(tmp_path):
    """The preview server hears of a saved file from the kernel, not by polling every half
    second; reading a file (as every rebuild reads the library) does not start a rebuild."""
    import time

    from mkdocs.livereload import LiveReloadServer

    from generator.adapters.mkdocs import support

    watched = tmp_path / "incidents"
    watched.mkdir()
    case = watched / "a.md"
    case.write_text("one", encoding="utf-8")
    server = LiveReloadServer(builder=lambda: None, host="127.0.0.1", port=0, root=str(tmp_path))
    server.watch(str(watched))
    support.notified_watching(server)
    assert isinstance(server.observer, support._ChangeObserver)
    assert server._watched_paths == {str(watched): 1}

    def heard(action) -> bool:
        with server._rebuild_cond:
            server._want_rebuild = False
        action()
        deadline = time.monotonic() + 2
        while time.monotonic() < deadline and not server._want_rebuild:
            time.sleep(0.02)
        return server._want_rebuild

    server.observer.start()
    try:
        assert not heard(lambda: case.read_text(encoding="utf-8"))
        assert heard(lambda: case.write_text("two", encoding="utf-8"))
        assert heard(lambda: (watched / "b.md").write_text("new", encoding="utf-8"))
    finally:
        server.observer.stop()
        server.observer.join()
        server.server_close()
