"""The build: the stages in order, from the project on disk to every output of the site.

    check (load + validate) -> library -> pages -> render -> outputs

`build` is the one function that runs them; it returns the whole site in memory (`Site`) and
touches no shell. An adapter (the MkDocs plugin, a test, the agent server) decides what to do
with it: hand the pages to a theme, write the files, index them. Parallel work goes through the
executor the caller passes in.
"""

from __future__ import annotations

import zlib
from collections.abc import Mapping
from dataclasses import dataclass, field
from datetime import date
from types import MappingProxyType

from ..audit.catalogue import load_checks
from ..languages import AUTONYMS, LANGS
from ..load.project import ProjectPaths
from ..model.library import Library, build_library
from ..outputs.assets import SCRIPTS, STYLESHEETS, asset_files
from ..outputs.exports import api_files, atom_feed
from ..outputs.graph import Layout, graph_payload, layout_terms
from ..outputs.markdown import markdown_files
from ..outputs.search_data import LastSearch, as_keyed_script, as_script, card_path, search_files
from ..pages.build import SiteOptions, build_pages
from ..pages.kinds import CasePage, Page
from ..render.renderer import Renderer, Sections, page_sections
from ..search.corpus import Analysed, SearchCorpus, build_corpus, index_cases
from ..validate.diagnostics import Diagnostic
from .changes import Changes, Rendered
from .check import check_project
from .check_cache import CheckCache
from .executor import Executor, Pending, bulk_collection, serial


class BuildError(Exception):
    """The library has errors; `diagnostics` says what and where."""

    def __init__(self, diagnostics: tuple[Diagnostic, ...]) -> None:
        self.diagnostics = diagnostics
        errors = [d for d in diagnostics if d.severity == "error"]
        lines = "\n".join(d.format() for d in errors)
        super().__init__(f"the incident library has {len(errors)} error(s):\n{lines}")


@dataclass(frozen=True)
class NavSection:
    """One language's part of the site navigation: its title and its pages' URLs."""

    lang: str
    title: str
    urls: tuple[str, ...]


@dataclass(frozen=True)
class Site:
    """Everything the build made. Page contents are kept compressed until a shell asks."""

    library: Library
    pages: tuple[Page, ...]
    contents: Mapping[str, bytes]  # page URL -> zlib-compressed HTML of its content area
    # page URL -> the sections the page lists (pages that list theirs): a shell's contents
    sections: Mapping[str, Sections]
    files: Mapping[str, bytes]  # site-relative path -> bytes: data, exports, feeds, assets
    nav: tuple[NavSection, ...]
    warnings: tuple[Diagnostic, ...]
    layout: Layout
    corpora: Mapping[str, SearchCorpus] = field(default_factory=dict)  # lang -> search corpus
    # case id -> its analysis for the search, kept by a preview for its next rebuild
    analysed: Mapping[str, Analysed] = field(default_factory=dict)
    stylesheets: tuple[str, ...] = STYLESHEETS
    scripts: tuple[str, ...] = SCRIPTS
    _by_url: Mapping[str, Page] = field(default_factory=dict, repr=False, compare=False)

    def page(self, url: str) -> Page | None:
        return self._by_url.get(url)

    def content(self, url: str) -> str:
        """The rendered content area of the page at `url`."""
        return zlib.decompress(self.contents[url]).decode("utf-8")

    def files_changed_since(self, previous: Site | None) -> frozenset[str]:
        """Paths of the other files (search data, exports) that differ from `previous`'s (every
        one when there is none): what a preview writes again."""
        if previous is None:
            return frozenset(self.files)
        return frozenset(p for p, data in self.files.items() if previous.files.get(p) != data)

    def changed_since(self, previous: Site | None) -> frozenset[str]:
        """URLs of pages whose content differs from `previous` (every page when there is none)."""
        if previous is None:
            return frozenset(self.contents)
        return frozenset(
            url for url, data in self.contents.items() if previous.contents.get(url) != data
        )


def build(
    paths: ProjectPaths,
    options: SiteOptions | None = None,
    executor: Executor = serial,
    cache: CheckCache | None = None,
    previous: Site | None = None,
    today: date | None = None,
    preview: bool = False,
) -> Site:
    """Check the project and build its site; raises BuildError when the library has errors.

    `previous`: the last site, of which the build keeps what the edits since have not changed
    (pipeline/changes.py). `preview`: a preview's build, which keeps each case's analysis for
    the next rebuild and leaves out the exports (`api/`, the Markdown pages, `llms.txt`): made
    again after every edit they would add about a second at a thousand cases, and a preview's
    pages link only the files its site has (`Site.files`). The feeds stay (milliseconds)."""
    with bulk_collection():
        return _build(paths, options or SiteOptions(), executor, cache, previous, today, preview)


