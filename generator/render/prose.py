"""Incident prose (Markdown) to HTML that cannot carry markup or scripts from contributors."""

from __future__ import annotations

import xml.etree.ElementTree as ET
from functools import lru_cache
from html import escape

import markdown
import nh3
from markdown.extensions import Extension
from markdown.treeprocessors import Treeprocessor

SAFE_SCHEMES = ("http://", "https://", "mailto:")


class _SafeLinks(Treeprocessor):
    """Keep only http(s) and mailto links; mark external links; drop images (no remote fetches)."""

    def run(self, root: ET.Element) -> None:
        for parent in root.iter():
            for child in list(parent):
                if child.tag == "img":
                    _replace_with_text(parent, child, child.get("alt", ""))
                elif child.tag == "a":
                    href = (child.get("href") or "").strip()
                    if not href.lower().startswith(SAFE_SCHEMES):
                        child.attrib.pop("href", None)
                        child.tag = "span"


def _replace_with_text(parent: ET.Element, child: ET.Element, text: str) -> None:
    """Remove `child`, leaving `text` and the text that followed it where it was."""
    kept = text + (child.tail or "")
    siblings = list(parent)
    at = siblings.index(child)
    if at == 0:
        parent.text = (parent.text or "") + kept
    else:
        before = siblings[at - 1]
        before.tail = (before.tail or "") + kept
    parent.remove(child)


class _NoRawHtml(Extension):
    """Raw HTML in Markdown is shown as text, never passed through."""

    def extendMarkdown(self, md: markdown.Markdown) -> None:  # noqa: N802 - Markdown's API
        md.preprocessors.deregister("html_block")
        md.inlinePatterns.deregister("html")
        md.treeprocessors.register(_SafeLinks(md), "safe_links", 0)


@lru_cache(maxsize=1)
def _converter() -> markdown.Markdown:
    return markdown.Markdown(
        extensions=["sane_lists", "fenced_code", _NoRawHtml()], output_format="html"
    )


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


# Python-Markdown's link patterns take time quadratic in the number of `[` in a block (12,000 of
# them took half a minute). Past this many in a section, brackets are read as plain text: links
# there show as text, and the work stays linear.
MAX_BRACKETS = 200
_BRACKET = "\ue000"  # a private-use character Markdown treats as text, put back afterwards


# A case's sections are converted for its page and again for its card, in the same job.
@lru_cache(maxsize=64)
def to_html(text: str) -> str:
    """Render a section's Markdown (its `###` sub-headings sit below the section's `<h2>`).

    Raw HTML is already shown as text by the converter; nh3 then enforces the allowlist on the
    result as a second, independent line of defence."""
    converter = _converter()
    converter.reset()
    plain_brackets = text.count("[") > MAX_BRACKETS
    if plain_brackets:
        text = text.replace(_BRACKET, "").replace("[", _BRACKET)
    try:
        html = converter.convert(text)
    except RecursionError:
        # Thousands of nested list or quote markers ("- - - - …") exhaust Python-Markdown's
        # recursion: show such a section as plain paragraphs instead of failing the build. The
        # converter is dropped: its block parser's state stack still holds the list levels it
        # was inside, and every later section would render as if inside a list (no <p>).
        _converter.cache_clear()
        html = "".join(
            f"<p>{escape(part.strip())}</p>" for part in text.split("\n\n") if part.strip()
        )
    if plain_brackets:
        html = html.replace(_BRACKET, "[")
    return nh3.clean(
        html,
        tags=ALLOWED_TAGS,
        attributes=ALLOWED_ATTRIBUTES,
        url_schemes={"http", "https", "mailto"},
        link_rel="noopener noreferrer",
    )
