"""Incident prose (Markdown) to HTML that cannot carry markup or scripts from contributors."""

from __future__ import annotations

import xml.etree.ElementTree as ET
from functools import lru_cache

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
                    alt = child.get("alt", "")
                    parent.remove(child)
                    if alt:
                        parent.text = (parent.text or "") + alt
                elif child.tag == "a":
                    href = (child.get("href") or "").strip()
                    if not href.lower().startswith(SAFE_SCHEMES):
                        child.attrib.pop("href", None)
                        child.tag = "span"


class _NoRawHtml(Extension):
    """Raw HTML in Markdown is shown as text, never passed through."""

    def extendMarkdown(self, md: markdown.Markdown) -> None:  # noqa: N802 - Markdown's API
        md.preprocessors.deregister("html_block")
        md.inlinePatterns.deregister("html")
        md.treeprocessors.register(_SafeLinks(md), "safe_links", 0)


@lru_cache(maxsize=1)
def _converter() -> markdown.Markdown:
    return markdown.Markdown(extensions=["sane_lists", _NoRawHtml()], output_format="html")


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


def to_html(text: str) -> str:
    """Render a section's Markdown (its `###` sub-headings sit below the section's `<h2>`).

    Raw HTML is already shown as text by the converter; nh3 then enforces the allowlist on the
    result as a second, independent line of defence."""
    converter = _converter()
    converter.reset()
    html = converter.convert(text)
    return nh3.clean(
        html,
        tags=ALLOWED_TAGS,
        attributes=ALLOWED_ATTRIBUTES,
        url_schemes={"http", "https", "mailto"},
        link_rel="noopener noreferrer",
    )
