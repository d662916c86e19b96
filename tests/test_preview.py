"""Live preview: `incidents serve` rebuilds only what an edit touches, and the edit shows."""

from __future__ import annotations

import os
import signal
import socket
import subprocess
import sys
import time
import urllib.request
from datetime import date
from pathlib import Path

from conftest import REPO, Project
from sitebuild import write_fixture_library

from generator.library import build_library
from generator.pages import build_pages
from generator.preview import LISTING_TEMPLATES, library_digests, listing, touched_pages
from generator.project import ProjectPaths, check_project


def load(root: Path):
    checked = check_project(ProjectPaths.at(root), date(2026, 11, 30))
    return build_library(checked.taxonomy, checked.result.incidents)


def test_an_edit_touches_its_case_its_terms_and_the_listings(tmp_path):
    project = Project(tmp_path / "project")
    write_fixture_library(project)
    before = load(project.root)
    listed = {p.src_uri: listing(p) for p in build_pages(before) if p.template in LISTING_TEMPLATES}
    path = project.incidents / "globex-etcd-outage.md"
    path.write_text(
        path.read_text(encoding="utf-8").replace("Globex: etcd loses quorum", "Globex: edited"),
        encoding="utf-8",
    )
    after = load(project.root)
    pages = build_pages(after)
    touched = touched_pages(library_digests(before), after, before, pages, listed)
    templates = {p.template for p in pages if p.src_uri in touched}
    assert templates == {
        "case.html",
        "home.html",
        "facet.html",
        "matrix.html",
        "root.html",
        "term.html",
    }
    cases = sorted(p.src_uri for p in pages if p.src_uri in touched and p.template == "case.html")
    assert cases == ["en/cases/globex-etcd-outage.md", "ko/cases/globex-etcd-outage.md"]
    terms = {
        p.data["term"].key for p in pages if p.src_uri in touched and p.template == "term.html"
    }
    assert ("organization", "globex") in terms and ("organization", "acme") not in terms
    assert touched_pages(library_digests(after), after, after, pages, listed) == set()
    # a listing page is rebuilt only when its slice of cases or a case in it changed
    homes = sorted(p.src_uri for p in pages if p.src_uri in touched and p.template == "home.html")
    assert homes == ["en/index.md", "ko/index.md"]
    assert touched_pages(None, after, None, pages) == {p.src_uri for p in pages}


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def test_serve_shows_an_edited_incident(tmp_path):
    project = Project(tmp_path / "project")
    write_fixture_library(project)
    port = free_port()
    process = subprocess.Popen(
        [
            sys.executable,
            "-m",
            "generator.cli",
            "serve",
            "--root",
            str(project.root),
            "--dev-addr",
            f"127.0.0.1:{port}",
        ],
        cwd=REPO,
        stdout=subprocess.PIPE,
        stderr=subprocess.STDOUT,
        text=True,
        start_new_session=True,
        env={**os.environ, "NO_MKDOCS_2_WARNING": "1"},
    )
    url = f"http://127.0.0.1:{port}/en/cases/acme-gpu-outage-01.html"

    def wait_for(text: str, seconds: float) -> bool:
        deadline = time.monotonic() + seconds
        while time.monotonic() < deadline:
            try:
                if text in urllib.request.urlopen(url, timeout=5).read().decode("utf-8"):
                    return True
            except OSError:
                pass
            time.sleep(0.2)
        return False

    try:
        assert wait_for("Acme: GPUs fall off the bus", 120)
        path = project.incidents / "acme-gpu-outage-01.md"
        path.write_text(
            path.read_text(encoding="utf-8").replace(
                "Acme: GPUs fall off the bus", "Acme: edited live"
            ),
            encoding="utf-8",
        )
        assert wait_for("Acme: edited live", 60)
    finally:
        os.killpg(process.pid, signal.SIGTERM)
        output = process.communicate(timeout=30)[0]
    assert "Traceback" not in output
    assert "preview: rebuilding" in output
