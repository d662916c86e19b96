"""The check stage: every incident file read and validated against the taxonomy, in one pass.

Used by `incidents check` (with a cache on disk) and by the build (with a cache in memory). Reading
and validating each file stands alone, so the files are shared by the executor's workers; only the
checks across files (pairing, duplicates) run afterwards, on the whole library.
"""

from __future__ import annotations

import hashlib
import os
from dataclasses import dataclass
from datetime import date
from pathlib import Path

from ..load.files import only_files
from ..load.front_matter import LoadError, decode_text, read_bytes, split_front_matter
from ..load.inputs import InputRule
from ..load.project import ProjectPaths, incident_files, load_taxonomy
from ..model.taxonomy import Taxonomy
from ..validate.diagnostics import Diagnostic, capped
from ..validate.incident import FileOutcome, ValidationResult, check_file, combine
from .check_cache import CheckCache, file_stat, key
from .executor import Executor, bulk_collection, serial

# Problems reported per file; past this, one line says how many more there are.
MAX_DIAGNOSTICS_PER_FILE = 100


@dataclass(frozen=True)
class Checked:
    """Everything a check of the project found: the taxonomy (if it loaded) and the incidents."""

    taxonomy: Taxonomy | None
    result: ValidationResult

    @property
    def diagnostics(self) -> tuple[Diagnostic, ...]:
        return self.result.diagnostics


def check_project(
    paths: ProjectPaths,
    today: date,
    only: frozenset[str] | None = None,
    cache: CheckCache | None = None,
    executor: Executor = serial,
    summaries: bool = False,
) -> Checked:
    """Load and validate the taxonomy and every incident file; never raises for bad content.

    `only` (display paths, see `select_incident_files`) limits the reported diagnostics to those
    files (and their translations or originals),
    but every file is still loaded, so duplicates and pairings are judged against the whole library.
    With a `cache`, a file whose bytes were checked before (against the same taxonomy, code and
    date) is not parsed again. With `summaries` (or a cache of summaries), the incidents kept are
    only what the checks across files need: `incidents check` wants no more, and a full model
    costs time to send back from a worker and to keep.
    """
    with bulk_collection():
        return _check_project(paths, today, only, cache, executor, summaries)


def _check_project(
    paths: ProjectPaths,
    today: date,
    only: frozenset[str] | None,
    cache: CheckCache | None,
    executor: Executor,
    summaries: bool,
) -> Checked:
    # The taxonomy is read only when it is a file of the project: a link's target could be
    # quoted back by a YAML error.
    rule = InputRule(paths.root)
    outside = rule.problems([paths.taxonomy])
    if outside:
        return Checked(None, ValidationResult((), tuple(outside)))
    try:
        taxonomy, taxonomy_warnings = load_taxonomy(paths)
    except LoadError as exc:
        return Checked(None, ValidationResult((), tuple(exc.diagnostics)))
    context = hashlib.sha256(f"{taxonomy!r}\x00{today.isoformat()}".encode()).hexdigest()
    files = incident_files(paths)
    summaries = summaries or (cache is not None and cache.summaries)
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

    def check(n: int) -> tuple[FileOutcome, tuple | None, bool, bytes | None]:
        """One file: (outcome, cache key, whether it came from the cache, how the cache's file
        writes it)."""
        path, display = files[todo[n]]
        read = _read(path, display, rule)
        if isinstance(read, FileOutcome):
            return read, None, False, None
        entry = key(display, read, context)
        hit = entries.get(entry)
        if hit is not None:
            return hit, entry, True, None
        outcome = _check_bytes(read, path, display, taxonomy, today)
        # A summary is all `incidents check` keeps, and far cheaper to send back from a worker.
        if summaries:
            outcome = outcome.summary()
        encoded = cache.encoded(entry, outcome) if cache is not None else None
        return outcome, entry, False, encoded

    # Reading, parsing and validating is nearly all of the work and each file stands alone:
    # with two processors, forked workers share the files (see executor.py).
    for index, (outcome, entry, hit, encoded) in zip(
        todo, executor.map(check, len(todo)), strict=True
    ):
        outcomes[index] = outcome
        if cache is not None and entry is not None:
            if hit:
                cache.get(entry)  # marks the entry as used
            else:
                cache.put(entry, outcome, encoded)
            cache.record(files[index][1], stats[index], entry)
    if cache is not None:
        cache.save()
    result = combine(outcomes)
    diagnostics = (*taxonomy_warnings, *result.diagnostics)
    if only is not None:
        diagnostics = only_files(diagnostics, only)
    diagnostics = capped(diagnostics, MAX_DIAGNOSTICS_PER_FILE)
    return Checked(taxonomy, ValidationResult(result.incidents, diagnostics, result.checked))


def _read(path: Path, display: str, rule: InputRule) -> bytes | FileOutcome:
    """The file's bytes, or the outcome of a file that cannot be read: an incident is a plain
    file of its own (a link would publish or duplicate another file, a FIFO would block)."""
    stem = path.name.split(".")[0]
    try:
        problems = rule.problems([path])
        if problems or os.path.islink(path):
            detail = problems[0].message if problems else "is a symbolic link"
            message = f"{detail.split(';')[0]}; commit the incident file itself"
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
