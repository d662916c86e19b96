"""A project on disk: where its taxonomy and incidents live, and loading both (the I/O edge)."""

from __future__ import annotations

import os
import re
from dataclasses import dataclass
from datetime import date
from pathlib import Path

from .diagnostics import Diagnostic, capped, ordered
from .load import (
    LoadError,
    MarkdownFile,
    iter_markdown_files,
    parse_yaml,
    read_text,
    split_front_matter,
)
from .taxonomy import Taxonomy, build_taxonomy
from .validate import ValidationResult, validate_incidents

# Problems reported per file; past this, one line says how many more there are.
MAX_DIAGNOSTICS_PER_FILE = 100


@dataclass(frozen=True)
class ProjectPaths:
    root: Path
    taxonomy: Path
    incidents: Path

    @classmethod
    def at(
        cls, root: Path, taxonomy: str = "taxonomy.yml", incidents: str = "incidents"
    ) -> ProjectPaths:
        root = root.resolve()
        return cls(root, root / taxonomy, root / incidents)

    def display(self, path: Path) -> str:
        """A path as contributors see it: relative to the project root, with forward slashes.

        A symbolic link is shown where it is, not where it points. Bytes in a file name that are
        not UTF-8 are shown as U+FFFD.
        """
        absolute = Path(os.path.normpath(path.absolute()))
        try:
            shown = absolute.relative_to(self.root).as_posix()
        except ValueError:
            try:
                shown = path.resolve().relative_to(self.root).as_posix()
            except ValueError:
                shown = os.path.relpath(path, self.root).replace(os.sep, "/")
        return re.sub("[\ud800-\udfff]", "\ufffd", shown)  # os.fsdecode's escaped bytes


@dataclass(frozen=True)
class Checked:
    """Everything a check of the project found: the taxonomy (if it loaded) and the incidents."""

    taxonomy: Taxonomy | None
    result: ValidationResult

    @property
    def diagnostics(self) -> tuple[Diagnostic, ...]:
        return self.result.diagnostics


def load_taxonomy(paths: ProjectPaths) -> Taxonomy:
    display = paths.display(paths.taxonomy)
    if not paths.taxonomy.is_file():
        raise LoadError([Diagnostic(display, 1, 1, "", "taxonomy file not found")])
    source = read_text(paths.taxonomy, display)
    return build_taxonomy(parse_yaml(source.text, display), display)


def load_incident_file(path: Path, display: str) -> MarkdownFile:
    if path.is_symlink():
        message = "is a symbolic link; commit the incident file itself"
        raise LoadError([Diagnostic(display, 1, 1, "", message)])
    return split_front_matter(read_text(path, display))


def check_project(paths: ProjectPaths, today: date, only: list[Path] | None = None) -> Checked:
    """Load and validate the taxonomy and every incident file; never raises for bad content.

    `only` limits the reported diagnostics to those files (and their translations or originals),
    but every file is still loaded, so duplicates and pairings are judged against the whole library.
    """
    try:
        taxonomy = load_taxonomy(paths)
    except LoadError as exc:
        return Checked(None, ValidationResult((), tuple(exc.diagnostics)))
    files: list[MarkdownFile] = []
    problems: list[Diagnostic] = []
    unreadable: set[str] = set()
    for path in iter_markdown_files(paths.incidents):
        try:
            files.append(load_incident_file(path, paths.display(path)))
        except LoadError as exc:
            problems.extend(exc.diagnostics)
            unreadable.add(path.name.split(".")[0])
    result = validate_incidents(files, taxonomy, today, frozenset(unreadable))
    diagnostics = ordered([*problems, *result.diagnostics])
    if only is not None:
        wanted = {_incident_stem(paths.display(p)) for p in only}
        diagnostics = tuple(d for d in diagnostics if _incident_stem(d.path) in wanted)
    diagnostics = capped(diagnostics, MAX_DIAGNOSTICS_PER_FILE)
    return Checked(taxonomy, ValidationResult(result.incidents, diagnostics))


def _incident_stem(display: str) -> str:
    """`incidents/x.en.md` and `incidents/x.md` both -> `incidents/x`."""
    if display.endswith(".md"):
        display = display[: -len(".md")]
    head, _, name = display.rpartition("/")
    name = name.split(".")[0]
    return f"{head}/{name}" if head else name
