"""`incidents links`: are the sources the cases cite still there?

The only command that goes to the network, and only when asked: it is never part of the check,
the build or the test suite (which run offline). Each source URL is asked for with HEAD, then
GET where a server refuses HEAD, following redirects, a few at a time. A URL is reported dead
when the server says it is gone (404, 410) or the address does not answer; answers that say
"not to you" (401, 403, 429) and server errors are reported as warnings, since a browser may
still get the page. Each report names the file, line and field, like the checker's.
"""

from __future__ import annotations

import ipaddress
import socket
import urllib.error
import urllib.parse
import urllib.request
from collections.abc import Callable, Iterable
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass
from pathlib import Path

from ..load.front_matter import decode_text, read_bytes, split_front_matter
from ..model.incident import Incident, public_host_problem
from ..validate.diagnostics import Diagnostic, field_name

USER_AGENT = "incident-library-link-check/1"
DEAD = frozenset({404, 410})
REFUSED = frozenset({401, 403, 429})


@dataclass(frozen=True)
class Source:
    url: str
    path: str  # the file that cites it, as the checker names it
    line: int
    col: int
    field: str


@dataclass(frozen=True)
class Answer:
    status: int | None  # HTTP status, None when nothing answered
    reason: str  # what went wrong, or "" for a page that is there


def sources_of(incidents: Iterable[Incident], root: Path) -> list[Source]:
    """Every source URL of the library, with where its file writes it."""
    found = []
    for incident in incidents:
        display = incident.path
        doc = split_front_matter(decode_text(read_bytes(root / display, display), display))
        for index, source in enumerate(incident.meta.sources):
            loc = ("sources", index, "url")
            pos = doc.front_matter.position(loc)
            found.append(Source(source.url, display, pos.line, pos.col, field_name(loc)))
    return found


class NotPublic(urllib.error.URLError):
    """The address is not a public host's: nothing is sent to it."""


def refuse_private(url: str) -> None:
    """Raise NotPublic unless every address `url`'s host resolves to is a global one (checked
    again for each redirect): a source, or a server's redirect, must never point this command
    at the machine it runs on or at its network (loopback, private ranges, link-local metadata
    services)."""
    problem = public_host_problem(url)
    if problem:
        raise NotPublic(problem)
    parts = urllib.parse.urlsplit(url)
    try:
        found = socket.getaddrinfo(parts.hostname, parts.port or 443, proto=socket.IPPROTO_TCP)
    except OSError as exc:
        raise urllib.error.URLError(exc) from None
    for *_, address in found:
        ip = ipaddress.ip_address(address[0].split("%")[0])
        if not ip.is_global:
            raise NotPublic(f"{parts.hostname} resolves to {ip}, which is not a public address")


class _PublicRedirects(urllib.request.HTTPRedirectHandler):
    def redirect_request(self, req, fp, code, msg, headers, newurl):
        refuse_private(newurl)
        return super().redirect_request(req, fp, code, msg, headers, newurl)


_OPENER = urllib.request.build_opener(_PublicRedirects)


def fetch(url: str, timeout: float) -> Answer:
    """Ask for `url`: HEAD first, GET if the server does not take HEAD."""
    try:
        refuse_private(url)
    except NotPublic as refused:
        return Answer(None, f"not asked: {refused.reason}")
    except urllib.error.URLError as error:
        return Answer(None, f"no answer ({error.reason})")
    for method in ("HEAD", "GET"):
        request = urllib.request.Request(url, method=method, headers={"User-Agent": USER_AGENT})
        try:
            with _OPENER.open(request, timeout=timeout) as response:
                return Answer(response.status, "")
        except urllib.error.HTTPError as error:
            if method == "HEAD" and error.code in (405, 501, *REFUSED, *DEAD):
                continue  # some servers answer HEAD differently from GET
            return Answer(error.code, f"HTTP {error.code} {error.reason}")
        except NotPublic as refused:
            return Answer(None, f"not asked: {refused.reason}")
        except (TimeoutError, urllib.error.URLError, OSError, ValueError) as error:
            reason = getattr(error, "reason", error)
            return Answer(None, f"no answer ({reason})")
    return Answer(None, "no answer")  # pragma: no cover - the loop always returns


class Unreachable(Exception):
    """Nothing answered, and the network itself looks unreachable: no source can be judged."""


def resolves(host: str) -> bool:
    """Whether `host`'s name resolves (asks only the resolver, no server)."""
    try:
        return bool(socket.getaddrinfo(host, 443, proto=socket.IPPROTO_TCP))
    except (OSError, UnicodeError):
        return False


# Other sources' hosts asked for their address when every URL asked failed: one that resolves
# shows the network works, so the failures are the sources' own.
PROBED_HOSTS = 5


def check_links(
    sources: list[Source],
    timeout: float = 15.0,
    jobs: int = 8,
    get: Callable[[str, float], Answer] = fetch,
    others: Iterable[str] = (),
    resolve: Callable[[str], bool] = resolves,
) -> list[Diagnostic]:
    """A diagnostic for each source that is gone (error) or refused or failing (warning); each
    URL is asked for once however many cases cite it.

    Raises Unreachable when no URL answered at all and neither did the names of up to
    PROBED_HOSTS of `others` (the library's other source URLs): offline, every source would
    otherwise be reported gone."""
    urls = sorted({s.url for s in sources})
    with ThreadPoolExecutor(max_workers=max(1, jobs)) as pool:
        answers = dict(zip(urls, pool.map(lambda u: get(u, timeout), urls), strict=True))
    unanswered = [a for a in answers.values() if a.reason.startswith("no answer")]
    if unanswered and all(a.status is None for a in answers.values()):
        asked = {urllib.parse.urlsplit(u).hostname for u in urls}
        hosts = sorted({urllib.parse.urlsplit(u).hostname for u in others} - asked - {None})
        if not any(resolve(host) for host in hosts[:PROBED_HOSTS]):
            raise Unreachable(
                f"none of the {len(urls)} source URL(s) answered ({unanswered[0].reason}) "
                "and no other source's name resolves: the network is unreachable from here; "
                "run it again when online"
            )
    problems = []
    for source in sources:
        answer = answers[source.url]
        if not answer.reason:
            continue
        if answer.status is None or answer.status in DEAD:
            message = (
                f"{answer.reason}: the source is gone; cite an archived copy or another source"
            )
            severity = "error"
        else:
            message = f"{answer.reason}: check the source in a browser"
            severity = "warning"
        problems.append(
            Diagnostic(source.path, source.line, source.col, source.field, message, severity)
        )
    return problems
