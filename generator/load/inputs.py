"""What the build may read: files inside the project, and nothing a link points to elsewhere.

A pull request can add a symbolic link anywhere: `docs/env.txt -> /proc/self/environ` would put
the build machine's environment (CI secrets included) on the published site, and a link into
`.git/` would publish the token a CI checkout keeps there. So every path the build reads (the
incidents, the taxonomy, mkdocs.yml, the hand-written pages, the theme's overrides) is walked
once, before anything is built or written, under one rule: a link is followed only when it ends
at a file inside the project and outside its hidden folders (`.git`, `.cache`, `.venv`, ...); a
link that leaves, loops, points nowhere or points at a folder (MkDocs walks a folder that links to
one above it without end), and anything that is neither a plain file nor a folder (a FIFO would
block the build, a device could be read forever), is an error naming the file.
"""

from __future__ import annotations

import os
import stat
from collections.abc import Iterable
from pathlib import Path

from ..validate.diagnostics import Diagnostic, printable


def input_problems(root: Path, inputs: Iterable[Path]) -> list[Diagnostic]:
    """One error per path under `inputs` (files or folders; missing ones are skipped) that the
    build must not read, named as contributors see it (relative to `root`)."""
    return InputRule(root).problems(inputs)


class InputRule:
    """`input_problems` for one project, asked again and again: the check asks about each
    incident file on its own, and resolving the root and the file's folder costs a system call
    per part of the path. Made for one check: the root and each folder are resolved the first
    time they are needed, not again."""

    def __init__(self, root: Path) -> None:
        self.root = Path(os.path.realpath(root))
        self._real: dict[str, Path] = {}

    def problems(self, inputs: Iterable[Path]) -> list[Diagnostic]:
        """As `input_problems`."""
        walk = _Walk(self.root)
        for path in inputs:
            if os.path.lexists(path):
                # The folder it is in, resolved (the project may be reached through a link); the
                # path itself is not, so a link is judged as one.
                folder, name = os.path.split(os.path.abspath(path))
                if folder not in self._real:
                    self._real[folder] = Path(os.path.realpath(folder))
                walk.entry(self._real[folder] / name)
        return walk.problems


class _Walk:
    def __init__(self, root: Path) -> None:
        self.root = root
        self.problems: list[Diagnostic] = []

    def entry(self, path: Path) -> None:
        try:
            info = os.lstat(path)
        except OSError as exc:
            self.report(path, f"cannot be read ({exc.strerror})")
            return
        if stat.S_ISLNK(info.st_mode):
            target = self.link_target(path)
            if target is None:
                return
            info = os.stat(target)
            if stat.S_ISDIR(info.st_mode):
                # MkDocs follows links to folders without end when one leads back to a folder
                # above it, directly or through another link: only links to files are followed.
                self.report(
                    path,
                    "is a symbolic link to a folder; the build follows links to files only: "
                    "move the folder here or link its files",
                )
                return
        # Not a link, in a folder already resolved: the path is its own real path.
        elif not self.inside(path):
            self.report(path, "is outside the project; the build reads only files inside it")
            return
        if stat.S_ISDIR(info.st_mode):
            self.folder(path)
        elif not stat.S_ISREG(info.st_mode):
            self.report(path, f"is {_kind(info.st_mode)}, not a file; the build reads only files")

    def folder(self, path: Path) -> None:
        try:
            names = sorted(os.listdir(path))
        except OSError as exc:
            self.report(path, f"cannot be read ({exc.strerror})")
            return
        for name in names:
            self.entry(path / name)

    def link_target(self, link: Path) -> Path | None:
        """Where a link ends, or None (reported) when it must not be followed."""
        try:
            target = link.resolve(strict=True)
        except RuntimeError:  # Python 3.11's word for a loop
            self.report(link, "is a symbolic link that loops back on itself; remove it")
            return None
        except OSError as exc:
            if exc.errno == 40:  # ELOOP
                self.report(link, "is a symbolic link that loops back on itself; remove it")
            else:
                where = printable(os.readlink(link)) if os.path.islink(link) else "nothing"
                self.report(link, f"is a symbolic link to {where}, which does not exist; remove it")
            return None
        if not self.inside(target):
            self.report(
                link,
                f"is a symbolic link to {printable(str(target))}, outside the project; the build "
                "reads only files inside it: commit the file itself",
            )
            return None
        hidden = [p for p in target.relative_to(self.root).parts if p.startswith(".")]
        if hidden:
            self.report(
                link,
                f"is a symbolic link into {hidden[0]}/, a hidden folder of the project, which the "
                "build never publishes: commit the file itself",
            )
            return None
        return target

    def inside(self, real: Path) -> bool:
        return real.is_relative_to(self.root)

    def display(self, path: Path) -> str:
        try:
            shown = path.relative_to(self.root).as_posix()
        except ValueError:
            shown = str(path)
        return printable(shown)

    def report(self, path: Path, message: str) -> None:
        self.problems.append(Diagnostic(self.display(path), 1, 1, "", message))


def _kind(mode: int) -> str:
    if stat.S_ISFIFO(mode):
        return "a FIFO (named pipe)"
    if stat.S_ISSOCK(mode):
        return "a socket"
    if stat.S_ISCHR(mode) or stat.S_ISBLK(mode):
        return "a device"
    return "a special file"
