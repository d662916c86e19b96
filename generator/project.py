"""A project on disk: where its taxonomy and incidents live, and loading both (the I/O edge)."""

from __future__ import annotations

import hashlib
import os
import re
from dataclasses import dataclass
from datetime import date
from pathlib import Path

from .check_cache import CheckCache, file_stat, key
from .diagnostics import Diagnostic, capped, closest, printable
from .load import (
    LoadError,
    MarkdownFile,
    decode_text,
    parse_yaml,
    read_bytes,
    read_text,
    split_front_matter,
)
from .parallel import split_map
from .taxonomy import Taxonomy, build_taxonomy
from .validate import FileOutcome, ValidationResult, check_file, combine

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


def select_incident_files(
    paths: ProjectPaths, given: list[Path]
) -> tuple[frozenset[str], list[str]]:
    """The incident files that `given` paths name, as display paths, and a problem for each path
    that names none: a folder selects the incident files inside it (`.` or `incidents/` select
    them all), a file must be one of the project's incident files."""
    files = _incident_files(paths)
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


def check_project(
    paths: ProjectPaths,
    today: date,
    only: frozenset[str] | None = None,
    cache: CheckCache | None = None,
) -> Checked:
    """Load and validate the taxonomy and every incident file; never raises for bad content.

    `only` (display paths, see `select_incident_files`) limits the reported diagnostics to those
    files (and their translations or originals),
    but every file is still loaded, so duplicates and pairings are judged against the whole library.
    With a `cache`, a file whose bytes were checked before (against the same taxonomy, code and
    date) is not parsed again.
    """
    try:
        taxonomy = load_taxonomy(paths)
    except LoadError as exc:
        return Checked(None, ValidationResult((), tuple(exc.diagnostics)))
    context = hashlib.sha256(f"{taxonomy!r}\x00{today.isoformat()}".encode()).hexdigest()
    files = _incident_files(paths)
    summaries = cache is not None and cache.summaries
    if cache is not None:
        cache.begin()
    stats = [file_stat(path) for path, _ in files]
    outcomes: list[FileOutcome | None] = [None] * len(files)
    todo = []
    for index, (_, display) in enumerate(files):
        # A file whose stat is the one recorded when its content was checked is unchanged
        # (see check_cache.py for why that holds): its outcome is used without reading it.
        hit = cache.unchanged(display, stats[index], context) if cache is not None else None
        if hit is not None:
            outcomes[index] = hit
        else:
            todo.append(index)
    entries = cache.entries if cache is not None else {}

    def check(n: int) -> tuple[FileOutcome, tuple | None, bool]:
        """One file: (outcome, cache key, whether it came from the cache)."""
        path, display = files[todo[n]]
        read = _read(path, display)
        if isinstance(read, FileOutcome):
            return read, None, False
        entry = key(display, read, context)
        hit = entries.get(entry)
        if hit is not None:
            return hit, entry, True
        outcome = _check_bytes(read, path, display, taxonomy, today)
        # A summary is all `incidents check` keeps, and far cheaper to send back from a worker.
        return (outcome.summary() if summaries else outcome), entry, False

    # Reading, parsing and validating is nearly all of the work and each file stands alone:
    # with two processors, forked workers share the files (see parallel.py).
    for index, (outcome, entry, hit) in zip(todo, split_map(check, len(todo)), strict=True):
        outcomes[index] = outcome
        if cache is not None and entry is not None:
            if hit:
                cache.get(entry)  # marks the entry as used
            else:
                cache.put(entry, outcome)
            cache.record(files[index][1], stats[index], entry)
    if cache is not None:
        cache.save()
    result = combine(outcomes)
    diagnostics = result.diagnostics
    if only is not None:
        wanted = {_incident_stem(p) for p in only}
        diagnostics = tuple(d for d in diagnostics if _incident_stem(d.path) in wanted)
    diagnostics = capped(diagnostics, MAX_DIAGNOSTICS_PER_FILE)
    return Checked(taxonomy, ValidationResult(result.incidents, diagnostics))


def _incident_files(paths: ProjectPaths) -> list[tuple[Path, str]]:
    """(path, display path) of every incident file, in the order of iter_markdown_files.

    Names are computed from the walk itself: resolving each path again costs more than
    checking a cached file does."""
    folder = str(paths.incidents)
    prefix = paths.display(paths.incidents) + "/"
    found: list[tuple[tuple[str, ...], Path]] = []

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
            elif (
                entry.name.endswith(".md")
                and entry.name not in ("README.md", "CONTRIBUTING.md")
                and entry.is_file()
            ):
                found.append(((*parts, entry.name), Path(entry.path)))

    if os.path.isdir(folder):
        walk(folder, ())
    out = []
    for parts, path in sorted(found, key=lambda item: item[0]):
        relative = "/".join(parts)
        try:
            relative.encode("utf-8")
            display = prefix + relative
        except UnicodeEncodeError:  # a name that is not UTF-8: let display() show it safely
            display = paths.display(path)
        out.append((path, display))
    return out


def _read(path: Path, display: str) -> bytes | FileOutcome:
    """The file's bytes, or the outcome of a file that cannot be read."""
    stem = path.name.split(".")[0]
    try:
        if os.path.islink(path):
            message = "is a symbolic link; commit the incident file itself"
            raise LoadError([Diagnostic(display, 1, 1, "", message)])
        return read_bytes(path, display)
    except LoadError as exc:
        return FileOutcome(display, stem, None, problems=tuple(exc.diagnostics), unreadable=True)


def _check_bytes(
    raw: bytes, path: Path, display: str, taxonomy: Taxonomy, today: date
) -> FileOutcome:
    stem = path.name.split(".")[0]
    try:
        return check_file(split_front_matter(decode_text(raw, display)), taxonomy, today)
    except LoadError as exc:
        return FileOutcome(display, stem, None, problems=tuple(exc.diagnostics), unreadable=True)


def _incident_stem(display: str) -> str:
    """`incidents/x.en.md` and `incidents/x.md` both -> `incidents/x`."""
    if display.endswith(".md"):
        display = display[: -len(".md")]
    head, _, name = display.rpartition("/")
    name = name.split(".")[0]
    return f"{head}/{name}" if head else name
