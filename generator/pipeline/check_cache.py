"""What `incidents check` remembers between runs, and why it may be believed.

Two things are kept in a cache folder of the user's, one per project (`cache_folder`):

- each file's outcome (`CheckCache`), a pure function of the file's bytes, the taxonomy, the
  date and the checking code, stored under a key made of exactly those;
- the last full report of the project (`ResultStore`), with a fingerprint of every input of the
  check: when nothing changed, the report is repeated without loading a model or any YAML (this
  module imports none), so an unchanged library answers in a fraction of a second.

Reading and hashing every file costs more than checking nothing, so a file whose stat is the
one recorded when it was checked is taken to be unchanged, as git does for its index, with
git's two safeguards: the stat includes the inode change time (ctime), which no tool can set
back (`touch -r`, `cp -p` and `git checkout` set the modification time, never the ctime); and a
stat is recorded only when the file was last changed well before the check began
(RACY_SECONDS), so an edit made in the same tick as a check, on a file system whose clock is
coarse, is read again next time.

Whether a cache file may decide anything is one rule (`_CacheFile`): it lives where no checkout
can carry it (under `$XDG_CACHE_HOME`, or `~/.cache`, in a folder named by a digest of the
project's real path, never inside the project, so no commit, pull request or tarball can supply
one that says a broken file passes), it is JSON (it cannot run code when loaded), and it is of this
module's format and the checking code's version. Its values are read back by their types
(`_reader`) and refused whole if any is not what the type says. Writing is best effort: a
read-only home, a full disk or a folder in the file's place only means the next check reads
every file again.
"""

from __future__ import annotations

import contextlib
import hashlib
import json
import os
import time
import types
from collections.abc import Callable
from dataclasses import dataclass, fields, is_dataclass
from datetime import date
from functools import cache, lru_cache
from pathlib import Path
from typing import TYPE_CHECKING, Any, Literal, Union, get_args, get_origin, get_type_hints

from ..load.files import ProjectPaths, check_files, incident_paths
from ..validate.diagnostics import Diagnostic

if TYPE_CHECKING:
    from ..validate.incident import FileOutcome

CACHE_FILE = "check.json"
RESULT_FILE = "check-result.json"
FORMAT = "incidents-check-cache/5"
RESULT_FORMAT = "incidents-check-result/2"
# A stat changed this close to the start of a check may hide a second edit in the same tick.
RACY_SECONDS = 3
Stat = tuple[int, int, int, int, int]  # mtime_ns, ctime_ns, size, inode, device
Key = tuple[str, str, str]  # display path, sha256 of the bytes, digest of taxonomy + date


def key(display: str, content: bytes, context: str) -> Key:
    return (display, hashlib.sha256(content).hexdigest(), context)


def file_stat(path: Path | str) -> Stat | None:
    try:
        st = os.stat(path, follow_symlinks=False)
    except OSError:
        return None
    return (st.st_mtime_ns, st.st_ctime_ns, st.st_size, st.st_ino, st.st_dev)


def racy(stat: Stat, started_ns: int) -> bool:
    """Whether a file was changed too close to `started_ns` for its stat to vouch for its bytes."""
    return max(stat[0], stat[1]) >= started_ns - RACY_SECONDS * 1_000_000_000


@lru_cache(maxsize=1)
def code_version() -> str:
    """A digest of the code that checks files: what other code wrote is not believed."""
    digest = hashlib.sha256()
    for module in sorted(Path(__file__).parent.parent.rglob("*.py")):
        digest.update(module.read_bytes())
    return digest.hexdigest()


def cache_folder(root: Path) -> Path:
    """Where the check of the project at `root` keeps its files: the user's cache folder
    (`$XDG_CACHE_HOME`, else `~/.cache`), one subfolder per project, named by a digest of the
    project's real path. Nothing inside a project is read, so a checkout cannot bring a cache."""
    base = os.environ.get("XDG_CACHE_HOME", "")
    home = Path(base) if os.path.isabs(base) else Path.home() / ".cache"
    digest = hashlib.sha256(os.fsencode(os.path.realpath(root))).hexdigest()[:16]
    return home / "incident-library" / digest


