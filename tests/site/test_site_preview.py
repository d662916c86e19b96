"""Live preview: `incidents serve` shows an edit, and a page naming the problem while an edit
breaks the build (which pages an edit changes: tests/pipeline)."""

from __future__ import annotations

import json
import os
import re
import signal
import socket
import subprocess
import sys
import time
import urllib.error
import urllib.request
from html.parser import HTMLParser
from pathlib import Path
from urllib.parse import urljoin

from conftest import REPO, Project
from sitebuild import write_fixture_library


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def start_preview(root: Path, port: int) -> subprocess.Popen:
    """`incidents serve` for `root` on `port`, in a process group of its own."""
    return subprocess.Popen(
        [
            sys.executable,
            "-m",
            "generator.cli",
            "serve",
            "--root",
            str(root),
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


def answers(url: str, seconds: float) -> bool:
    """Whether `url` answers 200 within `seconds`."""
    deadline = time.monotonic() + seconds
    while time.monotonic() < deadline:
        try:
            with urllib.request.urlopen(url, timeout=5) as response:
                if response.status == 200:
                    return True
        except OSError:
            pass
        time.sleep(0.2)
    return False


def test_serve_shows_an_edited_incident_and_the_error_of_a_broken_one(tmp_path):
    project = Project(tmp_path / "project")
    write_fixture_library(project)
    port = free_port()
    process = start_preview(project.root, port)
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


def test_the_preview_tab_reloads_itself_after_an_edit(tmp_path, pages):
    """The site's policy runs no inline script, so the preview serves its reload script as a
    file of its own origin: the open tab reloads once the edit is built, with no policy
    violation in its console."""
    project = Project(tmp_path / "project")
    write_fixture_library(project)
    port = free_port()
    process = start_preview(project.root, port)
    url = f"http://127.0.0.1:{port}/en/cases/acme-gpu-outage-01.html"
    tab = None
    try:
        assert answers(url, 120)
        tab, page, watch = pages.open(url)
        assert page.locator('script[src="/livereload/reload.js"][data-epoch]').count() == 1
        page.wait_for_load_state("load")
        path = project.incidents / "acme-gpu-outage-01.md"
        with page.expect_navigation(timeout=90_000):
            path.write_text(
                path.read_text(encoding="utf-8").replace(
                    "Acme: GPUs fall off the bus", "Acme: reloaded by itself"
                ),
                encoding="utf-8",
            )
        page.wait_for_load_state("load")
        assert "Acme: reloaded by itself" in page.locator("h1").first.inner_text()
        assert not [m for m in watch.messages if "Content Security Policy" in m], watch.messages
        assert watch.errors == []
    finally:
        if tab is not None:
            tab.close()
        os.killpg(process.pid, signal.SIGTERM)
        output = process.communicate(timeout=30)[0]
    assert "Traceback" not in output


class _Links(HTMLParser):
    """Every href and src of a page."""

    def __init__(self) -> None:
        super().__init__()
        self.found: list[str] = []

    def handle_starttag(self, tag, attrs) -> None:
        self.found += [value for name, value in attrs if name in ("href", "src") and value]


def status(url: str) -> tuple[int, str, str]:
    """The status, content type and body of `url`."""
    try:
        with urllib.request.urlopen(url, timeout=10) as response:
            kind = response.headers.get("Content-Type", "")
            return response.status, kind, response.read().decode("utf-8", "replace")
    except urllib.error.HTTPError as error:
        return error.code, "", ""


def crawl(base: str) -> tuple[set[str], dict[str, list[str]]]:
    """Every address of the server at `base` that its pages link or load, from its root; and
    those that are not there (a 404), each with the pages that link it."""
    linked_from: dict[str, set[str]] = {base: set()}
    todo, missing = [base], set()
    while todo:
        url = todo.pop()
        code, kind, body = status(url)
        if code == 404:
            missing.add(url)
        if "html" not in kind:
            continue
        links = _Links()
        links.feed(body)
        for found in links.found:
            target = re.split(r"[?#]", urljoin(url, found))[0]
            if target.startswith(base):
                if target not in linked_from:
                    todo.append(target)
                linked_from.setdefault(target, set()).add(url)
    return set(linked_from), {url: sorted(linked_from[url])[:3] for url in missing}


def test_the_preview_links_only_what_it_serves_and_serves_no_removed_case(tmp_path):
    """Every href and src of every page the preview serves (head links, footer, the pages'
    own links) is there: a preview leaves out the data exports, so its pages do not link
    them. A case removed or renamed is gone from the preview in both languages (a 404), and no
    page links it any more."""
    project = Project(tmp_path / "project")
    write_fixture_library(project)
    port = free_port()
    process = start_preview(project.root, port)
    base = f"http://127.0.0.1:{port}/"

    def gone(url: str, seconds: float) -> bool:
        deadline = time.monotonic() + seconds
        while time.monotonic() < deadline:
            if status(url)[0] == 404:
                return True
            time.sleep(0.2)
        return False

    try:
        assert answers(base + "en/index.html", 120)
        seen, missing = crawl(base)
        assert base + "en/cases/globex-etcd-outage.html" in seen and base + "ko/feed.xml" in seen
        assert missing == {}

        for path in project.incidents.glob("globex-etcd-outage*"):
            path.unlink()
        for path in project.incidents.glob("acme-gpu-outage-05*"):
            text = path.read_text(encoding="utf-8").replace("acme-gpu-outage-05", "acme-renamed")
            path.unlink()
            project.write(
                f"incidents/{path.name.replace('acme-gpu-outage-05', 'acme-renamed')}", text
            )
        for lang in ("ko", "en"):
            assert gone(f"{base}{lang}/cases/globex-etcd-outage.html", 90), lang
            assert gone(f"{base}{lang}/cases/acme-gpu-outage-05.html", 90), lang
            assert answers(f"{base}{lang}/cases/acme-renamed.html", 90), lang
        seen, missing = crawl(base)
        assert base + "ko/cases/acme-renamed.html" in seen
        assert not [url for url in seen if "globex-etcd-outage" in url or "outage-05." in url]
        assert missing == {}
    finally:
        os.killpg(process.pid, signal.SIGTERM)
        output = process.communicate(timeout=30)[0]
    assert "Traceback" not in output


def children_of(pid: int) -> list[int]:
    """The processes whose parent is `pid` (from /proc)."""
    found = []
    for stat in Path("/proc").glob("[0-9]*/stat"):
        try:
            fields = stat.read_text().rsplit(")", 1)[1].split()
        except OSError:
            continue
        if int(fields[1]) == pid:
            found.append(int(stat.parent.name))
    return found


def alive(pid: int) -> bool:
    try:
        state = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()[0]
    except OSError:
        return False
    return state != "Z"


def test_sigterm_stops_the_preview_server_too(site_project):
    """A service manager or `kill` stops `incidents serve` with SIGTERM: the MkDocs server it
    runs stops with it, and the port is free again."""
    site_project.add_incident()
    port = free_port()
    process = start_preview(site_project.root, port)
    servers: list[int] = []
    try:
        assert answers(f"http://127.0.0.1:{port}/en/cases/acme-gpu-outage.html", 120)
        servers = children_of(process.pid)
        assert servers, "no preview server process"
        os.kill(process.pid, signal.SIGTERM)  # this process alone, as `kill` does
        process.wait(timeout=30)
        deadline = time.monotonic() + 15
        while time.monotonic() < deadline and any(map(alive, servers)):
            time.sleep(0.1)
        assert not any(map(alive, servers)), "the preview server outlived incidents serve"
        assert process.returncode == 128 + signal.SIGTERM  # as a shell reports it
        with socket.socket() as s:
            s.bind(("127.0.0.1", port))  # free again
    finally:
        if process.poll() is None:
            os.killpg(process.pid, signal.SIGKILL)
        for pid in servers:
            if alive(pid):
                os.kill(pid, signal.SIGKILL)
        process.communicate(timeout=30)
