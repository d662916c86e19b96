"""What `incidents check` remembers between runs: each file's outcome, keyed by its content.

An outcome is a pure function of the file's bytes, the taxonomy, the date and the checking code,
so it is stored under a key made of exactly those (`key`). Reading and hashing every file costs
more than checking nothing, so a file whose stat is the one recorded when it was checked is taken
to be unchanged, as git does for its index, with git's two safeguards:

- the stat includes the inode change time (ctime), which no tool can set back: `touch -r`,
  `cp -p` and `git checkout` restore or set the modification time, never the ctime;
- racy timestamps: a stat is recorded only when the file was last changed well before the check
  began (RACY_SECONDS), so an edit made in the same tick as a check, on a file system whose
  clock is coarse (one or two seconds), is read again next time.

The cache on disk is JSON (it cannot run code when loaded), checked for its format and the code's
version before anything else is read, and ignored when git tracks it (a cache committed to a
repository must not decide what passes). Writing it is best effort: a read-only checkout, a full
disk or a folder in its place only means the next check reads every file again.
"""

from __future__ import annotations

import contextlib
import hashlib
import json
import os
import time
from pathlib import Path
from typing import Any

from ..validate.diagnostics import Diagnostic
from ..validate.incident import FileOutcome, Identity, MetaSummary, SourceSummary, TextSummary
from ..validate.review import Marks
from .check_result import Stat, code_version, racy, tracked_by_git

CACHE_FILE = ".cache/incidents-check.json"
FORMAT = "incidents-check-cache/4"
Key = tuple[str, str, str]  # display path, sha256 of the bytes, digest of taxonomy + date


def key(display: str, content: bytes, context: str) -> Key:
    return (display, hashlib.sha256(content).hexdigest(), context)


class CheckCache:
    """Outcomes of checking files, kept in memory (a preview server checks the library on every
    edit) and, when given a file, on disk between runs. Only entries used by the latest run are
    written back."""

    def __init__(self, file: Path | None = None, summaries: bool = False) -> None:
        """`summaries`: keep only what the checks across files need (`incidents check`); the
        site build needs whole incidents and keeps them in memory only."""
        self.file = file
        self.summaries = summaries
        self.entries: dict[Key, FileOutcome] = {}
        # Entries as the file writes them, made where the file was checked (`encoded`): with
        # two processors the workers encode, and writing 20,000 entries is a join.
        self.written: dict[Key, bytes] = {}
        self.stats: dict[str, tuple[Stat, Key]] = {}
        self.used: set[Key] = set()
        self.changed = False
        self.version = code_version()
        self.started_ns = time.time_ns()
        self.tracked = file is not None and tracked_by_git(file)
        if file is not None and not self.tracked:
            self._load(file)

    def begin(self) -> None:
        """Mark the start of a check: files changed after this are never trusted by stat."""
        self.started_ns = time.time_ns()

    def unchanged(self, display: str, stat: Stat | None, context: str) -> FileOutcome | None:
        """The stored outcome of a file whose stat is the one recorded for it, else None."""
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
        if self.file is None or self.tracked or not self.summaries:
            return None
        return _entry(entry, summary)

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
        if self.file is not None and not self.tracked and (self.changed or stale):
            self._write(self.file)
        self.used = set()
        self.changed = False

    def _load(self, file: Path) -> None:
        try:
            stored = json.loads(file.read_bytes())
            if not isinstance(stored, dict) or stored.get("format") != FORMAT:
                return
            if stored.get("version") != self.version or stored.get("summaries") != self.summaries:
                return
            entries = {_key(k): _outcome(v) for k, v in stored["entries"]}
            stats = {
                str(display): (_stat(stat), _key(entry)) for display, stat, entry in stored["stats"]
            }
        except (OSError, ValueError, TypeError, KeyError, IndexError):
            return  # no cache, or a damaged or foreign one: every file is read again
        self.entries, self.stats = entries, stats

    def _write(self, file: Path) -> None:
        head = {"format": FORMAT, "version": self.version, "summaries": self.summaries}
        entries = b",".join(
            self.written.get(k) or _entry(k, v) for k, v in sorted(self.entries.items())
        )
        stats = [[d, list(s), list(k)] for d, (s, k) in sorted(self.stats.items())]
        # The same JSON as one json.dumps of the whole (a test holds it), entries joined as made.
        data = b"".join(
            (_dumps(head)[:-1], b',"entries":[', entries, b'],"stats":', _dumps(stats), b"}")
        )
        temporary = file.with_name(f"{file.name}.{os.getpid()}.tmp")
        try:
            file.parent.mkdir(parents=True, exist_ok=True)
            temporary.write_bytes(data)
            os.replace(temporary, file)
        except OSError:
            # A read-only checkout, a full disk, or a folder where the file should be: the
            # check itself is unaffected; the next one reads every file.
            with contextlib.suppress(OSError):
                temporary.unlink()


