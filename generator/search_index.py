"""The Pagefind index of a built site (an output step: reads and writes the site folder)."""

from __future__ import annotations

import asyncio
import logging
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

from pagefind.index import IndexConfig, PagefindIndex

log = logging.getLogger("mkdocs.plugins.incident_library")


class SearchIndexError(RuntimeError):
    pass


LANGS = ("ko", "en")


def build_search_index(site_dir: Path) -> int:
    """Index the case pages (those with `data-pagefind-body`) of each language into
    `site_dir/<lang>/pagefind/`. Returns the number of pages indexed.

    One Pagefind run per language: each bundle holds one language's index only, and Pagefind's
    memory grows with the pages of one run, so two half-size runs peak at about half as much.
    """
    # Pagefind's Python API is async; run it on a thread of its own so a caller that already
    # has an event loop (mkdocs serve, a test driving a browser) can still build.
    total = 0
    with ThreadPoolExecutor(max_workers=1) as pool:
        for lang in LANGS:
            if (site_dir / lang).is_dir():
                total += pool.submit(asyncio.run, _index(site_dir / lang)).result()
    if total == 0:
        raise SearchIndexError(f"Pagefind indexed no pages in {site_dir}")
    log.info("search index: %d pages", total)
    return total


async def _index(folder: Path) -> int:
    output = folder / "pagefind"
    config = IndexConfig(output_path=str(output), verbose=False)
    async with PagefindIndex(config) as index:
        # One call for the whole folder: the Python API waits about 0.1 s for each reply from
        # Pagefind's binary, so adding pages one by one would cost that much per case page.
        await index.add_directory(str(folder))
    for unused in (
        "pagefind-ui",
        "pagefind-component-ui",
        "pagefind-modular-ui",
        "pagefind-highlight",
    ):
        # Pagefind's own interfaces; the library has its own, so they would only add bytes.
        for path in output.glob(unused + ".*"):
            path.unlink()
    return sum(1 for _ in (output / "fragment").glob("*.pf_fragment"))
