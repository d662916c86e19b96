"""The Pagefind index of the case pages (an output step: writes files and runs Pagefind).

Pagefind is not pointed at the built site. Each case page's content is written, as it is rendered,
into a small document of its own in a folder beside the site (`SearchDocuments`); once every page
is rendered, Pagefind indexes that folder on a thread while MkDocs is still writing the site, so
the index costs the build little more than its last few seconds. The documents hold exactly what
the case page shows inside `data-pagefind-body`, at the same relative URL, so the index is what
indexing the site would give, without parsing Material's frame around 20,000 pages.

One difference: Korean syllables in the documents' text are spelled out in ASCII (`spell_hangul`),
and the library page spells query words the same way. Pagefind 1.5 splits its word index into
chunks so that a search downloads only the chunks of its words, but it never splits the part of
the index whose words start with Hangul (Pagefind issue #1211): on a 10,000-case library every
Korean search downloaded one chunk of about 8 MB. Spelled out, Korean words are chunked like
English ones. Result titles and summaries come from attributes, which are left as written.
"""

from __future__ import annotations

import asyncio
import html
import logging
import queue
import re
import shutil
import threading
import time
from pathlib import Path

from pagefind.index import IndexConfig, PagefindIndex

log = logging.getLogger("mkdocs.plugins.incident_library")

LANGS = ("ko", "en")
UNUSED_BUNDLE_FILES = (
    # Pagefind's own interfaces; the library has its own, so they would only add bytes.
    "pagefind-ui",
    "pagefind-component-ui",
    "pagefind-modular-ui",
    "pagefind-highlight",
)


class SearchIndexError(RuntimeError):
    pass


_SPELLING = {code: f"q{code - 0xAC00:05d}" for code in range(0xAC00, 0xD7A4)}
_TEXT = re.compile(r">([^<]+)<")


def spell_hangul(text: str) -> str:
    """Each Hangul syllable as `q` and its five-digit number in the Unicode block (가 -> q00000).

    Fixed width, so a prefix of a Korean word is a prefix of its spelling, and digits, so no
    stemmer changes the end of a spelled word. Must match `spellHangul` in library.js."""
    return text.translate(_SPELLING)


def search_document(lang: str, content: str) -> str:
    """The document Pagefind indexes for one case page: the part of its content Pagefind reads
    (the `data-pagefind-body` element), Korean text spelled out. Pagefind's memory grows with
    what it is given; the rest of the page (related cases, sources, citation) would be read and
    thrown away."""
    start = content.find("<article ")
    if start != -1 and "data-pagefind-body" in content[start : content.find(">", start)]:
        end = content.find("</article>", start)
        if end != -1:
            content = content[start : end + len("</article>")]
    text = _TEXT.sub(lambda m: ">" + spell_hangul(m.group(1)) + "<", content)
    return (
        f'<!doctype html><html lang="{html.escape(lang)}"><head><meta charset="utf-8">'
        f"<title></title></head><body>{text}</body></html>"
    )


