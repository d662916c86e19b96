"""Publishing a build: written beside the live site and swapped in only on success.

At every instant there is a complete site: the new one replaces the old in one atomic exchange of
the two folders (`renameat2` with RENAME_EXCHANGE on Linux; elsewhere two renames, the old site
moved aside first). Publishes are serialised by a lock beside the site, and whatever a killed
build left (staging, an old site moved aside) is removed by the next one once
the process that made it is gone. A site folder that is a symbolic link is published through it
(the link keeps pointing at the same path, which now holds the new site).
"""

from __future__ import annotations

import calendar
import ctypes
import ctypes.util
import fcntl
import os
import shutil
from pathlib import Path

from ..model.library import Library
from ..model.text import date_key


class PublishError(RuntimeError):
    """The site cannot be published there; the message says why and what to do."""


# Every published site carries this file: the build replaces only a folder that is empty or
# holds it, so no setting, `--site-dir` or committed `site` link can make it empty another folder.
SITE_MARK = ".incident-library-site"
_MARK_TEXT = (
    "This folder is a site built by the Incident Library. Each build replaces all of it.\n"
    "Builds replace only a folder that is empty or holds this file.\n"
)


def check_site_dir(site_dir: Path, root: Path, sources: list[Path]) -> None:
    """Refuse a site folder that a build of this library did not write (publishing replaces
    the whole folder), and one that is, contains or lies inside the project's sources. A link is
    judged by the folder it points at."""
    target = site_dir.resolve()
    project = root.resolve()
    if target == project or target in project.parents:
        raise PublishError(
            f"the site folder {site_dir} would replace the project itself; choose a folder "
            "inside or beside it that holds none of its sources (the default is site/)"
        )
    for source in sources:
        real = source.resolve()
        if target == real or real in target.parents or target in real.parents:
            raise PublishError(
                f"the site folder {site_dir} would replace {source}, which holds the project's "
                "sources; choose a folder outside them (the default is site/)"
            )
    if target.exists() and not _replaceable(target):
        raise PublishError(
            f"the site folder {site_dir}{_through(site_dir, target)} holds files that no build of "
            f"this library wrote (it has no {SITE_MARK}); publishing replaces the whole folder, so "
            "the build leaves it alone: remove it, or choose another site folder (site_dir in "
            "mkdocs.yml, or --site-dir)"
        )


def _replaceable(folder: Path) -> bool:
    """An empty folder, or one a build of this library published."""
    if not folder.is_dir() or folder.is_symlink():
        return False
    try:
        return (folder / SITE_MARK).is_file() or not any(folder.iterdir())
    except OSError:
        return False


def _through(site_dir: Path, target: Path) -> str:
    return f" (a link to {target})" if site_dir.is_symlink() else ""


class Publication:
    """One build's way to `site_dir`: a staging folder, then the swap."""

    def __init__(self, site_dir: Path) -> None:
        # Through a symbolic link to where it points: the link itself is never replaced.
        self.site_dir = Path(os.path.realpath(site_dir)) if site_dir.is_symlink() else site_dir
        discard_stale(self.site_dir)
        name, parent, pid = self.site_dir.name, self.site_dir.parent, os.getpid()
        self.staging = parent / f".{name}.building-{pid}"
        self.old = parent / f".{name}.old-{pid}"
        self.lock = parent / f".{name}.lock"

    def publish(self) -> None:
        """Swap the staged site in; the old site is removed after the swap."""
        try:
            self._swap()
        finally:
            self.discard()

    def _swap(self) -> None:
        (self.staging / SITE_MARK).write_text(_MARK_TEXT, encoding="utf-8")
        self.site_dir.parent.mkdir(parents=True, exist_ok=True)
        with self.lock.open("a") as lock:
            fcntl.flock(lock, fcntl.LOCK_EX)  # one publish at a time
            if self.site_dir.exists() and _exchange(self.staging, self.site_dir):
                shutil.rmtree(self.staging, ignore_errors=True)  # now holds the old site
            else:
                if self.site_dir.exists() or self.site_dir.is_symlink():
                    os.replace(self.site_dir, self.old)
                os.replace(self.staging, self.site_dir)
                shutil.rmtree(self.old, ignore_errors=True)

    def discard(self) -> None:
        """Remove this build's staging folder and the old site moved aside."""
        for folder in (self.staging, self.old):
            shutil.rmtree(folder, ignore_errors=True)


def discard_stale(site_dir: Path) -> None:
    """Remove folders left by builds that were killed (their process is gone)."""
    parent, name = site_dir.parent, site_dir.name
    # "search": the documents of a search index that earlier versions of the build wrote.
    for kind in ("building", "search", "old"):
        for path in parent.glob(f".{name}.{kind}-*"):
            pid = path.name.rsplit("-", 1)[-1]
            if pid.isdigit() and not _alive(int(pid)):
                shutil.rmtree(path, ignore_errors=True)


_RENAME_EXCHANGE = 2
_AT_FDCWD = -100


def _exchange(a: Path, b: Path) -> bool:
    """Atomically swap two paths (Linux 3.15+ with glibc 2.28+); False where that is missing."""
    try:
        libc = ctypes.CDLL(ctypes.util.find_library("c") or "libc.so.6", use_errno=True)
        renameat2 = libc.renameat2
    except (OSError, AttributeError):
        return False
    renameat2.argtypes = [
        ctypes.c_int,
        ctypes.c_char_p,
        ctypes.c_int,
        ctypes.c_char_p,
        ctypes.c_uint,
    ]
    result = renameat2(_AT_FDCWD, os.fsencode(a), _AT_FDCWD, os.fsencode(b), _RENAME_EXCHANGE)
    return result == 0


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
    """Seconds since 1970 of the newest publication date in the library (midnight UTC), never
    before 1970 (a library of older cases would otherwise give a negative time)."""
    dates = [date_key(i.meta.published) for i in library.incidents]
    year, month, day = max(dates) if dates else (1970, 1, 1)
    return max(0, calendar.timegm((year, max(month, 1), max(day, 1), 0, 0, 0)))
