"""Live reload in `incidents serve`, under the site's Content-Security-Policy.

MkDocs' preview server puts an inline script into every page it serves, which polls the server
and reloads the page after a rebuild. Every page of this site forbids inline scripts
(outputs/csp.py), so that script never ran and the tab never reloaded. Here the server puts in a
tag for a script of its own origin instead (reload.js, served at SCRIPT_URL), which the policy
allows, and which speaks the same protocol to MkDocs' /livereload/ endpoint.
"""

from __future__ import annotations

import logging
from collections.abc import Callable, Iterable
from pathlib import Path

log = logging.getLogger("mkdocs.plugins.incident_library")

# Under /livereload/, which the server keeps apart from the site's files (a page of the site
# cannot take the address) and which the build-error pages let through.
SCRIPT_URL = "/livereload/reload.js"
SCRIPT = (Path(__file__).parent / "reload.js").read_bytes()


def install(server) -> None:
    """Make `server` (MkDocs' LiveReloadServer) put the reload script's tag into the pages it
    serves, and serve the script."""
    if not hasattr(server, "_inject_js_into_html"):
        log.warning("preview: this MkDocs has no live reload to replace; pages will not reload")
        return
    server._inject_js_into_html = script_tag
    server.set_app(serving_script(server.get_app()))


def script_tag(content: bytes, epoch: int) -> bytes:
    """The page with the reload script's tag before `</body>` (at the end if there is none);
    `epoch` is the build the page comes from."""
    tag = b'<script src="%s" data-epoch="%d"></script>' % (SCRIPT_URL.encode(), epoch)
    end = content.rfind(b"</body>")
    end = len(content) if end == -1 else end
    return content[:end] + tag + content[end:]


def serving_script(app: Callable) -> Callable:
    """`app`, answering SCRIPT_URL with the reload script."""

    def application(environ, start_response) -> Iterable[bytes]:
        if environ.get("PATH_INFO") != SCRIPT_URL:
            return app(environ, start_response)
        start_response(
            "200 OK",
            [
                ("Content-Type", "text/javascript; charset=utf-8"),
                ("Content-Length", str(len(SCRIPT))),
                ("Cache-Control", "no-store"),
            ],
        )
        return [SCRIPT]

    return application
