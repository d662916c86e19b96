"""Live preview: `incidents serve` shows an edit, and a page naming the problem while an edit
breaks the build (which pages an edit changes: tests/pipeline)."""

from __future__ import annotations

import json
import os
import signal
import socket
import subprocess
import sys
import time
import urllib.error
import urllib.request

from conftest import REPO, Project
from sitebuild import write_fixture_library


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def test_serve_shows_an_edited_incident_and_the_error_of_a_broken_one(tmp_path):
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

    def get() -> tuple[int, str]:
        try:
            with urllib.request.urlopen(url, timeout=5) as response:
                return response.status, response.read().decode("utf-8")
        except urllib.error.HTTPError as error:
            return error.code, error.read().decode("utf-8")

    def fetch(address: str) -> str:
        with urllib.request.urlopen(address, timeout=5) as response:
            return response.read().decode("utf-8")

    def wait_for(text: str, seconds: float, status: int = 200) -> bool:
        deadline = time.monotonic() + seconds
        while time.monotonic() < deadline:
            try:
                code, page = get()
                if code == status and text in page:
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
        # The search files it changed are written again, the others kept where they were.
        search = f"http://127.0.0.1:{port}/en/search/"
        ids = json.loads(fetch(search + "ids.js").split(".ids=", 1)[1].rstrip(";\n"))
        at = ids.index("acme-gpu-outage-01")
        assert "Acme: edited live" in fetch(f"{search}text/{at}.js")
        other = (at + 1) % len(ids)
        assert f'"id":"{ids[other]}"' in fetch(f"{search}text/{other}.js")

        edited = path.read_text(encoding="utf-8")
        path.write_text(edited.replace("cause: [", "cause: [gpu-failur, "), encoding="utf-8")
        # Answered (not held until the build is fixed), naming the file, line and field.
        assert wait_for("unknown cause term &#x27;gpu-failur&#x27;", 60, status=500)
        code, page = get()
        assert "incidents/acme-gpu-outage-01.md:" in page and 'http-equiv="refresh"' in page
        path.write_text(edited, encoding="utf-8")
        assert wait_for("Acme: edited live", 60)
    finally:
        os.killpg(process.pid, signal.SIGTERM)
        output = process.communicate(timeout=30)[0]
    assert "Traceback" not in output
    assert "preview: rebuilding" in output
    assert "preview: rebuilt in" in output  # the first edit, without MkDocs (adapters tests)