def _build(
    paths: ProjectPaths,
    options: SiteOptions,
    executor: Executor,
    cache: CheckCache | None,
    previous: Site | None,
    today: date | None,
    preview: bool,
) -> Site:
    checked = check_project(paths, today or date.today(), cache=cache, executor=executor)
    errors = tuple(d for d in checked.diagnostics if d.severity == "error")
    if errors or checked.taxonomy is None:
        raise BuildError(errors)
    incidents = checked.result.incidents
    changes = Changes.since(previous, checked.taxonomy, incidents)
    library = build_library(
        checked.taxonomy, incidents, executor, changes.ranked(), changes.counted()
    )
    # The checks of `incidents audit` (checks/): their pages, and the "check your cluster" block.
    catalogue = load_checks(
        paths.root, checked.taxonomy, frozenset(i.id for i in library.incidents)
    )
    if catalogue.diagnostics:
        raise BuildError(catalogue.diagnostics)
    pages = build_pages(library, options, catalogue.checks)
    _check_unique_urls(pages)
    # The workers render while this process makes the graph's layout, the search corpus and
    # the other files, which need no page (in a large library it would otherwise wait for them).
    rendering = _start_render(library, options, pages, executor, changes)
    try:
        layout = changes.layout() or layout_terms(library)
        index, analysed = index_cases(library, changes.analysed(), keep=preview)
        corpora = {
            lang: build_corpus(library, lang, index, changes.sentences(lang)) for lang in LANGS
        }
        files = _files(library, options, layout, corpora, changes.search(library), preview)
    except BaseException:
        rendering.cancel()
        raise
    contents, sections, cards = _rendered(pages, rendering)
    files = dict(sorted({**files, **cards}.items()))
    nav = tuple(
        NavSection(lang, AUTONYMS[lang], tuple(p.url for p in pages if p.in_nav and p.lang == lang))
        for lang in LANGS
    )
    warnings = tuple(d for d in checked.diagnostics if d.severity == "warning")
    return Site(
        library=library,
        pages=pages,
        contents=MappingProxyType(contents),
        sections=MappingProxyType(sections),
        files=MappingProxyType(files),
        nav=nav,
        warnings=warnings,
        layout=layout,
        corpora=MappingProxyType(corpora),
        analysed=analysed,
        _by_url=MappingProxyType({p.url: p for p in pages}),
    )


def _check_unique_urls(pages: tuple[Page, ...]) -> None:
    """Two pages at one URL would overwrite each other; ids are checked to prevent it, and this
    makes sure no other combination does."""
    seen: dict[str, Page] = {}
    for page in pages:
        other = seen.setdefault(page.url, page)
        if other is not page:
            raise BuildError(
                (
                    Diagnostic(
                        "taxonomy.yml",
                        1,
                        1,
                        "",
                        f"two pages would be written to {page.url} ({other.kind}, {page.kind}); "
                        "rename one of the ids involved",
                    ),
                )
            )


@dataclass(frozen=True)
class _Rendering:
    """Pages being rendered: those equal to the last site's keep what it had."""

    pending: Pending
    todo: tuple[str, ...]  # the URLs of the pages being rendered, in the jobs' order
    reused: Mapping[str, Rendered]

    def result(self) -> dict[str, Rendered]:
        return {**self.reused, **dict(zip(self.todo, self.pending.result(), strict=True))}

    def cancel(self) -> None:
        self.pending.cancel()


def _start_render(
    library: Library,
    options: SiteOptions,
    pages: tuple[Page, ...],
    executor: Executor,
    changes: Changes,
) -> _Rendering:
    """Start rendering every page's content, compressed (a large library's HTML would take
    gigabytes), the sections of the pages that list theirs, and each case's card for the
    live results (`<lang>/search/cards/<id>.js`: its labelled sections, shown when only a few
    cases remain), made in the same job as its case page, whose Markdown it shares. Pages equal
    to the last site's (and so their cards) are not rendered again."""
    reused: dict[str, Rendered] = {}
    todo: list[Page] = []
    for page in pages:
        kept = changes.rendered(page)
        if kept is not None:
            reused[page.url] = kept
        else:
            todo.append(page)
    renderer = Renderer(library, options)

    def render(n: int) -> Rendered:
        page = todo[n]
        html = renderer.render(page)
        card = None
        if isinstance(page, CasePage):
            sections = renderer.card_sections(page.incident, page.lang)
            card = as_keyed_script("cards", page.incident.id, sections).encode("utf-8")
        return zlib.compress(html.encode("utf-8"), 1), page_sections(html), card

    pending = executor.start(render, len(todo))
    return _Rendering(pending, tuple(p.url for p in todo), reused)


def _rendered(
    pages: tuple[Page, ...], rendering: _Rendering
) -> tuple[dict[str, bytes], dict[str, Sections], dict[str, bytes]]:
    """The pages' contents, the sections of those that list them, and the cases' cards, once
    rendered."""
    rendered = rendering.result()
    contents: dict[str, bytes] = {}
    sections: dict[str, Sections] = {}
    cards: dict[str, bytes] = {}
    for page in pages:
        content, listed, card = rendered[page.url]
        contents[page.url] = content
        if listed is not None:
            sections[page.url] = listed
        if card is not None:
            cards[card_path(page.lang, page.incident.id)] = card
    return contents, sections, cards


def _files(
    library: Library,
    options: SiteOptions,
    layout: Layout,
    corpora: dict[str, SearchCorpus],
    last: LastSearch | None,
    preview: bool,
) -> dict:
    files: dict[str, bytes] = dict(asset_files(library.taxonomy))
    for path, script in search_files(library, corpora, last):
        files[path] = script if isinstance(script, bytes) else script.encode("utf-8")
    for lang in LANGS:
        graph = as_script("graph", graph_payload(library, lang, layout))
        files[f"{lang}/search/graph.js"] = graph.encode("utf-8")
    for lang in LANGS:
        files[f"{lang}/feed.xml"] = atom_feed(library, lang, options.site_url).encode("utf-8")
    if not preview:
        files.update(api_files(library, options.site_url))
        for path, text in markdown_files(library, options.site_url).items():
            files[path] = text.encode("utf-8")
    return files
