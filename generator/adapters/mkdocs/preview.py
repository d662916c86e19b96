"""A preview session: what lives across the rebuilds of `incidents serve`.

MkDocs' preview server builds the site again after every saved file. The session, made when the
server starts, holds what one build leaves for the next: the last site written (the core keeps
from it what an edit did not change), the frames it was written in, the check cache, the theme's
compiled templates, and the MkDocs objects of the last full build (`Shell`). It decides what of
them holds for the next build; the plugin's hooks hand it each full build to write.

After an edit of the library alone, the session rebuilds without MkDocs (`rebuild`). MkDocs'
part of a rebuild (reading its settings again, the hand-written pages, the navigation, the
theme's files: half a second for a thousand cases) gives the same result while its inputs are
as they were at the last full build (`support.input_stamp`) and the edit changed only pages
outside the navigation, with the same pages and navigation. Then the core builds the site, and
the pages it changed are filled into the frames of the last full build and written, with the
other files it changed: what MkDocs' dirty build would have written. Anything else (a
hand-written page or mkdocs.yml edited, a case added or removed, a page of the navigation
changed, a build error) is left to MkDocs' build.

MkDocs' dirty build never deletes: a case removed or renamed, a term no case uses any more, a
search file no longer made would stay in the folder the server serves. The session knows every
path the last build wrote and the new build writes (`written`), and removes what only the last
one wrote; nothing else in the folder is touched.
"""

from __future__ import annotations

import contextlib
import os
import time
from collections.abc import Callable, Iterable, Mapping
from dataclasses import dataclass
from pathlib import Path
from types import MappingProxyType
from typing import Any

from ...pipeline.check_cache import CheckCache
from ...pipeline.executor import Executor, serial
from ...pipeline.site import BuildError, Site, build
from . import frames, reload, support
from .errors import PreviewErrors


@dataclass(frozen=True)
class Shell:
    """What the last full build made with MkDocs, what MkDocs read, and what the core built
    from: all a rebuild without MkDocs needs."""

    config: Any
    env: Any
    nav: Any
    files: Any
    known: frozenset[str]  # every page's address
    alternates: Mapping[str, list[dict[str, str]]]  # each framed page's language links
    stamp: tuple  # MkDocs' inputs as the build began (support.input_stamp)
    inputs: tuple  # the project's paths and the site's options

    def framer(self, site: Site) -> frames.Framer:
        """A framer of `site` with the last full build's MkDocs objects."""
        mkdocs = (self.config, self.env, self.nav, self.files)
        return frames.Framer(*mkdocs, site, self.known, self.alternates)


