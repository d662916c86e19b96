"""Publishing a build: staged beside the live site and swapped in only on success (I/O)."""

from __future__ import annotations

import calendar
import os
import shutil
from pathlib import Path

from .library import Library
from .text import date_key


def staging_dir(site_dir: Path) -> Path:
    """Where a build of `site_dir` is written first: a hidden sibling, unique to this process."""
    _discard_stale(site_dir)
    return site_dir.parent / f".{site_dir.name}.building-{os.getpid()}"


def search_source_dir(site_dir: Path) -> Path:
    """Where a build writes the documents Pagefind indexes: a hidden sibling of the site, never
    published, removed when the build ends (or by the next build if this one is killed)."""
    return site_dir.parent / f".{site_dir.name}.search-{os.getpid()}"


def publish(staging: Path, site_dir: Path) -> None:
    """Replace `site_dir` with `staging`; the old site is removed only after the swap."""
    old = site_dir.parent / f".{site_dir.name}.old-{os.getpid()}"
    if site_dir.exists():
        os.replace(site_dir, old)
    os.replace(staging, site_dir)
    shutil.rmtree(old, ignore_errors=True)


def discard(staging: Path) -> None:
    shutil.rmtree(staging, ignore_errors=True)


def _discard_stale(site_dir: Path) -> None:
    """Remove staging and search folders left by builds that were killed (their process is gone)."""
    stale = [
        *site_dir.parent.glob(f".{site_dir.name}.building-*"),
        *site_dir.parent.glob(f".{site_dir.name}.search-*"),
    ]
    for path in stale:
        pid = path.name.rsplit("-", 1)[-1]
        if pid.isdigit() and not _alive(int(pid)):
            shutil.rmtree(path, ignore_errors=True)


def _alive(pid: int) -> bool:
    if pid == os.getpid():
        return True
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    except PermissionError:
        return True
    # A killed build whose parent died too may linger as a zombie until something reaps it.
    status = Path(f"/proc/{pid}/status")
    try:
        state = next(
            (line for line in status.read_text().splitlines() if line.startswith("State:")), ""
        )
    except OSError:
        return True
    return "Z" not in state.split()[1:2]


def source_date_epoch(library: Library) -> int:
    """Seconds since 1970 of the newest publication date in the library (midnight UTC)."""
    dates = [date_key(i.meta.published) for i in library.incidents]
    year, month, day = max(dates) if dates else (1970, 1, 1)
    return calendar.timegm((year, max(month, 1), max(day, 1), 0, 0, 0))
