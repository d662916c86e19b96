"""What `incidents check` reports when nothing changed since its last full run.

The per-file cache (check_cache.py) spares parsing, but a run that uses it still loads every
file's outcome and checks across files again: about 2 s at 10,000 incidents. When every input is
exactly as it was at the last full run, so is the report. This file keeps that report with a
fingerprint of the inputs:

- the checking code (a digest of the package's modules), taxonomy.yml's bytes and the date;
- every incident file's display path and stat, trusted as the per-file cache trusts it (the
  stat includes the inode change time, and racy timestamps are not trusted; see check_cache.py).

Any difference, a file added, removed, touched or renamed, means a full check. Only this module
and the light ones it imports (no models, no YAML) are loaded to tell, so an unchanged library
answers in a fraction of a second. Like the per-file cache, the file is JSON, ignored when git
tracks it, and written on a best-effort basis.
"""

from __future__ import annotations

import contextlib
import hashlib
import json
import os
import subprocess
import time
from dataclasses import dataclass
from datetime import date
from pathlib import Path

from ..load.files import ProjectPaths, check_files, incident_paths
from ..validate.diagnostics import Diagnostic

RESULT_FILE = ".cache/incidents-check-result.json"
FORMAT = "incidents-check-result/1"
# A stat changed this close to the start of a check may hide a second edit in the same tick.
RACY_SECONDS = 3
Stat = tuple[int, int, int, int, int]  # mtime_ns, ctime_ns, size, inode, device


def file_stat(path: Path | str) -> Stat | None:
    try:
        st = os.stat(path, follow_symlinks=False)
    except OSError:
        return None
    return (st.st_mtime_ns, st.st_ctime_ns, st.st_size, st.st_ino, st.st_dev)


def racy(stat: Stat, started_ns: int) -> bool:
    """Whether a file was changed too close to `started_ns` for its stat to vouch for its bytes."""
    return max(stat[0], stat[1]) >= started_ns - RACY_SECONDS * 1_000_000_000


def code_version() -> str:
    """A digest of the code that checks files: what other code wrote is not trusted."""
    digest = hashlib.sha256()
    for module in sorted(Path(__file__).parent.parent.rglob("*.py")):
        digest.update(module.read_bytes())
    return digest.hexdigest()


def tracked_by_git(file: Path) -> bool:
    """Whether git tracks `file` (a cache committed to a repository must not decide what passes)."""
    folder = file.parent if file.parent.is_dir() else file.parent.parent
    try:
        found = subprocess.run(
            ["git", "-C", str(folder), "ls-files", "--", str(file.resolve())],
            capture_output=True,
            text=True,
            timeout=10,
            check=False,
        )
    except (OSError, subprocess.SubprocessError):
        return False
    return found.returncode == 0 and bool(found.stdout.strip())


def incident_stem(display: str) -> str:
    """`incidents/x.en.md` and `incidents/x.md` both -> `incidents/x`."""
    if display.endswith(".md"):
        display = display[: -len(".md")]
    head, _, name = display.rpartition("/")
    name = name.split(".")[0]
    return f"{head}/{name}" if head else name


def only_files(diagnostics: tuple[Diagnostic, ...], only: frozenset[str]) -> tuple[Diagnostic, ...]:
    """The diagnostics of the files `only` names, their translations or originals included."""
    wanted = {incident_stem(p) for p in only}
    return tuple(d for d in diagnostics if incident_stem(d.path) in wanted)


@dataclass(frozen=True)
class Report:
    """A whole project's report: its diagnostics and how many incidents were checked."""

    diagnostics: tuple[Diagnostic, ...]
    checked: int


class ResultStore:
    """The last full report of a project and the fingerprint of the inputs it came from."""

    def __init__(self, paths: ProjectPaths, today: date) -> None:
        self.file = paths.root / RESULT_FILE
        self.started_ns = time.time_ns()
        self.fingerprint = _fingerprint(paths, today, self.started_ns)
        self._tracked: bool | None = None

    def tracked(self) -> bool:
        """Whether git tracks the report file (asked of git once per run)."""
        if self._tracked is None:
            self._tracked = tracked_by_git(self.file)
        return self._tracked

    def lookup(self) -> Report | None:
        """The stored report, if it was made from exactly these inputs."""
        if self.fingerprint is None or not self.file.is_file() or self.tracked():
            return None
        try:
            stored = json.loads(self.file.read_bytes())
            if stored.get("format") != FORMAT or stored.get("fingerprint") != self.fingerprint:
                return None
            diagnostics = tuple(_diagnostic(value) for value in stored["diagnostics"])
            return Report(diagnostics, int(stored["checked"]))
        except (OSError, ValueError, TypeError, KeyError, AttributeError):
            return None  # damaged or foreign: the check runs in full

    def save(self, report: Report) -> None:
        """Keep `report` for the next run, if its inputs can be recognised then."""
        if self.fingerprint is None or self.tracked():
            with contextlib.suppress(OSError):
                self.file.unlink()  # a stale report must not outlive the inputs it described
            return
        stored = {
            "format": FORMAT,
            "fingerprint": self.fingerprint,
            "checked": report.checked,
            "diagnostics": [
                [d.path, d.line, d.col, d.field, d.message, d.severity, d.suggestion]
                for d in report.diagnostics
            ],
        }
        data = json.dumps(stored, ensure_ascii=False, separators=(",", ":")).encode("utf-8")
        temporary = self.file.with_name(f"{self.file.name}.{os.getpid()}.tmp")
        try:
            self.file.parent.mkdir(parents=True, exist_ok=True)
            temporary.write_bytes(data)
            os.replace(temporary, self.file)
        except OSError:
            with contextlib.suppress(OSError):
                temporary.unlink()


def _fingerprint(paths: ProjectPaths, today: date, started_ns: int) -> str | None:
    """A digest of every input of a check, or None when some input cannot be vouched for by its
    stat (missing, or changed too recently)."""
    digest = hashlib.sha256()
    digest.update(f"{FORMAT}\x00{code_version()}\x00{today.isoformat()}\x00".encode())
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
        None if suggestion is None else str(suggestion),
    )