class _CacheFile:
    """A file in the project's cache folder, and the one rule for when what it holds may decide a
    check: it is JSON (it cannot run code when loaded) of this module's format and of the
    checking code's version; being outside the project, no commit or pull request supplied it."""

    def __init__(self, file: Path, format: str) -> None:
        self.file, self.format = file, format

    def read(self) -> dict[str, Any] | None:
        """What the file holds, if it may decide; None for anything else (then every file is
        read again)."""
        if not self.file.is_file():
            return None
        try:
            stored = json.loads(self.file.read_bytes())
        except (OSError, ValueError):
            return None
        if not isinstance(stored, dict) or stored.get("format") != self.format:
            return None
        return stored if stored.get("version") == code_version() else None

    def head(self) -> dict[str, Any]:
        return {"format": self.format, "version": code_version()}

    def write(self, data: bytes) -> None:
        """Write the file whole or not at all (a temporary file renamed over it); a failure
        only means the next check reads every file again."""
        temporary = self.file.with_name(f"{self.file.name}.{os.getpid()}.tmp")
        try:
            self.file.parent.mkdir(mode=0o700, parents=True, exist_ok=True)
            temporary.write_bytes(data)
            os.replace(temporary, self.file)
        except OSError:
            with contextlib.suppress(OSError):
                temporary.unlink()

    def remove(self) -> None:
        with contextlib.suppress(OSError):
            self.file.unlink()


# --- each file's outcome -----------------------------------------------------------------------


class CheckCache:
    """Outcomes of checking files, kept in memory (a preview server checks the library on every
    edit) and, when given a file, on disk between runs. Only entries used by the latest run are
    written back."""

    def __init__(self, file: Path | None = None, summaries: bool = False) -> None:
        """`summaries`: keep only what the checks across files need (`incidents check`); the
        site build needs whole incidents and keeps them in memory only."""
        self.store = _CacheFile(file, FORMAT) if file is not None else None
        self.file = file
        self.summaries = summaries
        self.entries: dict[Key, FileOutcome] = {}
        # Entries as the file writes them, made where the file was checked (`encoded`): with
        # two processors the workers encode, and writing every entry here is then a join.
        self.written: dict[Key, bytes] = {}
        self.stats: dict[str, tuple[Stat, Key]] = {}
        self.used: set[Key] = set()
        self.changed = False
        self.started_ns = time.time_ns()
        if self.store is not None:
            self._load(self.store)

    def begin(self) -> None:
        """Mark the start of a check: files changed after this are never trusted by stat."""
        self.started_ns = time.time_ns()

    def unchanged(self, display: str, stat: Stat | None, context: str) -> FileOutcome | None:
        """The stored outcome of a file whose stat is the one recorded for it, checked against
        the same taxonomy and date (`context`), else None."""
        seen = self.stats.get(display)
        if stat is None or seen is None or seen[0] != stat or seen[1][2] != context:
            return None
        return self.get(seen[1])

    def get(self, entry: Key) -> FileOutcome | None:
        outcome = self.entries.get(entry)
        if outcome is not None:
            self.used.add(entry)
        return outcome

    def encoded(self, entry: Key, summary: FileOutcome) -> bytes | None:
        """How the file writes an entry, where this cache has a file, else None."""
        if self.file is None or not self.summaries:
            return None
        return _dumps([list(entry), _plain(summary)])

    def put(self, entry: Key, outcome: FileOutcome, encoded: bytes | None = None) -> None:
        """Keep `outcome` under `entry`; `encoded` is what `encoded` returned for it."""
        self.entries[entry] = outcome.summary() if self.summaries else outcome
        if encoded is not None:
            self.written[entry] = encoded
        self.used.add(entry)
        self.changed = True

    def record(self, display: str, stat: Stat | None, entry: Key) -> None:
        """Remember the stat a file had when its content was hashed, unless it is racy."""
        if stat is None:
            return
        if racy(stat, self.started_ns):
            if self.stats.pop(display, None) is not None:
                self.changed = True
            return
        if self.stats.get(display) != (stat, entry):
            self.stats[display] = (stat, entry)
            self.changed = True

    def save(self) -> None:
        """Keep what this run used; write the file only if that differs from what was read."""
        stale = len(self.entries) != len(self.used)
        if stale:
            self.entries = {k: self.entries[k] for k in self.used}
            self.written = {k: v for k, v in self.written.items() if k in self.entries}
            self.stats = {p: v for p, v in self.stats.items() if v[1] in self.entries}
        if self.store is not None and (self.changed or stale):
            self.store.write(self._data())
        self.used = set()
        self.changed = False

    def _load(self, store: _CacheFile) -> None:
        stored = store.read()
        if stored is None or stored.get("summaries") is not self.summaries:
            return
        from ..validate.incident import FileOutcome  # only once a check runs: see the top

        try:
            entries = dict(_reader(tuple[tuple[Key, FileOutcome], ...])(stored["entries"]))
            stats = _reader(tuple[tuple[str, Stat, Key], ...])(stored["stats"])
        except (KeyError, TypeError, ValueError):
            return  # damaged or foreign: every file is read again
        self.entries = entries
        self.stats = {display: (stat, entry) for display, stat, entry in stats}

    def _data(self) -> bytes:
        head = {**self.store.head(), "summaries": self.summaries}
        entries = b",".join(
            self.written.get(k) or _dumps([list(k), _plain(v)])
            for k, v in sorted(self.entries.items())
        )
        stats = [[d, list(s), list(k)] for d, (s, k) in sorted(self.stats.items())]
        # The same JSON as one json.dumps of the whole (a test holds it), entries joined as made.
        return b"".join(
            (_dumps(head)[:-1], b',"entries":[', entries, b'],"stats":', _dumps(stats), b"}")
        )


