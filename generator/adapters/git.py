"""What a contributor's branch changed (an adapter: runs git)."""

from __future__ import annotations

import subprocess
from pathlib import Path

BASES = ("origin/main", "main", "origin/master", "master")


def _git(root: Path, *args: str) -> subprocess.CompletedProcess:
    return subprocess.run(
        ["git", "-C", str(root), *args],
        capture_output=True,
        text=True,
        timeout=60,
        check=False,
        stdin=subprocess.DEVNULL,
    )


def changed_incident_files(root: Path) -> tuple[list[Path], str | None]:
    """(incident files changed since the merge base with main, committed, staged, unstaged or
    untracked; a problem that stops git from saying, or None). Deleted files are left out."""
    try:
        inside = _git(root, "rev-parse", "--show-toplevel")
    except OSError:
        return [], "git is not installed"
    if inside.returncode != 0:
        return [], f"{root} is not in a git repository"
    top = Path(inside.stdout.strip())
    base = None
    for candidate in BASES:
        found = _git(root, "merge-base", "HEAD", candidate)
        if found.returncode == 0:
            base = found.stdout.strip()
            break
    if base is None:
        return [], "no main branch to compare with (tried " + ", ".join(BASES) + ")"
    names: set[str] = set()
    for args in (
        ("diff", "--name-only", "--diff-filter=d", base, "--", "incidents"),
        ("ls-files", "--others", "--exclude-standard", "--", "incidents"),
    ):
        listed = _git(root, *args)
        if listed.returncode != 0:
            return [], f"git {args[0]} failed: {listed.stderr.strip()[:200]}"
        names.update(line for line in listed.stdout.splitlines() if line.endswith(".md"))
    prefix = root.resolve().relative_to(top.resolve()) if root.resolve() != top.resolve() else None
    out = []
    for name in sorted(names):
        path = top / name
        if path.exists() and (prefix is None or Path(name).is_relative_to(prefix)):
            out.append(path)
    return out, None
