"""A Content-Security-Policy for every page: scripts only from the site's own files. Pure.

Every script a page runs is a file the theme or the project ships (Material's inline helpers are
replaced by `assets/theme.js` and `assets/theme-body.js`, see overrides/partials/javascripts/).
So the policy allows no inline script at all, whatever a page holds: a `<script>` that reached a
page (from a hand-written page, a setting, anything) does not run, and neither does an inline
event handler. It is the same for every page, known before any page is built.
"""

from __future__ import annotations

import re

_HEAD = re.compile(r"<head(?:\s[^>]*)?>", re.I)  # not <header>

POLICY = {
    "default-src": ["'self'"],
    "script-src": ["'self'"],
    "style-src": ["'self'"],
    "img-src": ["'self'", "data:"],
    "font-src": ["'self'", "data:"],
    "connect-src": ["'self'"],
    "worker-src": ["'none'"],
    "object-src": ["'none'"],
    "base-uri": ["'self'"],
    # the header's search box asks the library page (a GET form): to the site and nowhere else
    "form-action": ["'self'"],
}
POLICY_TEXT = "; ".join(f"{key} {' '.join(values)}" for key, values in POLICY.items())
_META = f'<meta http-equiv="Content-Security-Policy" content="{POLICY_TEXT}">'


def with_policy(html: str) -> str:
    """The page with the policy as the first element of <head>."""
    return _HEAD.sub(lambda m: m.group(0) + _META, html, count=1)
