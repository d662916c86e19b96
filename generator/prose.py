"""Incident prose (Markdown) to HTML that cannot carry markup or scripts from contributors."""

from __future__ import annotations

import xml.etree.ElementTree as ET
from functools import lru_cache

import markdown
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
                    else:
                        child.set("rel", "noopener noreferrer")


class _NoRawHtml(Extension):
    """Raw HTML in Markdown is shown as text, never passed through."""

    def extendMarkdown(self, md: markdown.Markdown) -> None:  # noqa: N802 - Markdown's API
        md.preprocessors.deregister("html_block")
        md.inlinePatterns.deregister("html")
        md.treeprocessors.register(_SafeLinks(md), "safe_links", 0)


@lru_cache(maxsize=1)
def _converter() -> markdown.Markdown:
    return markdown.Markdown(extensions=["sane_lists", _NoRawHtml()], output_format="html")


def to_html(text: str) -> str:
    """Render a section's Markdown (its `###` sub-headings sit below the section's `<h2>`)."""
    converter = _converter()
    converter.reset()
    return converter.convert(text)
