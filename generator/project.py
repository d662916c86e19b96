"""A project on disk: where its taxonomy and incidents live, and loading both (the I/O edge)."""

from __future__ import annotations

import hashlib
import os
import pickle
import re
from dataclasses import dataclass
from datetime import date
from pathlib import Path

from .diagnostics import Diagnostic, capped
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

# Where `incidents check` keeps the outcomes of files it has checked (ignored by git).
CACHE_FILE = ".cache/incidents-check.pickle"
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


def check_project(
    paths: ProjectPaths,
    today: date,
    only: list[Path] | None = None,
    cache: CheckCache | None = None,
) -> Checked:
    """Load and validate the taxonomy and every incident file; never raises for bad content.

    `only` limits the reported diagnostics to those files (and their translations or originals),
    but every file is still loaded, so duplicates and pairings are judged against the whole library.
    With a `cache`, a file whose bytes were checked before (against the same taxonomy, code and
    date) is not parsed again.
    """
    try:
        taxonomy = load_taxonomy(paths)
    except LoadError as exc:
        return Checked(None, ValidationResult((), tuple(exc.diagnostics)))
    context = hashlib.sha256(f"{taxonomy!r}\x00{today.isoformat()}".encode()).digest()
    files = _incident_files(paths)
    summaries = cache is not None and cache.summaries
    entries = cache.entries if cache is not None else {}

    known = cache.stats if cache is not None else {}
    stats = [_stat(path) for path, _ in files]
    outcomes: list[FileOutcome | None] = [None] * len(files)
    todo = []
    for index, (_, display) in enumerate(files):
        # A file whose size, time and inode are those of a file checked before has the same
        # bytes (as git assumes for its index): its cached outcome is used without reading it.
        seen = known.get(display)
        if seen is not None and seen[0] == stats[index] and seen[1][2] == context:
            hit = cache.get(seen[1]) if cache is not None else None
            if hit is not None:
                outcomes[index] = hit
                continue
        todo.append(index)

    def check(n: int) -> tuple[FileOutcome, tuple | None, bool]:
        """One file: (outcome, cache key, whether it came from the cache)."""
        path, display = files[todo[n]]
        read = _read(path, display)
        if isinstance(read, FileOutcome):
            return read, None, False
        key = (display, hashlib.sha256(read).digest(), context)
        hit = entries.get(key)
        if hit is not None:
            return hit, key, True
        outcome = _check_bytes(read, path, display, taxonomy, today)
        # A summary is all `incidents check` keeps, and far cheaper to send back from a worker.
        return (outcome.summary() if summaries else outcome), key, False

    # Reading, parsing and validating is nearly all of the work and each file stands alone:
    # with two processors, forked workers share the files (see parallel.py).
    for index, (outcome, key, hit) in zip(todo, split_map(check, len(todo)), strict=True):
        outcomes[index] = outcome
        if cache is not None and key is not None:
            if hit:
                cache.get(key)  # marks the entry as used
            else:
                cache.put(key, outcome)
            stat = stats[index]
            if stat is not None and cache.stats.get(files[index][1]) != (stat, key):
                cache.stats[files[index][1]] = (stat, key)
                cache.changed = True
    if cache is not None:
        cache.save()
    result = combine(outcomes)
    diagnostics = result.diagnostics
    if only is not None:
        wanted = {_incident_stem(paths.display(p)) for p in only}
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


def _stat(path: Path) -> tuple[int, int, int] | None:
    try:
        st = os.stat(path, follow_symlinks=False)
    except OSError:
        return None
    return (st.st_mtime_ns, st.st_size, st.st_ino)


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


def _code_version() -> str:
    """A digest of the code that checks files: a cache written by other code is not trusted."""
    digest = hashlib.sha256()
    for module in sorted(Path(__file__).parent.glob("*.py")):
        digest.update(module.read_bytes())
    return digest.hexdigest()


class CheckCache:
    """Outcomes of checking files, keyed by path, content, taxonomy and date.

    Kept in memory (a preview server checks the library on every edit) and, when given a file,
    on disk between runs. Only outcomes used by the latest run are written back.
    """

    def __init__(self, file: Path | None = None, summaries: bool = False) -> None:
        """`summaries`: keep only what the checks across files need (`incidents check`); the
        site build needs whole incidents and keeps them in memory only."""
        self.file = file
        self.summaries = summaries
        self.entries: dict[tuple, FileOutcome] = {}
        # display path -> ((mtime_ns, size, inode), cache key) of the file when it was checked
        self.stats: dict[str, tuple[tuple[int, int, int], tuple]] = {}
        self.used: set[tuple] = set()
        self.changed = False
        self.version = _code_version()
        if file is not None and file.is_file():
            try:
                with file.open("rb") as handle:
                    stored = pickle.load(handle)
                if stored.get("version") == self.version and stored.get("summaries") == summaries:
                    self.entries = stored["entries"]
                    self.stats = stored.get("stats", {})
            except Exception:  # a damaged or foreign cache is simply rebuilt
                self.entries = {}

    def get(self, key: tuple) -> FileOutcome | None:
        outcome = self.entries.get(key)
        if outcome is not None:
            self.used.add(key)
        return outcome

    def put(self, key: tuple, outcome: FileOutcome) -> None:
        self.entries[key] = outcome.summary() if self.summaries else outcome
        self.used.add(key)
        self.changed = True

    def save(self) -> None:
        """Keep what this run used; write the file only if that differs from what was read."""
        stale = len(self.entries) != len(self.used)
        if stale:
            self.entries = {key: self.entries[key] for key in self.used}
            self.stats = {p: v for p, v in self.stats.items() if v[1] in self.entries}
        if self.file is not None and (self.changed or stale):
            self.file.parent.mkdir(parents=True, exist_ok=True)
            temporary = self.file.with_name(self.file.name + f".{os.getpid()}.tmp")
            with temporary.open("wb") as handle:
                stored = {
                    "version": self.version,
                    "summaries": self.summaries,
                    "entries": self.entries,
                    "stats": self.stats,
                }
                pickle.dump(stored, handle, protocol=5)
            os.replace(temporary, self.file)
        self.used = set()
        self.changed = False


def _incident_stem(display: str) -> str:
    """`incidents/x.en.md` and `incidents/x.md` both -> `incidents/x`."""
    if display.endswith(".md"):
        display = display[: -len(".md")]
    head, _, name = display.rpartition("/")
    name = name.split(".")[0]
    return f"{head}/{name}" if head else name