# --- the last full report ----------------------------------------------------------------------


@dataclass(frozen=True)
class Report:
    """A whole project's report: its diagnostics and how many incidents were checked."""

    diagnostics: tuple[Diagnostic, ...]
    checked: int


class ResultStore:
    """The last full report of a project and the fingerprint of the inputs it came from: the
    checking code, taxonomy.yml's bytes, the date, and every incident file's display path and
    stat, trusted as the per-file cache trusts it. Any difference (a file added, removed,
    touched or renamed) means a full check."""

    def __init__(self, paths: ProjectPaths, today: date) -> None:
        self.store = _CacheFile(cache_folder(paths.root) / RESULT_FILE, RESULT_FORMAT)
        self.fingerprint = _fingerprint(paths, today, time.time_ns())

    def lookup(self) -> Report | None:
        """The stored report, if it was made from exactly these inputs."""
        stored = self.store.read() if self.fingerprint is not None else None
        if stored is None or stored.get("fingerprint") != self.fingerprint:
            return None
        try:
            return _reader(Report)(stored["report"])
        except (KeyError, TypeError, ValueError):
            return None  # damaged or foreign: the check runs in full

    def save(self, report: Report) -> None:
        """Keep `report` for the next run, if its inputs can be recognised then."""
        if self.fingerprint is None:
            self.store.remove()  # a stale report must not outlive the inputs it described
            return
        stored = {**self.store.head(), "fingerprint": self.fingerprint, "report": _plain(report)}
        self.store.write(_dumps(stored))


def _fingerprint(paths: ProjectPaths, today: date, started_ns: int) -> str | None:
    """A digest of every input of a check, or None when some input cannot be vouched for by its
    stat (missing, or changed too recently)."""
    digest = hashlib.sha256()
    digest.update(f"{RESULT_FORMAT}\x00{code_version()}\x00{today.isoformat()}\x00".encode())
    try:
        digest.update(paths.taxonomy.read_bytes())
    except OSError:
        return None
    for path, display in incident_paths(paths):
        stat = file_stat(path)
        if stat is None or racy(stat, started_ns):
            return None
        digest.update(f"\x00{display}\x00{stat}".encode("utf-8", "surrogateescape"))
    for path in check_files(paths):  # the checks of `incidents audit`, judged by the same run
        stat = file_stat(path)
        if stat is None or racy(stat, started_ns):
            return None
        digest.update(f"\x00{path}\x00{stat}".encode("utf-8", "surrogateescape"))
    return digest.hexdigest()


# --- JSON of the stored types, derived from their fields and type hints ------------------------


def _dumps(value: Any) -> bytes:
    return json.dumps(value, ensure_ascii=False, separators=(",", ":")).encode("utf-8")


