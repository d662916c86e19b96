"""A Content-Security-Policy for every page: scripts only from the site (I/O-free, pure).

Material for MkDocs writes a few small inline scripts into each page; they are allowed by their
SHA-256 hashes, computed from the page itself, so no other inline script (and no inline event
handler, which CSP blocks unless 'unsafe-inline' is given) can run.
"""

from __future__ import annotations

import base64
import hashlib
import re

_INLINE_SCRIPT = re.compile(r"<script(?P<attrs>[^>]*)>(?P<body>.*?)</script>", re.S | re.I)
_HEAD = re.compile(r"<head[^>]*>", re.I)

BASE_POLICY = {
    "default-src": ["'self'"],
    # Pagefind compiles its WebAssembly search engine; 'wasm-unsafe-eval' allows only that.
    "script-src": ["'self'", "'wasm-unsafe-eval'"],
    "style-src": ["'self'"],
    "img-src": ["'self'", "data:"],
    "font-src": ["'self'", "data:"],
    "connect-src": ["'self'"],
    "worker-src": ["'self'", "blob:"],
    "object-src": ["'none'"],
    "base-uri": ["'self'"],
    "form-action": ["'none'"],
}


def inline_script_hashes(html: str) -> list[str]:
    hashes = []
    for match in _INLINE_SCRIPT.finditer(html):
        attrs = match.group("attrs").lower()
        if "src=" in attrs or "application/json" in attrs:
            continue
        digest = hashlib.sha256(match.group("body").encode("utf-8")).digest()
        hashes.append("'sha256-" + base64.b64encode(digest).decode("ascii") + "'")
    return sorted(set(hashes))


def policy_for(html: str) -> str:
    policy = {key: list(values) for key, values in BASE_POLICY.items()}
    policy["script-src"] += inline_script_hashes(html)
    return "; ".join(f"{key} {' '.join(values)}" for key, values in policy.items())


def with_policy(html: str) -> str:
    """The page with its policy as the first element of <head>."""
    meta = f'<meta http-equiv="Content-Security-Policy" content="{policy_for(html)}">'
    return _HEAD.sub(lambda m: m.group(0) + meta, html, count=1)
