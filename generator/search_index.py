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


def build_search_index(site_dir: Path) -> int:
    """Index every page with `data-pagefind-body` (the case pages) into `site_dir/pagefind`.

    Pagefind writes one index per `<html lang>`, so Korean and English cases are searched apart.
    Returns the number of pages indexed.
    """
    # Pagefind's Python API is async; run it on a thread of its own so a caller that already
    # has an event loop (mkdocs serve, a test driving a browser) can still build.
    with ThreadPoolExecutor(max_workers=1) as pool:
        return pool.submit(asyncio.run, _index(site_dir)).result()


async def _index(site_dir: Path) -> int:
    config = IndexConfig(output_path=str(site_dir / "pagefind"), verbose=False)
    async with PagefindIndex(config) as index:
        # One call for the whole folder: the Python API waits about 0.1 s for each reply from
        # Pagefind's binary, so adding pages one by one would cost that much per case page.
        await index.add_directory(str(site_dir))
    count = sum(1 for _ in (site_dir / "pagefind" / "fragment").glob("*.pf_fragment"))
    for unused in (
        "pagefind-ui",
        "pagefind-component-ui",
        "pagefind-modular-ui",
        "pagefind-highlight",
    ):
        # Pagefind's own interfaces; the library has its own, so they would only add bytes.
        for path in (site_dir / "pagefind").glob(unused + ".*"):
            path.unlink()
    if count == 0:
        raise SearchIndexError(f"Pagefind indexed no pages in {site_dir}")
    log.info("search index: %d pages", count)
    return count
