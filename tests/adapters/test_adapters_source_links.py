"""`incidents links` (generator/adapters/source_links.py) against a server on this machine: a
page that is there, one that is gone, one that refuses, one that takes only GET, a redirect
and an address nobody answers. The suite never goes to the network."""

from __future__ import annotations

import socket
from collections.abc import Iterator
from http.server import BaseHTTPRequestHandler

import pytest
from browser import serve_with
from click.testing import CliRunner
from conftest import Project

from generator.adapters.source_links import Answer, Source, Unreachable, check_links, fetch
from generator.cli import main


class _Handler(BaseHTTPRequestHandler):
    def _answer(self, with_body: bool) -> None:
        path = self.path
        if path == "/report":
            self._send(200, with_body)
        elif path == "/moved":
            self.send_response(301)
            self.send_header("Location", "/report")
            self.end_headers()
        elif path == "/gone":
            self._send(404, with_body)
        elif path == "/private":
            self._send(403, with_body)
        elif path == "/get-only":
            if self.command == "HEAD":
                self._send(405, with_body)
            else:
                self._send(200, with_body)
        else:
            self._send(500, with_body)

    def _send(self, code: int, with_body: bool) -> None:
        self.send_response(code)
        self.send_header("Content-Length", "2")
        self.end_headers()
        if with_body:
            self.wfile.write(b"ok")

    def do_HEAD(self) -> None:  # noqa: N802 - the name http.server calls
        self._answer(False)

    def do_GET(self) -> None:  # noqa: N802
        self._answer(True)

    def log_message(self, *args) -> None:
        pass


@pytest.fixture
def server(monkeypatch) -> Iterator[str]:
    """The test server on loopback, under a public-looking name: `incidents links` refuses to
    ask anything of a host that is not public, so these tests resolve the name to the server
    and lift that refusal (a test of its own holds it)."""
    from generator.adapters import source_links

    real = socket.getaddrinfo

    def resolve(host, *args, **kwargs):
        return real("127.0.0.1" if host == "reports.acme.dev" else host, *args, **kwargs)

    monkeypatch.setattr(socket, "getaddrinfo", resolve)
    monkeypatch.setattr(source_links, "refuse_private", lambda url: None)
    with serve_with(_Handler) as url:
        yield url.rstrip("/").replace("127.0.0.1", "reports.acme.dev")


def closed_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def test_answers(server: str):
    assert fetch(f"{server}/report", 5) == Answer(200, "")
    assert fetch(f"{server}/moved", 5) == Answer(200, "")
    assert fetch(f"{server}/get-only", 5) == Answer(200, "")
    assert fetch(f"{server}/gone", 5) == Answer(404, "HTTP 404 Not Found")
    assert fetch(f"{server}/private", 5) == Answer(403, "HTTP 403 Forbidden")
    nobody = fetch(f"http://127.0.0.1:{closed_port()}/x", 5)
    assert nobody.status is None and nobody.reason.startswith("no answer (")


def test_each_url_is_asked_for_once_and_reported_where_each_case_cites_it():
    asked: list[str] = []

    def get(url: str, timeout: float) -> Answer:
        asked.append(url)
        return Answer(404, "HTTP 404 Not Found") if "gone" in url else Answer(200, "")

    sources = [
        Source("https://a.dev/gone", "incidents/a.md", 18, 10, "sources[0].url"),
        Source("https://a.dev/gone", "incidents/b.md", 22, 10, "sources[1].url"),
        Source("https://a.dev/here", "incidents/b.md", 18, 10, "sources[0].url"),
    ]
    problems = check_links(sources, get=get)
    assert sorted(asked) == ["https://a.dev/gone", "https://a.dev/here"]
    assert [p.format() for p in problems] == [
        "incidents/a.md:18:10: sources[0].url: HTTP 404 Not Found: the source is gone; "
        "cite an archived copy or another source",
        "incidents/b.md:22:10: sources[1].url: HTTP 404 Not Found: the source is gone; "
        "cite an archived copy or another source",
    ]


def test_the_command_reports_file_line_and_field(project: Project, server: str):
    project.add_incident(url=f"{server}/gone")
    project.add_incident("acme-other", url=f"{server}/private", occurred="2023-01-01")
    result = CliRunner().invoke(main, ["links", "--root", str(project.root), "--timeout", "5"])
    assert result.exit_code == 1, result.output
    lines = result.output.splitlines()
    assert lines[:2] == [
        "incidents/acme-gpu-outage.md:18:10: sources[0].url: HTTP 404 Not Found: the source is "
        "gone; cite an archived copy or another source",
        "incidents/acme-other.md:18:10: warning: sources[0].url: HTTP 403 Forbidden: check the "
        "source in a browser",
    ]
    assert lines[-1] == "links failed: 2 source URL(s) asked for, 1 gone, 1 to look at"