class Session:
    """A preview's state between rebuilds."""

    def __init__(self, dirty: bool) -> None:
        # Whether the site folder keeps the last build's files (`serve --dirty`, which
        # `incidents serve` runs): then only what changed is written, and MkDocs may be left out.
        self.dirty = dirty
        self.site: Site | None = None  # the last site written
        self.frames: dict[frames.Key, frames.Frame] = {}  # the frames it was written in
        self.cache = CheckCache()  # each incident file's check, by content
        self.bytecode = support.MemoryBytecodeCache()  # the theme's compiled templates
        self.shell: Shell | None = None  # the last full build, while it may be rebuilt in
        self.stamp: tuple = ()  # MkDocs' inputs as the full build under way began
        self.error: str | None = None  # what stopped the last build, shown on every page
        self.written: frozenset[str] = frozenset()  # every path the last build wrote

    def begin(self, config) -> None:
        """A full build begins: MkDocs' inputs are stamped before it reads any, and until the
        build is written there is no shell to rebuild in."""
        self.shell, self.error, self.stamp = None, None, support.input_stamp(config)

    def failed(self, error: str) -> None:
        self.shell, self.error = None, error

    def build(self, inputs: tuple) -> Site:
        """The core's build, keeping what holds of the last site."""
        site = build(*inputs, serial, self.cache, self.site, preview=True)
        support.log_build(site, serial, site.changed_since(self.site))
        return site

    def write(self, framer: frames.Framer, executor: Executor, inputs: tuple) -> None:
        """Write a full build: what changed since the last site, if the folder holds it (else
        everything), in the last frames where they hold (`frames.hold`)."""
        site = framer.site
        pages = files = None
        if self.dirty and self.site is not None:
            pages, files = site.changed_since(self.site), site.files_changed_since(self.site)
        kept = self.frames if pages is not None and frames.hold(framer, self.frames) else {}
        self.frames = frames.write(framer, executor, kept, pages, files)
        self.site = site
        self.tidy(framer.config.site_dir, written(site, framer.files))
        if self.dirty:
            mkdocs = (framer.config, framer.env, framer.nav, framer.files)
            alternates = MappingProxyType(dict(framer.found))
            self.shell = Shell(*mkdocs, frozenset(framer.known), alternates, self.stamp, inputs)

    def rebuild(self) -> bool:
        """Rebuild the site without MkDocs and write what changed; False when MkDocs must build
        (and then nothing was written or changed)."""
        shell, last = self.shell, self.site
        if shell is None or last is None or support.input_stamp(shell.config) != shell.stamp:
            return False
        try:
            site = build(*shell.inputs, serial, self.cache, last, preview=True)
        except BuildError:
            return False
        changed = site.changed_since(last)
        same = (
            site.nav == last.nav
            and [p.url for p in site.pages] == [p.url for p in last.pages]
            and site.library.taxonomy == last.library.taxonomy
            and all(frames.framed(site.page(url)) for url in changed)
        )
        if not same:
            return False
        support.log_warnings(site.warnings)
        support.log_build(site, serial, changed)
        files = site.files_changed_since(last)
        self.frames = frames.write(shell.framer(site), serial, self.frames, changed, files)
        self.site = site
        self.tidy(shell.config.site_dir, written(site, shell.files))
        return True

    def tidy(self, site_dir: str, now: frozenset[str]) -> None:
        """Remove from the site folder what the last build wrote and this one (`now`) did not,
        and the folders that leaves empty."""
        remove_written(site_dir, self.written - now)
        self.written = now


def written(site: Site, files: Iterable) -> frozenset[str]:
    """Every path a build writes into the site folder: the core's pages and other files, and
    MkDocs' `files` (the hand-written pages, the theme's assets)."""
    return frozenset(
        (*(page.url for page in site.pages), *site.files, *(file.dest_uri for file in files))
    )


def remove_written(site_dir: str, paths: Iterable[str]) -> None:
    """Remove `paths` (relative to `site_dir`, each written there by a build) and every folder
    of theirs left empty, up to `site_dir`."""
    folders: set[str] = set()
    for path in sorted(paths):
        parts = path.split("/")
        if not path or os.path.isabs(path) or ".." in parts:
            continue  # not a path a build writes; never followed out of the folder
        try:
            os.remove(os.path.join(site_dir, *parts))
        except FileNotFoundError:
            pass
        except OSError as exc:
            support.log.warning("preview: could not remove %s: %s", path, exc.strerror)
        folders.update("/".join(parts[:n]) for n in range(1, len(parts)))
    for folder in sorted(folders, key=lambda f: -f.count("/")):  # the deepest first
        with contextlib.suppress(OSError):  # not empty (or already gone)
            os.rmdir(os.path.join(site_dir, *folder.split("/")))


def serve(server, library_files: Iterable[Path], session: Session | None):
    """The preview server, set up: a failed rebuild would hold every request, so the error is
    shown instead (errors.py); the session rebuilds where it can, else MkDocs builds; changes
    are noticed as the kernel reports them (`support.notified_watching`), in the library too."""
    if session is not None:
        errors = PreviewErrors(lambda: session.error)
        server.builder = errors.builder(builder(server.builder, session.rebuild))
        server.set_app(errors.app(server.serve_request))
    reload.install(server)
    support.notified_watching(server)
    for path in library_files:
        if path.exists():
            server.watch(str(path))
    return server


def builder(build_all: Callable[..., None], quick: Callable[[], bool]) -> Callable[..., None]:
    """The preview server's builder: `quick` where it can, else MkDocs' build."""

    def rebuild_site(*args, **kwargs) -> None:
        started = time.perf_counter()
        if not (args or kwargs) and quick():
            support.log.info("preview: rebuilt in %.2f s", time.perf_counter() - started)
            return
        build_all(*args, **kwargs)

    return rebuild_site
