"""`incidents serve` while a build error stands: every page says what is wrong.

MkDocs' preview server holds each request until a rebuild succeeds, so after a failed one the
browser waits forever and the error is only in the terminal. Here a failed rebuild counts as
done (requests are answered) and every HTML request gets an error page naming the problem, which
reloads itself every two seconds, so the reader's page comes back once the file is fixed.
"""

from __future__ import annotations

import html
import logging
from collections.abc import Callable, Iterable

log = logging.getLogger("mkdocs.plugins.incident_library")

RELOAD_SECONDS = 2


class PreviewErrors:
    """Wraps a preview server's builder and its WSGI application."""

    def __init__(self, describe: Callable[[], str | None] = lambda: None) -> None:
        """`describe` gives the problem behind a failure (MkDocs itself only raises "Aborted
        with a BuildError!" once the plugin has been told the cause)."""
        self.failure: str | None = None
        self.describe = describe

    def builder(self, build: Callable[..., None]) -> Callable[..., None]:
        def guarded(*args, **kwargs) -> None:
            try:
                build(*args, **kwargs)
            except Exception as exc:  # any failure is shown, never a hang
                self.failure = self.describe() or str(exc) or type(exc).__name__
                log.error("preview: the build failed; pages show the error until it is fixed")
            else:
                self.failure = None

        return guarded

    def app(self, serve: Callable) -> Callable:
        def application(environ, start_response) -> Iterable[bytes]:
            failure = self.failure
            path = environ.get("PATH_INFO", "")
            if "\x00" in path:  # no file has such a name; MkDocs' handler would raise on it
                start_response("404 Not Found", [("Content-Type", "text/plain; charset=utf-8")])
                return [b"Not found\n"]
            if failure is None or not _is_page(path):
                return serve(environ, start_response)
            body = error_page(failure).encode("utf-8")
            start_response(
                "500 Internal Server Error",
                [
                    ("Content-Type", "text/html; charset=utf-8"),
                    ("Content-Length", str(len(body))),
                    ("Cache-Control", "no-store"),
                ],
            )
            return [body]

        return application


def _is_page(path: str) -> bool:
    if path.startswith("/livereload/"):
        return False
    last = path.rsplit("/", 1)[-1]
    return last == "" or last.endswith(".html") or "." not in last


def error_page(failure: str) -> str:
    """The page shown for every URL while the build fails; the message is text, never markup."""
    return (
        "<!doctype html>\n"
        '<html lang="en"><head><meta charset="utf-8">\n'
        f'<meta http-equiv="refresh" content="{RELOAD_SECONDS}">\n'
        "<title>Build failed · Incident Library preview</title>\n"
        "<style>body{font:16px/1.5 system-ui,sans-serif;margin:2rem auto;max-width:60rem;"
        "padding:0 1rem}pre{background:#fff4f4;border-left:4px solid #b3261e;padding:1rem;"
        "white-space:pre-wrap;overflow-wrap:anywhere}</style>\n"
        "</head><body>\n"
        "<h1>The build failed</h1>\n"
        "<p>Fix the problem below and save; this page reloads by itself. "
        '<span lang="ko">아래 문제를 고치고 저장하면 이 페이지가 저절로 다시 읽힙니다.</span></p>\n'
        f"<pre>{html.escape(failure)}</pre>\n"
        "</body></html>\n"
    )
