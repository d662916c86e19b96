"""Link integrity of a built site: every internal link and anchor must resolve (reads the site):
the links of its HTML pages, and those of its Markdown for language models (llms.txt, each
language's llms-full.txt, and the .md beside every case, facet and term page)."""

from __future__ import annotations

import posixpath
import re
from html.parser import HTMLParser
from pathlib import Path
from urllib.parse import unquote, urlsplit

# Pages that web servers show at any path; Material gives them absolute links on purpose.
SKIPPED_PAGES = frozenset({"404.html"})
_ATTRIBUTES = {"a": "href", "link": "href", "script": "src", "img": "src", "iframe": "src"}
_MARKDOWN_LINK = re.compile(r"\]\(([^)\s]+)\)")


class _Collector(HTMLParser):
    def __init__(self) -> None:
        super().__init__(convert_charrefs=True)
        self.ids: set[str] = set()
        self.refs: list[str] = []

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        values = dict(attrs)
        if values.get("id"):
            self.ids.add(values["id"] or "")
        if tag == "a" and values.get("name"):
            self.ids.add(values["name"] or "")
        wanted = _ATTRIBUTES.get(tag)
        if wanted and values.get(wanted):
            self.refs.append(values[wanted] or "")


def broken_links(site: Path) -> list[str]:
    """`page: link` for every internal link whose file or anchor does not exist, sorted."""
    pages: dict[str, _Collector] = {}
    for path in sorted(site.rglob("*.html")):
        url = path.relative_to(site).as_posix()
        if url in SKIPPED_PAGES:
            continue
        collector = _Collector()
        collector.feed(path.read_text(encoding="utf-8"))
        pages[url] = collector
    for path in sorted([*site.rglob("llms*.txt"), *site.rglob("*.md")]):
        collector = _Collector()
        collector.refs = _MARKDOWN_LINK.findall(path.read_text(encoding="utf-8"))
        pages[path.relative_to(site).as_posix()] = collector
    broken = []
    for url, collector in pages.items():
        for ref in collector.refs:
            parts = urlsplit(ref)
            if parts.scheme or ref.startswith("//"):
                continue  # another host (or data:, mailto:); not ours to resolve
            if parts.path:
                target = posixpath.normpath(
                    posixpath.join(posixpath.dirname(url), unquote(parts.path))
                )
            else:
                target = url
            if target == ".." or target.startswith("../") or not (site / target).exists():
                broken.append(f"{url}: {ref}")
                continue
            fragment = unquote(parts.fragment)
            # Material's own toggles (#__drawer, #__search) are inputs, not anchors
            if (
                fragment
                and not fragment.startswith("__")
                and target in pages
                and fragment not in pages[target].ids
            ):
                broken.append(f"{url}: {ref}")
    return sorted(broken)
