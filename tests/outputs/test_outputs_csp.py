"""The Content-Security-Policy (generator/outputs/csp.py): `with_policy` puts exactly one policy
meta as the first element of <head>; the policy is the same for every page, allows scripts only
from the site's own files, and has no hashes, nonces or 'unsafe-inline'."""

from __future__ import annotations

import re

from selectolax.lexbor import LexborHTMLParser as HTMLParser

from generator.outputs.csp import POLICY, POLICY_TEXT, with_policy

PAGE = (
    '<!doctype html>\n<html lang="en">\n<head>\n<meta charset="utf-8">\n<title>x</title>\n'
    '<script src="assets/theme.js"></script>\n</head>\n<body><header>top</header>'
    '<script>alert(1)</script><p onclick="x()">hi</p></body>\n</html>\n'
)


def policies(html: str) -> list[str]:
    tree = HTMLParser(html)
    return [
        node.attributes["content"]
        for node in tree.css("meta")
        if (node.attributes.get("http-equiv") or "").lower() == "content-security-policy"
    ]


def directives(text: str) -> dict[str, list[str]]:
    out = {}
    for part in text.split(";"):
        name, *values = part.split()
        out[name] = values
    return out


class TestWithPolicy:
    def test_one_policy_first_in_head(self):
        html = with_policy(PAGE)
        assert policies(html) == [POLICY_TEXT]
        head = HTMLParser(html).head
        first = next(node for node in head.iter() if node.tag != "-text")
        assert first.tag == "meta" and first.attributes["http-equiv"] == "Content-Security-Policy"
        assert html.index("Content-Security-Policy") < html.index('charset="utf-8"')

    def test_the_rest_of_the_page_is_unchanged(self):
        html = with_policy(PAGE)
        meta = f'<meta http-equiv="Content-Security-Policy" content="{POLICY_TEXT}">'
        assert html.replace(meta, "", 1) == PAGE

    def test_a_head_with_attributes(self):
        html = with_policy('<html><HEAD data-x="1"><title>t</title></HEAD><body></body></html>')
        assert html.startswith('<html><HEAD data-x="1"><meta http-equiv="Content-Security-Policy"')

    def test_only_the_first_head(self):
        html = with_policy(
            "<html><head></head><body><pre>&lt;head&gt;</pre><head></head></body></html>"
        )
        assert html.count("Content-Security-Policy") == 1

    def test_the_same_policy_whatever_the_page_holds(self):
        other = PAGE.replace("<script>alert(1)</script>", "<script>console.log(2)</script>")
        assert policies(with_policy(PAGE)) == policies(with_policy(other))

    def test_a_header_is_not_a_head(self):
        html = with_policy("<!doctype html><html><body><header>top</header></body></html>")
        assert "<header><meta" not in html


class TestPolicy:
    def test_scripts_only_from_the_site(self):
        policy = directives(POLICY_TEXT)
        assert policy["script-src"] == ["'self'"]
        assert policy["worker-src"] == ["'none'"]
        assert policy["default-src"] == ["'self'"]
        assert policy["object-src"] == ["'none'"]
        assert policy["base-uri"] == ["'self'"]
        assert policy["form-action"] == ["'self'"]  # the header's search form

    def test_no_inline_allowance_hash_or_nonce(self):
        assert "unsafe-inline" not in POLICY_TEXT
        assert "'unsafe-eval'" not in POLICY_TEXT
        assert not re.search(r"'(sha256|sha384|sha512|nonce)-", POLICY_TEXT)
        assert "*" not in POLICY_TEXT
        assert "http:" not in POLICY_TEXT and "https:" not in POLICY_TEXT

    def test_the_text_is_the_policy(self):
        assert directives(POLICY_TEXT) == POLICY
        assert '"' not in POLICY_TEXT  # safe inside the content attribute