def _plain(value: Any) -> Any:
    """A stored value as JSON: a dataclass as the list of its fields' values, in order. A field
    whose type holds no dataclass is JSON already (json writes a tuple as a list)."""
    if isinstance(value, tuple | list):
        return [_plain(item) for item in value]
    if value is None or isinstance(value, str | int | float):
        return value
    return [
        getattr(value, name) if plain else _plain(getattr(value, name))
        for name, plain in _fields_of(type(value))
    ]


@cache
def _fields_of(kind: type) -> tuple[tuple[str, bool], ...]:
    """A stored dataclass's fields, each with whether its type is plain JSON."""
    if not is_dataclass(kind):  # a full model is never stored: only its summary
        raise TypeError(f"{kind.__name__} is not stored in the check cache")
    hints = get_type_hints(kind)
    return tuple((f.name, _is_plain(hints[f.name])) for f in fields(kind))


def _is_plain(kind: Any) -> bool:
    if kind in (*_PLAIN, type(None)) or get_origin(kind) is Literal:
        return True
    if get_origin(kind) in (tuple, Union, types.UnionType):
        return all(a is Ellipsis or _is_plain(a) for a in get_args(kind))
    return False


@cache
def _reader(kind: Any) -> Callable[[Any], Any]:
    """How a value of `kind` (a type hint) is read back from JSON, checked: a value that is not
    what the type says raises ValueError or TypeError. Dataclasses, tuples, unions, literals,
    str, int and bool; an alternative of a union that is none of these (a pydantic model, which
    only its summary stands for here) is never read."""
    if kind is type(None):
        return _none
    if kind in _PLAIN:
        return lambda value: value if type(value) is kind else _refuse(value, kind)
    origin, args = get_origin(kind), get_args(kind)
    if origin is Literal:
        return lambda value: value if value in args else _refuse(value, kind)
    if origin is tuple:
        return _tuple_reader(kind, args)
    if origin is Union or origin is types.UnionType:
        return _union(args)
    if is_dataclass(kind):
        hints = get_type_hints(kind)
        readers = tuple(_reader(hints[f.name]) for f in fields(kind))
        return lambda value: kind(*[r(v) for r, v in zip(readers, _items(value), strict=True)])
    raise TypeError(f"{kind!r} cannot be read back from the check cache")


def _tuple_reader(kind: Any, args: tuple) -> Callable[[Any], Any]:
    """A tuple's reader. Lists of plain values, the bulk of an outcome (the numbers a file
    mentions, its lists), are checked in one pass over their types (`map(type, ...)`)."""
    if len(args) != 2 or args[1] is not Ellipsis:
        if all(a in _PLAIN for a in args):
            return lambda value: (
                tuple(value) if tuple(map(type, _items(value))) == args else _refuse(value, kind)
            )
        readers = tuple(_reader(a) for a in args)
        return lambda value: tuple([r(v) for r, v in zip(readers, _items(value), strict=True)])
    item, inner = args[0], get_args(args[0])
    if item in _PLAIN:
        plain = {item}
        return lambda value: (
            tuple(value) if {*map(type, _items(value))} <= plain else _refuse(value, kind)
        )
    if get_origin(item) is tuple and all(a in _PLAIN for a in inner):
        shape = {(list, *inner)}  # every item a list of plain values of these types
        return lambda value: (
            tuple(map(tuple, value))
            if {(type(v), *map(type, v)) for v in _items(value)} <= shape
            else _refuse(value, kind)
        )
    read = _reader(item)
    return lambda value: tuple([read(v) for v in _items(value)])


_PLAIN = (str, int, bool)


def _union(args: tuple) -> Callable[[Any], Any]:
    optional = type(None) in args
    readers = []
    for alternative in args:
        if alternative is not type(None):
            with contextlib.suppress(TypeError):
                readers.append(_reader(alternative))

    def read(value: Any) -> Any:
        if value is None and optional:
            return None
        for reader in readers:
            try:
                return reader(value)
            except (TypeError, ValueError):
                continue
        raise ValueError(f"{value!r:.40} is none of {args}")

    return read


def _none(value: Any) -> None:
    if value is not None:
        raise ValueError(f"{value!r:.40} is not null")


def _refuse(value: Any, kind: Any) -> Any:
    raise ValueError(f"{value!r:.40} is not {kind}")


def _items(value: Any) -> list:
    if type(value) is not list:
        raise ValueError(f"{value!r:.40} is not a list")
    return value
