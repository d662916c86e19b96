"""The Pagefind index of the case pages (an adapter: writes files and runs Pagefind's binary).

Pagefind is not pointed at the built site. The core's outputs include one small search document
per case page (outputs/search_documents.py); they are written into a hidden folder beside the
site and Pagefind's command indexes each language's folder into `<site>/<lang>/pagefind/`, on a
thread, while the shell writes the site. The command line is used rather than Pagefind's Python
API: the API talks to the binary over its standard output, so one stray line from the binary left
the build waiting forever; a command has an exit status, a timeout and an error stream.
"""

from __future__ import annotations

import gzip
import json
import os
import shutil
import subprocess
import threading
import time
from collections.abc import Iterable
from pathlib import Path

from ..languages import LANGS

# The fragment -> case map the browser reads beside Pagefind's own files.
FRAGMENT_MAP = "cases.json"
UNUSED_BUNDLE_FILES = (
    # Pagefind's own interfaces; the library has its own, so they would only add bytes.
    "pagefind-ui",
    "pagefind-component-ui",
    "pagefind-modular-ui",
    "pagefind-highlight",
)
# Seconds Pagefind may take, before the build stops it: generous (10,000 cases take about two
# minutes per language on two cores), and settable for tests and slow machines.
TIMEOUT = float(os.environ.get("INCIDENTS_INDEX_TIMEOUT", "0") or 0) or None


class SearchIndexError(RuntimeError):
    """Pagefind failed, timed out, is missing, or indexed nothing; the message says which."""


def pagefind_command() -> list[str]:
    """The Pagefind binary that `pagefind[bin]` installs (or PAGEFIND_BINARY_PATH)."""
    from pagefind.service import get_executable

    binary = get_executable()
    if binary is None or not Path(binary).exists():
        raise SearchIndexError(
            "Pagefind's binary is not installed; run `make site` (it installs pagefind[bin]) "
            "or set PAGEFIND_BINARY_PATH"
        )
    return [str(binary)]


def index_language(documents: Path, output: Path, timeout: float | None = None) -> int:
    """Index the documents under `documents` into `output`; the number of pages indexed."""
    command = [*pagefind_command(), "--site", str(documents), "--output-path", str(output)]
    limit = timeout or TIMEOUT or 300 + 0.05 * sum(1 for _ in documents.rglob("*.html"))
    try:
        done = subprocess.run(
            [*command, "--silent"],
            capture_output=True,
            text=True,
            timeout=limit,
            check=False,
            stdin=subprocess.DEVNULL,
        )
    except subprocess.TimeoutExpired:
        raise SearchIndexError(f"Pagefind did not finish within {limit:.0f} s") from None
    except OSError as exc:
        raise SearchIndexError(f"Pagefind could not be started: {exc.strerror}") from None
    if done.returncode != 0:
        detail = (done.stderr or done.stdout).strip().splitlines()[-1:] or ["no output"]
        raise SearchIndexError(f"Pagefind failed (exit status {done.returncode}): {detail[0]}")
    for unused in UNUSED_BUNDLE_FILES:
        for path in output.glob(unused + ".*"):
            path.unlink()
    cases = fragment_cases(output)
    if not cases:
        raise SearchIndexError(f"Pagefind indexed no pages in {documents}")
    (output / FRAGMENT_MAP).write_text(
        json.dumps(cases, sort_keys=True, separators=(",", ":")), encoding="utf-8"
    )
    return len(cases)


def fragment_cases(output: Path) -> dict[str, str]:
    """Pagefind's result id (its fragment's name) -> the case it is, from each fragment's URL.

    The browser needs only which cases have a word, so with this map a search costs the word's
    index chunk and no fragment at all (reading a result's data is one request per result)."""
    cases = {}
    for path in sorted((output / "fragment").glob("*.pf_fragment")):
        data = gzip.decompress(path.read_bytes())
        start = data.index(b"{")  # after Pagefind's "pagefind_dcd" signature
        url = json.loads(data[start:])["url"]
        cases[path.name.removesuffix(".pf_fragment")] = url.rsplit("/", 1)[-1].removesuffix(".html")
    return cases


class SearchIndex:
    """Writes the search documents and indexes them on a thread, into a folder of its own;
    `publish_into(site_dir)` waits for it and moves each language's index into the site.

    It can start as soon as the core has built the site, before the shell has even cleaned its
    output folder, and runs beside everything the shell does."""

    def __init__(self, documents: Iterable[tuple[str, str]], workdir: Path) -> None:
        self.documents = documents  # (site-relative URL such as ko/cases/x.html, HTML), lazily
        self.workdir = workdir
        self.output = workdir / "index"
        self.seconds = 0.0  # how long Pagefind ran
        self.waited = 0.0  # how long the build waited for it at the end
        self.counts: dict[str, int] = {}
        self._outcome: BaseException | None = None
        self._thread: threading.Thread | None = None

    def start(self) -> None:
        self._thread = threading.Thread(target=self._run, name="pagefind", daemon=True)
        self._thread.start()

    def _run(self) -> None:
        started = time.perf_counter()
        try:
            shutil.rmtree(self.workdir, ignore_errors=True)
            for url, document in self.documents:
                path = self.workdir / url
                path.parent.mkdir(parents=True, exist_ok=True)
                path.write_text(document, encoding="utf-8")
            for lang in LANGS:
                folder = self.workdir / lang
                if folder.is_dir():
                    output = self.output / lang / "pagefind"
                    self.counts[lang] = index_language(folder, output)
            if not self.counts:
                raise SearchIndexError("there are no search documents to index")
        except BaseException as exc:  # reported by wait(), on the build's own thread
            self._outcome = exc
        finally:
            self.seconds = time.perf_counter() - started

    def publish_into(self, site_dir: Path) -> dict[str, int]:
        """Wait, then move each language's index to `site_dir/<lang>/pagefind/`."""
        counts = self.wait()
        for lang in counts:
            target = site_dir / lang / "pagefind"
            shutil.rmtree(target, ignore_errors=True)
            target.parent.mkdir(parents=True, exist_ok=True)
            shutil.move(str(self.output / lang / "pagefind"), str(target))
        return counts

    def wait(self) -> dict[str, int]:
        """Pages indexed per language, or raise what went wrong."""
        started = time.perf_counter()
        if self._thread is not None:
            self._thread.join()
        self.waited = time.perf_counter() - started
        if self._outcome is not None:
            if isinstance(self._outcome, OSError):
                raise SearchIndexError(f"writing the search documents failed: {self._outcome}")
            raise self._outcome
        return dict(self.counts)

    def discard(self) -> None:
        """Remove the documents (after waiting for a run still going)."""
        if self._thread is not None:
            self._thread.join()
        shutil.rmtree(self.workdir, ignore_errors=True)
