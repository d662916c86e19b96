"""Incident prose (Markdown) to HTML that cannot carry markup or scripts from contributors.

The Markdown is CommonMark, read by cmark (GitHub's C parser, through cmarkgfm): what a
contributor sees in a pull request's preview is what the site shows, and a section converts in
microseconds, where Python-Markdown took a third of the build's rendering. Around it:

- raw HTML is shown as text: every `<` that does not open an autolink reaches cmark as a
  private-use character, which it treats as text everywhere (code included), and is written
  back as `&lt;`;
- only http(s) and mailto links stay links; any other is shown as its text;
- images become their alt text (the site fetches nothing from elsewhere);
- `#` and `##` headings become paragraphs: a section's heading is the page's `<h2>`;
- nh3 (Ammonia) then enforces the allowlist on the result, a second, independent line of
  defence.
"""

from __future__ import annotations

import re
from functools import lru_cache

import cmarkgfm
import nh3

SAFE_SCHEMES = ("http://", "https://", "mailto:")

# What prose may contain once rendered; everything else is removed by nh3 (Ammonia).
ALLOWED_TAGS = {
    "p",
    "br",
    "hr",
    "h3",
    "h4",
    "h5",
    "h6",
    "ul",
    "ol",
    "li",
    "strong",
    "em",
    "b",
    "i",
    "code",
    "pre",
    "blockquote",
    "a",
    "span",
    "table",
    "thead",
    "tbody",
    "tr",
    "th",
    "td",
    "del",
    "sup",
    "sub",
}
ALLOWED_ATTRIBUTES = {"a": {"href", "title"}, "ol": {"start"}, "th": {"align"}, "td": {"align"}}

_LT = "\ue000"  # a private-use character cmark treats as text, written back as "&lt;"
_LT_ENCODED = "%EE%80%80"  # the same character percent-encoded (UTF-8), as cmark writes it in a URL
# A `<` that opens a CommonMark autolink (a URI or an e-mail address) stays: cmark links it.
_RAW_LT = re.compile(
    r"<(?![A-Za-z][A-Za-z0-9.+-]{1,31}:[^<>\x00-\x20]*>"
    r"|[A-Za-z0-9.!#$%&'*+/=?^_`{|}~-]+@[A-Za-z0-9](?:[A-Za-z0-9-]{0,61}[A-Za-z0-9])?"
    r"(?:\.[A-Za-z0-9](?:[A-Za-z0-9-]{0,61}[A-Za-z0-9])?)*>)"
)
# cmark's own markup, which is all the output holds (no raw HTML reaches it): a link cannot
# hold another, an image is one element.
_LINK = re.compile(r'<a href="([^"]*)"(?: title="[^"]*")?>(.*?)</a>', re.S)
_IMAGE = re.compile(r'<img src="[^"]*" alt="([^"]*)"(?: title="[^"]*")? />')
_TOP_HEADING = re.compile(r"<(/?)h[12]>")


def _link(match: re.Match) -> str:
    href = match.group(1).strip().lower()
    return match.group(0) if href.startswith(SAFE_SCHEMES) else f"<span>{match.group(2)}</span>"


# A case's sections are converted for its page and again for its card, in the same job.
@lru_cache(maxsize=64)
def to_html(text: str) -> str:
    """Render a section's Markdown (its `###` sub-headings sit below the section's `<h2>`)."""
    source = _RAW_LT.sub(_LT, text.replace(_LT, ""))
    # In a link's address cmark percent-encodes the stand-in, which stands for "<" (%3C) there.
    html = cmarkgfm.markdown_to_html(source).replace(_LT, "&lt;").replace(_LT_ENCODED, "%3C")
    html = _TOP_HEADING.sub(r"<\1p>", _LINK.sub(_link, _IMAGE.sub(r"\1", html)))
    return nh3.clean(
        html.rstrip("\n"),
        tags=ALLOWED_TAGS,
        attributes=ALLOWED_ATTRIBUTES,
        url_schemes={"http", "https", "mailto"},
        link_rel="noopener noreferrer",
    )
