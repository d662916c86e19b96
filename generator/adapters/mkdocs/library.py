"""A preview's rebuild after an edit of the library alone, without MkDocs.

MkDocs' part of a preview's rebuild (reading its settings again, the hand-written pages, the
navigation, the theme's files: half a second at 1,000 cases) gives the same result while its
inputs are as they were at the last full build (`support.input_stamp`) and the edit changed
only pages outside the navigation, with the same pages and navigation. Then the core builds the
site, and the pages it changed are filled into the frames of the last full build and written,
with the other files it changed: what MkDocs' dirty build would have written. Anything else
(a hand-written page or mkdocs.yml edited, a case added or removed, a page of the navigation
changed, a build error) is left to MkDocs' build, as before.
"""

from __future__ import annotations

import time
from collections.abc import Callable, Iterable
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from ...pipeline.executor import serial
from ...pipeline.site import BuildError, build
from . import frames, reload, support
from .preview import PreviewErrors


@dataclass(frozen=True)
class Shell:
    """What a preview's last full build made with MkDocs, and MkDocs' inputs when it began."""

    config: Any
    nav: Any
    files: Any
    env: Any
    stamp: tuple
    alternates: dict  # each framed page's language links (frames.Framer), for the same pages


class Preview:
    """A preview's state between rebuilds: its last full build, and what the core builds from."""

    def __init__(self) -> None:
        self.shell: Shell | None = None
        self.stamp: tuple = ()
        self.inputs: tuple = ()  # the project's paths and the site's options

    def begin(self, config) -> None:
        """A full build begins: MkDocs' inputs are stamped before it reads any."""
        self.shell = None
        self.stamp = support.input_stamp(config)

    def built(self, config, nav, files, env, alternates: dict) -> None:
        self.shell = Shell(config, nav, files, env, self.stamp, alternates)

    def rebuild(self, plugin) -> bool:
        """Rebuild the plugin's site and write what changed; False when MkDocs must build (and
        then nothing was written or changed)."""
        shell, previous = self.shell, plugin.site
        if shell is None or previous is None or support.input_stamp(shell.config) != shell.stamp:
            return False
        try:
            site = build(*self.inputs, serial, plugin.cache, previous, outputs=False)
        except BuildError:
            return False
        changed = site.changed_since(previous)
        same = (
            site.nav == previous.nav
            and [p.url for p in site.pages] == [p.url for p in previous.pages]
            and site.library.taxonomy == previous.library.taxonomy
            and all(frames.framed(site.page(url)) for url in changed)
        )
        if not same:
            return False
        files = site.files_changed_since(previous)
        support.log_warnings(site.warnings)
        support.log_build(site, serial, changed, True)
        framer = frames.Framer(
            shell.config, shell.env, shell.nav, shell.files, site, plugin.known, shell.alternates
        )
        plugin.frames = frames.write(framer, serial, plugin.frames, changed, files)
        plugin.site, plugin.changed, plugin.changed_files = site, changed, files
        return True


def serve(
    server, library_files: Iterable[Path], error: Callable[[], str | None], preview: Preview, plugin
):
    """The preview server, set up: a failed rebuild would hold every request, so the error is
    shown instead (preview.py); `preview` rebuilds the plugin's site where it can, else MkDocs
    builds; changes are noticed as the kernel reports them (`support.notified_watching`), in
    the library too."""
    errors = PreviewErrors(error)
    server.builder = errors.builder(builder(server.builder, lambda: preview.rebuild(plugin)))
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
