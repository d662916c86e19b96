"""The preview server's own answers (generator/adapters/mkdocs/errors.py)."""

from __future__ import annotations

from generator.adapters.mkdocs.errors import PreviewErrors


def test_a_path_with_a_nul_is_not_found_not_a_server_error():
    """`GET /ko/%00.html` reached MkDocs' handler, which raised (a 500 with a traceback)."""

    def serve(environ, start_response):
        raise AssertionError("MkDocs' handler was asked")

    statuses: list[str] = []
    app = PreviewErrors().app(serve)
    body = app({"PATH_INFO": "/ko/\x00.html"}, lambda status, headers: statuses.append(status))
    assert statuses == ["404 Not Found"] and b"".join(body) == b"Not found\n"