# --- JSON form of a file's outcome (summaries only) ---------------------------------------------


def _dumps(value: Any) -> bytes:
    return json.dumps(value, ensure_ascii=False, separators=(",", ":")).encode("utf-8")


def _entry(entry: Key, outcome: FileOutcome) -> bytes:
    return _dumps([list(entry), _encode(outcome)])


def _encode(outcome: FileOutcome) -> dict[str, Any]:
    meta = outcome.meta
    return {
        "path": outcome.path,
        "incident_id": outcome.incident_id,
        "lang": outcome.lang,
        "meta": None
        if meta is None
        else {
            "id": meta.id,
            "lang": meta.lang,
            "occurred": meta.occurred,
            "sources": [s.url for s in meta.sources],
            "not_in_sources": list(meta.not_in_sources),
        },
        "text": None if outcome.text is None else outcome.text.lang,
        "problems": [
            [d.path, d.line, d.col, d.field, d.message, d.severity, d.suggestion]
            for d in outcome.problems
        ],
        "unreadable": outcome.unreadable,
        "missing_sections": [list(m) for m in outcome.missing_sections],
        "identity": None if outcome.identity is None else _encode_identity(outcome.identity),
        "marks": None if outcome.marks is None else _encode_marks(outcome.marks),
    }


def _encode_marks(marks: Marks) -> dict[str, Any]:
    return {
        "lang": marks.lang,
        "title": marks.title,
        "summary": marks.summary,
        "title_at": list(marks.title_at),
        "summary_at": list(marks.summary_at),
        "numbers": [list(n) for n in marks.numbers],
        "spelled": list(marks.spelled),
        "lists": [list(item) for item in marks.lists],
    }


def _marks(value: dict[str, Any] | None) -> Marks | None:
    if value is None:
        return None
    title_line, title_col = value["title_at"]
    summary_line, summary_col = value["summary_at"]
    return Marks(
        lang=str(value["lang"]),
        title=str(value["title"]),
        summary=str(value["summary"]),
        title_at=(int(title_line), int(title_col)),
        summary_at=(int(summary_line), int(summary_col)),
        numbers=tuple((str(n), int(line), int(col)) for n, line, col in value["numbers"]),
        spelled=tuple(str(n) for n in value["spelled"]),
        lists=tuple((str(k), int(items), int(line)) for k, items, line in value["lists"]),
    )


def _encode_identity(mark: Identity) -> dict[str, Any]:
    return {
        "byline": list(mark.byline),
        "byline_facet": mark.byline_facet,
        "occurred": mark.occurred,
        "published": mark.published,
        "occurred_at": list(mark.occurred_at),
        "sources": [list(s) for s in mark.sources],
        "distinct_from": [list(d) for d in mark.distinct_from],
    }


def _identity(value: dict[str, Any] | None) -> Identity | None:
    if value is None:
        return None
    line, col = value["occurred_at"]
    return Identity(
        byline=tuple(str(b) for b in value["byline"]),
        byline_facet=str(value["byline_facet"]),
        occurred=str(value["occurred"]),
        published=str(value["published"]),
        occurred_at=(int(line), int(col)),
        sources=tuple((str(u), int(n), int(c)) for u, n, c in value["sources"]),
        distinct_from=tuple((str(d), int(n), int(c)) for d, n, c in value["distinct_from"]),
    )


def _outcome(value: dict[str, Any]) -> FileOutcome:
    meta = value["meta"]
    return FileOutcome(
        path=str(value["path"]),
        incident_id=_optional_str(value["incident_id"]),
        lang=_optional_str(value["lang"]),
        meta=None
        if meta is None
        else MetaSummary(
            str(meta["id"]),
            str(meta["lang"]),
            str(meta["occurred"]),
            tuple(SourceSummary(str(u)) for u in meta["sources"]),
            tuple(str(s) for s in meta["not_in_sources"]),
        ),
        text=None if value["text"] is None else TextSummary(str(value["text"])),
        problems=tuple(_diagnostic(p) for p in value["problems"]),
        unreadable=bool(value["unreadable"]),
        missing_sections=tuple((str(k), int(n)) for k, n in value["missing_sections"]),
        identity=_identity(value["identity"]),
        marks=_marks(value["marks"]),
    )


def _diagnostic(value: list) -> Diagnostic:
    path, line, col, field, message, severity, suggestion = value
    if severity not in ("error", "warning"):
        raise ValueError(severity)
    return Diagnostic(
        str(path),
        int(line),
        int(col),
        str(field),
        str(message),
        severity,
        _optional_str(suggestion),
    )


def _optional_str(value: object) -> str | None:
    return None if value is None else str(value)


def _key(value: list) -> Key:
    display, content, context = value
    return (str(display), str(content), str(context))


def _stat(value: list) -> Stat:
    mtime, ctime, size, inode, device = (int(v) for v in value)
    return (mtime, ctime, size, inode, device)