class SearchDocuments:
    """The documents Pagefind indexes, and the background run that indexes them.

    Pagefind starts on a language as soon as every case page of that language has been added
    (`expect` says how many there are), so Korean is indexed while English pages are rendered."""

    def __init__(self, folder: Path):
        self.folder = folder
        self.count = 0
        self.seconds = 0.0  # how long Pagefind ran
        self.waited = 0.0  # how long the build waited for it at the end
        self.expected: dict[str, int] = {}
        self.added: dict[str, int] = {}
        self.site_dir: Path | None = None
        self._queued: set[str] = set()
        self._queue: queue.Queue[str | None] = queue.Queue()
        self._thread: threading.Thread | None = None
        self._outcome: int | BaseException | None = None
        shutil.rmtree(folder, ignore_errors=True)

    def expect(self, site_dir: Path, pages: dict[str, int]) -> None:
        """Index into `site_dir`; `pages`: how many case pages of each language will be added."""
        self.site_dir, self.expected = site_dir, dict(pages)

    def add(self, url: str, lang: str, content: str) -> None:
        """Write one page's rendered content; `url` is relative to the site (ko/cases/x.html)."""
        self.write(url, lang, content)
        self.note(lang)

    def write(self, url: str, lang: str, content: str) -> None:
        """Only write the document (a render worker does this for the pages it renders)."""
        path = self.folder / url
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(search_document(lang, content), encoding="utf-8")

    def note(self, lang: str) -> None:
        """Count a document written (here or by a worker) and start on a complete language."""
        self.count += 1
        self.added[lang] = self.added.get(lang, 0) + 1
        if self.added[lang] == self.expected.get(lang):
            self._begin(lang)

    def _begin(self, lang: str) -> None:
        if lang in self._queued or self.site_dir is None:
            return
        self._queued.add(lang)
        self._queue.put(lang)
        if self._thread is None:
            self._thread = threading.Thread(target=self._run, name="pagefind", daemon=True)
            self._thread.start()

    def _run(self) -> None:
        assert self.site_dir is not None
        started = time.perf_counter()
        total = 0
        finished = False  # the None that start() queues last has been taken
        try:
            while (lang := self._queue.get()) is not None:
                total += build_search_index(self.folder, self.site_dir, (lang,))
            finished = True
            if total == 0:
                raise SearchIndexError(f"Pagefind indexed no pages in {self.folder}")
            self._outcome = total
        except BaseException as exc:  # reported by wait(), on the build's own thread
            self._outcome = exc
            while not finished and self._queue.get() is not None:  # until start() says done
                pass
        self.seconds = time.perf_counter() - started

    def start(self) -> None:
        """Every page is added: index what has not been started yet, then finish."""
        for lang in LANGS:
            if (self.folder / lang).is_dir():
                self._begin(lang)
        if self._thread is None:  # nothing to index
            self._outcome = SearchIndexError(f"no search documents in {self.folder}")
            return
        self._queue.put(None)

    def wait(self) -> int:
        """Wait for the index; returns the number of pages indexed, or raises what went wrong."""
        started = time.perf_counter()
        if self._thread is not None:
            self._thread.join()
        self.waited = time.perf_counter() - started
        outcome = self._outcome
        if isinstance(outcome, BaseException):
            raise outcome
        if outcome is None:
            raise SearchIndexError("the search index was never started")
        return outcome

    def discard(self) -> None:
        """Remove the documents; waits for a run still going, so nothing writes after this."""
        if self._thread is not None:
            if self._thread.is_alive():
                self._queue.put(None)
            self._thread.join()
        shutil.rmtree(self.folder, ignore_errors=True)


def build_search_index(source_dir: Path, site_dir: Path, langs: tuple[str, ...] = LANGS) -> int:
    """Index the pages under `source_dir/<lang>/` (those with `data-pagefind-body`) into
    `site_dir/<lang>/pagefind/`. Returns the number of pages indexed.

    One Pagefind run per language: each bundle holds one language's index only, and Pagefind's
    memory grows with the pages of one run, so two half-size runs peak at about half as much.
    """
    total = 0
    for lang in langs:
        if (source_dir / lang).is_dir():
            # Pagefind's Python API is async; asyncio.run gives this call a loop of its own, so
            # it also works on a thread next to a caller's loop (mkdocs serve, a browser test).
            count = asyncio.run(_index(source_dir / lang, site_dir / lang / "pagefind"))
            log.info("search index: %d %s pages", count, lang)
            total += count
    return total


async def _index(folder: Path, output: Path) -> int:
    config = IndexConfig(output_path=str(output), verbose=False)
    async with PagefindIndex(config) as index:
        # One call for the whole folder: the Python API waits about 0.1 s for each reply from
        # Pagefind's binary, so adding pages one by one would cost that much per case page.
        await index.add_directory(str(folder))
    for unused in UNUSED_BUNDLE_FILES:
        for path in output.glob(unused + ".*"):
            path.unlink()
    return sum(1 for _ in (output / "fragment").glob("*.pf_fragment"))