def test_links_never_asks_a_host_that_is_not_public(monkeypatch):
    """A source whose name resolves to loopback, a private range or a link-local metadata
    service, and a redirect to one, are refused before anything is sent."""
    import socket
    import urllib.error

    from generator.adapters import source_links

    def resolves_to(address):
        return lambda *a, **k: [(socket.AF_INET, socket.SOCK_STREAM, 6, "", (address, 443))]

    def never(*args, **kwargs):
        raise AssertionError("a request was sent")

    monkeypatch.setattr(source_links._OPENER, "open", never)
    for address in ("127.0.0.1", "10.1.2.3", "169.254.169.254", "192.168.0.1"):
        monkeypatch.setattr(socket, "getaddrinfo", resolves_to(address))
        answer = source_links.fetch("https://reports.acme.dev/postmortem", 1)
        assert answer.status is None and answer.reason.startswith("not asked: reports.acme.dev")
    for url in ("http://2130706433/", "http://169.254.169.254/latest/meta-data/", "http://[::1]/"):
        assert source_links.fetch(url, 1).reason.startswith("not asked: ")
    monkeypatch.setattr(socket, "getaddrinfo", resolves_to("127.0.0.1"))
    handler = source_links._PublicRedirects()
    with pytest.raises(urllib.error.URLError):
        handler.redirect_request(None, None, 302, "Found", {}, "http://intranet.acme.dev/")


def test_the_command_takes_paths_as_check_does(project: Project, server: str):
    """Only the sources of the incidents named are asked for."""
    project.add_incident(url=f"{server}/gone")
    project.add_incident("acme-other", url=f"{server}/private", occurred="2023-01-01")
    result = CliRunner().invoke(
        main,
        [
            "links",
            "--root",
            str(project.root),
            "--timeout",
            "5",
            str(project.incidents / "acme-other.ko.md"),
        ],
    )
    assert result.exit_code == 0, result.output
    assert result.output.splitlines() == [
        "incidents/acme-other.md:18:10: warning: sources[0].url: HTTP 403 Forbidden: check the "
        "source in a browser",
        "ok: 1 source URL(s) asked for, 0 gone, 1 to look at",
    ]
    wrong = CliRunner().invoke(main, ["links", "--root", str(project.root), "nowhere.md"])
    assert wrong.exit_code == 1
    assert wrong.output.splitlines()[-1] == "links failed: 1 path names no incident file"


def test_offline_it_says_the_network_is_unreachable(project: Project, monkeypatch):
    """With no name resolving, every source would be "gone": the command says the network is
    unreachable instead, once, and judges nothing."""

    def offline(*args, **kwargs):
        raise socket.gaierror(socket.EAI_NONAME, "Name or service not known")

    monkeypatch.setattr(socket, "getaddrinfo", offline)
    project.add_incident()
    project.add_incident("acme-other", url="https://reports.acme.dev/other", occurred="2023-01-01")
    result = CliRunner().invoke(main, ["links", "--root", str(project.root), "--timeout", "1"])
    assert result.exit_code == 2, result.output
    assert result.output.splitlines() == [
        "links: none of the 2 source URL(s) answered (no answer ([Errno -2] Name or service not "
        "known)) and no other source's name resolves: the network is unreachable from here; "
        "run it again when online"
    ]


def test_a_dead_address_while_online_is_still_gone():
    """One source's name not resolving, while other sources' names do, is that source's
    problem."""
    sources = [Source("https://gone.acme.dev/pm", "incidents/a.md", 18, 10, "sources[0].url")]
    nothing = Answer(None, "no answer (Name or service not known)")
    problems = check_links(
        sources,
        get=lambda url, timeout: nothing,
        others=["https://reports.globex.dev/x"],
        resolve=lambda host: host == "reports.globex.dev",
    )
    assert [p.format() for p in problems] == [
        "incidents/a.md:18:10: sources[0].url: no answer (Name or service not known): the "
        "source is gone; cite an archived copy or another source"
    ]
    with pytest.raises(Unreachable):
        check_links(
            sources,
            get=lambda url, timeout: nothing,
            others=["https://reports.globex.dev/x"],
            resolve=lambda host: False,
        )
