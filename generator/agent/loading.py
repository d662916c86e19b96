"""The library an agent server serves, loaded on a thread of its own.

The handshake and the list of tools need only the taxonomy (the tools' schemas name its facets),
which is read before the server starts; the cases are read, checked and indexed behind it, so an
agent's client connects at once and a call waits only for what it needs: reading a case waits
for the library, a search also for the search index (built next, on the same thread).

From the repository, a file with errors does not stop the server: its incident is left out, and
the problems are kept (`problems`) as `incidents check` prints them.
"""

from __future__ import annotations

import threading
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from datetime import date
from pathlib import Path

from ..languages import DEFAULT
from ..model.taxonomy import Taxonomy
from .arguments import CatalogueError
from .catalogue import Catalogue

Report = Callable[[str], None]


class StartError(Exception):
    """The server cannot start: the lines say why (a taxonomy that does not load, exports that
    are not there)."""

    def __init__(self, lines: list[str]) -> None:
        super().__init__("\n".join(lines))
        self.lines = lines


@dataclass(frozen=True)
class Loaded:
    catalogue: Catalogue
    problems: tuple[str, ...] = ()  # errors that left incidents out, one line each
    left_out: tuple[str, ...] = field(default=())  # ids of the incidents left out


class LibrarySource:
    """The taxonomy now, the catalogue when it is loaded: `load` runs on a daemon thread from
    `start` on (the server calls it once it is ready to answer: the loading holds the
    interpreter most of the time, and the handshake should not wait for its turn)."""

    first_lang = DEFAULT  # the language whose search is prepared first

    def __init__(
        self,
        taxonomy: Taxonomy,
        origin: str,
        load: Callable[[], Loaded],
        root: Path | None = None,
    ) -> None:
        self.taxonomy = taxonomy
        self.origin = origin  # where the library comes from, for messages
        self.root = root  # the repository, when the library is read from one (its checks)
        self._load = load
        self._ready = threading.Event()
        self._loaded: Loaded | None = None
        self._failure = ""
        self._started = False

    def start(self) -> None:
        if not self._started:
            self._started = True
            threading.Thread(target=self._run, name="library-loader", daemon=True).start()

    def _run(self) -> None:
        try:
            self._loaded = self._load()
        except Exception as exc:  # reported to every call, never a crash of the server
            self._failure = str(exc) or type(exc).__name__
        finally:
            self._ready.set()
        if self._loaded is not None:
            self._loaded.catalogue.corpus(self.first_lang)  # the index, before a search asks

    def loaded(self, timeout: float | None = None) -> Loaded:
        """The library, once loaded (waiting for it); CatalogueError if it could not be."""
        self.start()
        if not self._ready.wait(timeout):
            raise CatalogueError(f"the library from {self.origin} is still loading; ask again")
        if self._loaded is None:
            failure = self._failure
            raise CatalogueError(f"the library from {self.origin} could not be read: {failure}")
        return self._loaded

    def catalogue(self) -> Catalogue:
        return self.loaded().catalogue


def from_export(path: Path, site_url: str | None, report: Report) -> LibrarySource:
    """A built or downloaded site's exports (`api/` or its incidents.json)."""
    from ..load.export import ExportError, export_folder, read_incidents, read_taxonomy

    try:
        folder = export_folder(path)
        taxonomy = read_taxonomy(folder)
    except ExportError as exc:
        raise StartError([str(exc)]) from None

    def load() -> Loaded:
        started = time.perf_counter()
        try:
            library, built_for = read_incidents(folder, taxonomy)
        except ExportError as exc:
            report(f"incidents mcp: {exc}")
            raise
        catalogue = Catalogue(library, built_for if site_url is None else site_url)
        _ready(report, len(library.incidents), folder, started)
        return Loaded(catalogue)

    return LibrarySource(taxonomy, str(folder), load)


def from_root(root: Path, site_url: str, report: Report) -> LibrarySource:
    """The repository: its files checked as `incidents check` does; the incidents of files with
    errors are left out and the errors reported."""
    from ..load.front_matter import LoadError
    from ..load.inputs import input_problems
    from ..load.project import ProjectPaths, load_taxonomy

    paths = ProjectPaths.at(root)
    outside = input_problems(paths.root, [paths.taxonomy])
    if outside:
        raise StartError([d.format() for d in outside])
    try:
        taxonomy, _ = load_taxonomy(paths)
    except LoadError as exc:
        raise StartError([d.format() for d in exc.diagnostics]) from None

    def load() -> Loaded:
        from ..model.library import build_library
        from ..pipeline.check import check_project

        started = time.perf_counter()
        checked = check_project(paths, date.today())
        if checked.taxonomy is None:
            lines = [d.format() for d in checked.diagnostics]
            for line in lines:
                report(line)
            raise CatalogueError(lines[0] if lines else "the taxonomy does not load")
        errors = [d for d in checked.diagnostics if d.severity == "error"]
        left_out = sorted({_incident_of(d.path) for d in errors} - {""})
        problems = tuple(d.format() for d in errors)
        for line in problems:
            report(line)
        if left_out:
            report(
                f"incidents mcp: {len(left_out)} incident(s) left out for the errors above; "
                "run 'incidents check'"
            )
        kept = [i for i in checked.result.incidents if i.id not in set(left_out)]
        library = build_library(checked.taxonomy, kept)
        _ready(report, len(kept), paths.root, started)
        return Loaded(Catalogue(library, site_url), problems, tuple(left_out))

    return LibrarySource(taxonomy, str(paths.root), load, paths.root)


def _incident_of(path: str) -> str:
    """The incident a problem's file belongs to (`incidents/x.ko.md` -> x); "" for another."""
    name = Path(path).name
    return name.split(".")[0] if name.endswith(".md") else ""


def _ready(report: Report, count: int, origin: Path, started: float) -> None:
    took = time.perf_counter() - started
    report(f"incidents mcp: {count:,} incident(s) from {origin} loaded in {took:.1f} s")
