"""Where a project's files are and which of them are incidents: the one file walker.

Kept apart from reading and validating (project.py) so that `incidents check` can tell that nothing
changed, by walking and stat-ing the files, without importing the models.
"""

from __future__ import annotations

import os
import re
from dataclasses import dataclass
from pathlib import Path

from ..validate.diagnostics import closest, printable


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


def incident_files(paths: ProjectPaths) -> list[tuple[Path, str]]:
    """(path, display path) of every incident file under the incidents folder, sorted by path:
    `*.md` entries other than README.md and CONTRIBUTING.md, skipping names that start with `.`
    or `_`. The one walker of the project (`incident_paths`, as Path objects).

    Every such entry that is not a folder is listed, links and special files included (what
    cannot be read as an incident is reported by the check, never skipped in silence); folders
    reached through links are not walked."""
    return [(Path(path), display) for path, display in incident_paths(paths)]


def incident_paths(paths: ProjectPaths) -> list[tuple[str, str]]:
    """`incident_files` with each path as a string: what a check of an unchanged library walks
    (a Path object per file costs more than stat-ing it). Names are computed from the walk
    itself: resolving each path again costs more than checking a cached file does."""
    folder = str(paths.incidents)
    prefix = paths.display(paths.incidents) + "/"
    found: list[tuple[tuple[str, ...], str]] = []

    def walk(directory: str, parts: tuple[str, ...]) -> None:
        try:
            entries = list(os.scandir(directory))
        except OSError:
            return
        for entry in entries:
            if entry.name.startswith((".", "_")):
                continue
            if entry.is_dir(follow_symlinks=False):
                walk(entry.path, (*parts, entry.name))
            elif entry.name.endswith(".md") and entry.name not in ("README.md", "CONTRIBUTING.md"):
                found.append(((*parts, entry.name), entry.path))

    if os.path.isdir(folder):
        walk(folder, ())
    out = []
    for parts, path in sorted(found, key=lambda item: item[0]):
        relative = "/".join(parts)
        try:
            relative.encode("utf-8")
            display = prefix + relative
        except UnicodeEncodeError:  # a name that is not UTF-8: let display() show it safely
            display = paths.display(Path(path))
        out.append((path, display))
    return out


# The folder of `incidents audit`'s checks (a folder per check: check.yml and its examples).
CHECKS_FOLDER = "checks"


def check_files(paths: ProjectPaths) -> list[str]:
    """Every file of the project's checks, sorted (names that start with `.` or `_` skipped):
    what a check of an unchanged project stats, as it does the incident files."""
    folder = paths.root / CHECKS_FOLDER
    found: list[str] = []
    try:
        checks = sorted(os.scandir(folder), key=lambda e: e.name)
    except OSError:
        return found
    for check in checks:
        if check.name.startswith((".", "_")) or not check.is_dir(follow_symlinks=False):
            continue
        try:
            names = sorted(os.scandir(check.path), key=lambda e: e.name)
        except OSError:
            continue
        found.extend(e.path for e in names if not e.name.startswith((".", "_")))
    return found


def select_incident_files(
    paths: ProjectPaths, given: list[Path]
) -> tuple[frozenset[str], list[str]]:
    """The incident files that `given` paths name, as display paths, and a problem for each path
    that names none: a folder selects the incident files inside it (`.` or `incidents/` select
    them all), a file must be one of the project's incident files."""
    files = incident_files(paths)
    resolved = [(Path(os.path.realpath(path)), display) for path, display in files]
    selected: set[str] = set()
    problems: list[str] = []
    for path in given:
        shown = printable(str(path))
        real = Path(os.path.realpath(path))
        if not os.path.lexists(path):
            names = {p.name: p for p, _ in files}
            guess = closest(path.name, names)
            hint = f" (did you mean '{paths.display(names[guess])}'?)" if guess else ""
            problems.append(f"{shown}: no such file or folder{hint}")
        elif real.is_dir():
            inside = [d for r, d in resolved if r == real or real in r.parents]
            if not inside:
                problems.append(
                    f"{shown}: no incident files in this folder; incidents live in "
                    f"{paths.display(paths.incidents)}/"
                )
            selected.update(inside)
        else:
            match = [d for r, d in resolved if r == real]
            if match:
                selected.update(match)
            elif real == paths.incidents or paths.incidents in real.parents:
                problems.append(
                    f"{shown}: not an incident file; incident files are <id>.md and <id>.<ko|en>.md"
                )
            else:
                problems.append(
                    f"{shown}: not in {paths.display(paths.incidents)}/, the folder this project "
                    "reads incidents from"
                )
    return frozenset(selected), problems
