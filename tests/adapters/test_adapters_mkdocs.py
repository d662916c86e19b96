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


def _preview_build(project: Project, site: Path, start: bool = False):
    """One build of `incidents serve --dirty` into `site`, in this process; the library's plugin,
    which holds the preview session."""
    from mkdocs.commands.build import build as mkdocs_build
    from mkdocs.config import load_config

    config = load_config(str(project.root / "mkdocs.yml"), site_dir=str(site))
    if start:  # MkDocs keeps its plugin objects in this process: a new server starts afresh
        config.plugins.on_shutdown()
        config.plugins.on_startup(command="serve", dirty=True)
    mkdocs_build(config, serve_url="http://127.0.0.1:8000/", dirty=True)
    return config.plugins["incident-library"]


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


def test_the_plugin_keeps_one_build_and_one_preview_session_and_is_written_to_by_neither():
    """MkDocs keeps one plugin object for the life of the process. Its state is a build's
    (`BuildState`, made in on_config) and a preview's (`preview.Session`, made in on_startup),
    each in one object: no hook sets any other field of the plugin, and nothing outside the
    plugin sets any of its fields (the preview's rebuild writes into its own session)."""
    import ast

    folder = REPO / "generator" / "adapters" / "mkdocs"
    tree = ast.parse((folder / "plugin.py").read_text(encoding="utf-8"))
    plugin = next(
        n for n in tree.body if isinstance(n, ast.ClassDef) and n.name == "IncidentLibraryPlugin"
    )
    set_where: dict[str, set[str]] = {}
    for method in plugin.body:
        if not isinstance(method, ast.FunctionDef):
            continue
        assert method.name == "__init__" or method.name.startswith("on_"), method.name
        assert method.end_lineno - method.lineno <= 20, method.name  # hooks that translate
        for node in ast.walk(method):
            if isinstance(node, ast.Assign):
                targets = node.targets
            elif isinstance(node, ast.AnnAssign | ast.AugAssign):
                targets = [node.target]
            else:
                targets = []
            while any(isinstance(t, ast.Tuple) for t in targets):
                targets = [
                    e for t in targets for e in (t.elts if isinstance(t, ast.Tuple) else [t])
                ]
            for target in targets:  # `self.x = ...` sets the plugin's x; `self.x.y` sets x's y
                value = target.value if isinstance(target, ast.Attribute) else None
                if isinstance(value, ast.Name) and value.id == "self":
                    set_where.setdefault(target.attr, set()).add(method.name)
    assert set(set_where) == {"command", "dirty", "session", "state"}
    assert set_where["session"] == {"__init__", "on_startup", "on_shutdown"}
    assert set_where["state"] <= {"__init__", "on_config", "on_build_error", "on_shutdown"}
    assert set_where["command"] == set_where["dirty"] == {"__init__", "on_startup", "on_shutdown"}
    for module in sorted(folder.glob("*.py")):
        if module.name == "plugin.py":
            continue
        names = {
            node.id if isinstance(node, ast.Name) else node.arg
            for node in ast.walk(ast.parse(module.read_text(encoding="utf-8")))
            if isinstance(node, ast.Name | ast.arg)
        }
        assert not names & {"plugin", "IncidentLibraryPlugin"}, module.name


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
    one line saying the build stopped, and no site written. With SITE_URL: the sitemap,
    canonical links, feeds and citations give absolute addresses under it."""
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
    # The 404 page, which a server shows at any depth, links from the site's own root.
    missing = (site / "404.html").read_text(encoding="utf-8")
    assert 'href="/incidents/assets/library.css"' in missing and 'href="./' not in missing


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

    state = plugin.state
    return Framer(config, state.env, state.nav, state.files, state.site, state.known)


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
    site, written = plugin.state.site, project.root / "site"
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
    built = frames.write(framer, serial, {})
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
        framer, serial, built, pages={case.relative_to(site).as_posix()}, files=set()
    )
    assert drawn == built
    assert case.read_text(encoding="utf-8").lstrip().startswith("<!doctype html>")
    assert other.read_text(encoding="utf-8") == "stale"
    assert data.read_text(encoding="utf-8") == "stale" and gone.is_file()
    # Frames that no longer hold (the navigation, the theme changed) write every page again.
    assert frames.write(framer, serial, {}, pages=set(), files=set()) == built
    assert other.read_text(encoding="utf-8").lstrip().startswith("<!doctype html>")
    frames.write(framer, serial, built)
    assert data.read_bytes() == plugin.state.site.files["en/search/text/0.js"]


def test_a_preview_draws_one_frame_per_language_while_they_hold(tmp_path, monkeypatch):
    """A full rebuild of the preview draws one page of each language again; as long as those
    are drawn as before, the last frames hold, and only a kind of page new since is drawn."""
    from generator.adapters.mkdocs import frames
    from generator.pipeline.executor import serial

    project = Project(tmp_path / "project")
    write_fixture_library(project)
    config, plugin = _built(project.root)
    framer = _framer(config, plugin)
    built = frames.write(framer, serial, {})
    drawn = []
    draw = frames.Framer.draw

    def counting(self, page):
        drawn.append(page.lang)
        return draw(self, page)

    monkeypatch.setattr(frames.Framer, "draw", counting)
    assert frames.hold(framer, built) and sorted(drawn) == ["en", "ko"]
    drawn.clear()
    term = next(p for p in plugin.state.site.pages if type(p).__name__ == "TermPage")
    fewer = {key: frame for key, frame in built.items() if key != framer.key(term)}
    assert frames.write(framer, serial, fewer, pages=set(), files=set()) == built
    assert len(drawn) == 1  # the kind of page missing from `fewer`
    changed = {key: frames.Frame(("changed",), ()) for key in built}
    assert not frames.hold(framer, changed) and not frames.hold(framer, {})


def test_a_dirty_rebuild_keeps_the_names_of_the_hand_written_pages(tmp_path):
    """`serve --dirty`: MkDocs reads only the hand-written pages that changed; the pages drawn
    in a rebuild still name the others in their navigation (they said "None"), so the frames
    of the last rebuild still hold and no page is written again for nothing."""

    project = Project(tmp_path / "project")
    write_fixture_library(project)
    site = tmp_path / "served"

    def rebuild(start: bool = False):
        return _preview_build(project, site, start).session

    first = dict(rebuild(start=True).frames)
    case = site / "en/cases/acme-gpu-outage-01.html"
    written = case.stat().st_mtime_ns
    second = rebuild().frames
    assert second == first
    assert case.stat().st_mtime_ns == written  # its frame held: the page was not written again
    page = (site / "en/cases/acme-gpu-outage-01.html").read_text(encoding="utf-8")
    nav = page.split('class="md-nav md-nav--primary"', 1)[1].split("</nav>", 1)[0]
    assert "About" in nav and "None" not in nav


def test_a_preview_rebuilds_an_edited_case_without_mkdocs_as_mkdocs_would(tmp_path):
    """`serve --dirty`: an edit of the library alone is rebuilt by the core and written into the
    last full build's frames; the site is then the one a full build of the edited library
    writes, file for file. An edit of a hand-written page, a case added or a build error is
    left to MkDocs."""

    project = Project(tmp_path / "project")
    write_fixture_library(project)

    def full(site):
        return _preview_build(project, site, start=True)

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
    assert plugin.session.rebuild()
    after = files(served)
    assert "Acme: edited" in after["en/cases/acme-gpu-outage-01.html"].decode()
    assert after["en/cases/acme-gpu-outage-02.html"] == before["en/cases/acme-gpu-outage-02.html"]
    # Left to MkDocs: a broken case, a new case, an edited hand-written page.
    case.write_text(text.replace("cause: [", "cause: [gpu-failur, "), encoding="utf-8")
    assert not plugin.session.rebuild() and files(served) == after
    case.write_text(text.replace("Acme: GPUs fall off the bus", "Acme: edited"), encoding="utf-8")
    project.add_incident("initech-new-case")
    assert not plugin.session.rebuild() and files(served) == after
    for path in project.incidents.glob("initech-new-case*"):
        path.unlink()
    page = next((project.root / "docs" / "en").glob("*.md"))
    written = page.read_text(encoding="utf-8")
    page.write_text(written + "\nOne more line.\n", encoding="utf-8")
    assert not plugin.session.rebuild() and files(served) == after
    page.write_text(written, encoding="utf-8")
    full(fresh)
    assert files(fresh) == after


def test_a_preview_serves_no_page_or_file_its_last_build_no_longer_has(tmp_path):
    """`serve --dirty` writes into the folder it serves and MkDocs' dirty build deletes
    nothing. After an edit that drops a search file (rebuilt without MkDocs), cases removed
    (their pages in both languages, their organisation's second page, their search cards) and
    a case renamed (MkDocs' builds), the folder holds what a fresh build of the same library
    writes, no more; a file the builds did not write is left alone."""

    project = Project(tmp_path / "project")
    write_fixture_library(project)
    served, fresh = tmp_path / "served", tmp_path / "fresh"

    def build(site, start: bool = False):
        return _preview_build(project, site, start).session

    def files(site):
        return {
            p.relative_to(site).as_posix(): p.read_bytes() for p in site.rglob("*") if p.is_file()
        }

    session = build(served, start=True)
    (served / "notes.txt").write_text("not the build's", encoding="utf-8")
    first = files(served)

    # An edit of an old case (on no page of the navigation): a word of its own makes search
    # files, which go when the word does.
    case = project.incidents / "acme-gpu-outage-01.md"
    text = case.read_text(encoding="utf-8")
    case.write_text(text.replace("Acme: GPUs", "Acme: Xylophonequartz GPUs"), encoding="utf-8")
    assert session.rebuild()
    added = set(files(served)) - set(first)
    assert added and all("/search/" in path for path in added), added
    case.write_text(text, encoding="utf-8")
    assert session.rebuild()
    assert files(served) == first

    # Globex's case, and two of Acme's, which leaves Acme's 20 cases on one page of its term.
    removed = ("globex-etcd-outage", "acme-gpu-outage-21", "acme-gpu-outage-22")
    gone = [
        f"{lang}/{page}"
        for lang in ("ko", "en")
        for page in (*(f"cases/{case}.html" for case in removed), "organization/acme/2.html")
    ]
    assert all((served / page).is_file() for page in gone)
    for case in removed:
        for path in project.incidents.glob(f"{case}*"):
            path.unlink()
    assert build(served) is session
    assert [page for page in gone if (served / page).exists()] == []
    assert not list(served.glob("*/search/cards/globex-etcd-outage.js"))
    assert not (served / "en/organization/acme").exists()  # its folder, left empty

    # A case renamed: its files and its id.
    for path in project.incidents.glob("acme-gpu-outage-01*"):
        text = path.read_text(encoding="utf-8").replace("acme-gpu-outage-01", "acme-renamed")
        path.unlink()
        project.write(f"incidents/{path.name.replace('acme-gpu-outage-01', 'acme-renamed')}", text)
    build(served)
    assert not list(served.glob("*/cases/acme-gpu-outage-01.html"))
    assert len(list(served.glob("*/cases/acme-renamed.html"))) == 2

    assert (served / "notes.txt").read_text(encoding="utf-8") == "not the build's"
    (served / "notes.txt").unlink()
    build(fresh, start=True)
    assert sorted(set(files(served)) - set(files(fresh))) == []  # nothing stale
    assert files(served) == files(fresh)
    folders = [p.relative_to(served).as_posix() for p in served.rglob("*") if p.is_dir()]
    assert sorted(f for f in folders if not (fresh / f).is_dir()) == []


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
