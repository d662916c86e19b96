"""`incidents build` and `incidents serve`: thin wrappers over MkDocs' own commands."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

from .project import ProjectPaths


def build_site(paths: ProjectPaths, strict: bool = False, site_dir: Path | None = None) -> int:
    """Run `mkdocs build` for the project; the exit code of the build."""
    command = [
        sys.executable,
        "-m",
        "mkdocs",
        "build",
        "--clean",
        "-f",
        str(paths.root / "mkdocs.yml"),
    ]
    if strict:
        command.append("--strict")
    if site_dir is not None:
        command += ["--site-dir", str(site_dir)]
    return subprocess.call(command, cwd=paths.root)


def serve_site(paths: ProjectPaths, dev_addr: str) -> int:
    # --dirty: after the first build, only the pages an edit touches are rebuilt (preview.py)
    command = [
        sys.executable,
        "-m",
        "mkdocs",
        "serve",
        "--dirty",
        "-f",
        str(paths.root / "mkdocs.yml"),
        "-a",
        dev_addr,
    ]
    return subprocess.call(command, cwd=paths.root)
