"""The MkDocs adapter: a thin plugin that runs the core and hands its pages to MkDocs.

It adds pages with `File.generated` (they exist only in memory), fills each page's content from the
core's renderer and keeps everything MkDocs-specific in this one module, so the project can move to
another site builder later.
"""

from __future__ import annotations

import logging
import os
import sys
import zlib
from datetime import date
from pathlib import Path
from types import MappingProxyType

import jinja2
import jinja2.bccache
from mkdocs.config import config_options as c
from mkdocs.config.base import Config
from mkdocs.exceptions import PluginError
from mkdocs.plugins import BasePlugin
from mkdocs.structure.files import File, Files, InclusionLevel
from mkdocs.structure.pages import Page as MkDocsPage
from mkdocs.structure.toc import get_toc

from . import urls
from .check_cache import CheckCache
from .csp import with_policy
from .exports import api_files, atom_feed
from .graph import graph_payload, layout_terms
from .library import Library, build_library
from .pages import Page, SiteOptions, build_pages
from .parallel import RenderAhead
from .preview import LISTING_TEMPLATES, library_digests, listing, touched_pages
from .project import ProjectPaths, check_project
from .publish import discard, publish, search_source_dir, source_date_epoch, staging_dir
from .render import render_page
from .search_data import as_script, cases_payload, terms_payload
from .search_index import SearchDocuments

log = logging.getLogger("mkdocs.plugins.incident_library")
LANGS = ("ko", "en")
DEFAULT_SITE_URL = "http://127.0.0.1:8000/"
PROGRESS_EVERY = 2000


def _progress_wanted() -> bool:
    """Progress lines on a terminal, or when asked (INCIDENTS_PROGRESS=1); CI logs stay short."""
    return os.environ.get("INCIDENTS_PROGRESS") == "1" or sys.stderr.isatty()


class PluginConfig(Config):
    incidents_dir = c.Type(str, default="incidents")
    taxonomy = c.Type(str, default="taxonomy.yml")


class GeneratedFile(File):
    """A generated page that knows whether the last edit touched it (for `serve --dirty`)."""

    touched = True

    def is_modified(self) -> bool:
        return self.touched


class _MemoryBytecodeCache(jinja2.BytecodeCache):
    """Compiled theme templates kept across the rebuilds of a preview: MkDocs makes a new Jinja
    environment for each build, which would compile Material's templates again every time.
    Jinja checks each template's source against the stored checksum, so an edited template is
    compiled afresh."""

    def __init__(self) -> None:
        self.store: dict[str, bytes] = {}

    def load_bytecode(self, bucket: jinja2.bccache.Bucket) -> None:
        data = self.store.get(bucket.key)
        if data is not None:
            bucket.bytecode_from_string(data)

    def dump_bytecode(self, bucket: jinja2.bccache.Bucket) -> None:
        self.store[bucket.key] = bucket.bytecode_to_string()


class GeneratedPage(MkDocsPage):
    """A generated page: its Markdown source is empty and its content comes from the core, so
    MkDocs' Markdown conversion (a new converter with every extension, per page) is skipped."""

    def render(self, config, files) -> None:
        self.content = ""
        self.toc = get_toc([])
        self.present_anchor_ids = set()
        self.links_to_anchors = {}


class IncidentLibraryPlugin(BasePlugin[PluginConfig]):
    def __init__(self) -> None:
        self.command: str | None = None
        self.dirty = False
        self.digests: dict[str, str] | None = None
        self.previous: Library | None = None
        self.rendered = 0
        self.cache: CheckCache | None = None  # kept across rebuilds under `mkdocs serve`
        self.listed: dict[str, tuple[str, ...]] = {}
        self.related: dict = {}
        self.publish_to: Path | None = None
        self.staged: Path | None = None
        self.library: Library | None = None
        self.pages: dict[str, Page] = {}
        self.src_uris: set[str] = set()
        self.paths: ProjectPaths | None = None
        self.search: SearchDocuments | None = None
        self.ahead: RenderAhead | None = None
        self.fragments: dict[str, str] = {}
        self.stash: dict[str, bytes] = {}  # page content, compressed, until the page is written
        self.bytecode_cache = _MemoryBytecodeCache()

    def on_startup(self, *, command, dirty) -> None:
        self.command = command
        self.dirty = dirty

    def on_config(self, config):
        root = Path(config.config_file_path or ".").parent
        self.paths = ProjectPaths.at(root, self.config.taxonomy, self.config.incidents_dir)
        if self.cache is None:
            self.cache = CheckCache()
        checked = check_project(self.paths, date.today(), cache=self.cache)
        errors = [d for d in checked.diagnostics if d.severity == "error"]
        for warning in (d for d in checked.diagnostics if d.severity == "warning"):
            log.warning(warning.format())
        if errors or checked.taxonomy is None:
            lines = "\n".join(d.format() for d in errors)
            raise PluginError(f"the incident library has {len(errors)} error(s):\n{lines}")
        self.library = build_library(checked.taxonomy, checked.result.incidents)
        log.info("incident library: %d incidents", len(self.library.incidents))
        # MkDocs stamps gzip headers with the clock unless SOURCE_DATE_EPOCH is set; the
        # newest publication date in the library makes the same input give the same bytes.
        os.environ.setdefault("SOURCE_DATE_EPOCH", str(source_date_epoch(self.library)))
        if self.command in ("build", "gh-deploy"):
            # Build into a staging folder beside site/ and swap it in only when the build
            # succeeded, so a failed or interrupted build never damages the published site.
            self.publish_to = Path(config.site_dir)
            config.site_dir = str(staging_dir(self.publish_to))
        # Not while previewing: re-indexing every case on each edit would cost seconds, and the
        # library page searches the same cases from cases.js when Pagefind is absent.
        self.search = None
        if self.command != "serve":
            site = self.publish_to or Path(config.site_dir)
            self.search = SearchDocuments(search_source_dir(site))
        return config

    def on_files(self, files: Files, config) -> Files:
        assert self.library is not None
        extra = config.extra.get("check_cluster") or {}
        options = SiteOptions(
            check_cluster_url=str(extra.get("url", "")),
            check_cluster_text=MappingProxyType(
                {k: str(v) for k, v in extra.items() if k != "url"}
            ),
            site_url=config.site_url or DEFAULT_SITE_URL,
        )
        self.pages = {}
        self.stash = {}
        preview = self.command == "serve" and self.dirty
        if preview and self.previous is not None and self.digests is not None:
            # Keep related cases of untouched incidents; "related" may lag until a full build.
            now = library_digests(self.library)
            self.related = {
                key: value
                for key, value in self.related.items()
                if now.get(key) == self.digests.get(key) and now.get("") == self.digests.get("")
            }
        else:
            self.related = {}
        pages = build_pages(self.library, options, self.related)
        touched = None
        if preview:
            touched = touched_pages(self.digests, self.library, self.previous, pages, self.listed)
            log.info("preview: rebuilding %d of %d generated pages", len(touched), len(pages))
        self.digests, self.previous = library_digests(self.library), self.library
        self.listed = {p.src_uri: listing(p) for p in pages if p.template in LISTING_TEMPLATES}
        if self.command != "serve":
            cases = [p for p in pages if p.template == "case.html"]
            self.ahead = RenderAhead.start(cases, self._render_case)
            if self.ahead is not None:
                log.info(
                    "a worker process renders %d of %d case pages",
                    len(self.ahead.assigned),
                    len(cases),
                )
        if self.search is not None:
            counts = {
                lang: sum(1 for p in pages if p.template == "case.html" and p.lang == lang)
                for lang in LANGS
            }
            self.search.expect(Path(config.site_dir), counts)
        for page in pages:
            self.pages[page.src_uri] = page
            # Case and term pages are reached through lists, never the navigation: Material
            # renders the navigation into every page, so listing them would grow the site
            # with the square of its size.
            inclusion = InclusionLevel.INCLUDED if page.in_nav else InclusionLevel.NOT_IN_NAV
            file = GeneratedFile.generated(config, page.src_uri, content="", inclusion=inclusion)
            file.touched = touched is None or page.src_uri in touched
            files.append(file)
        positions = layout_terms(self.library)
        for lang in LANGS:
            for name, payload in (
                ("terms", terms_payload(self.library, lang)),
                ("cases", cases_payload(self.library, lang)),
                ("graph", graph_payload(self.library, lang, positions)),
            ):
                content = as_script(name, payload)
                files.append(File.generated(config, f"{lang}/search/{name}.js", content=content))
        if self.command != "serve":
            # Data for other tools; a preview has no use for them and skips their cost.
            site_url = config.site_url or DEFAULT_SITE_URL
            outputs = dict(api_files(self.library))
            for lang in LANGS:
                outputs[f"{lang}/feed.xml"] = atom_feed(self.library, lang, site_url)
            for path, content in sorted(outputs.items()):
                files.append(File.generated(config, path, content=content))
        self.src_uris = {f.src_uri for f in files if f.is_documentation_page()}
        return files

    def on_page_markdown(self, markdown, page, config, files):
        generated = self.pages.get(page.file.src_uri)
        if generated is not None:
            page.meta["title"] = generated.title
            if generated.description:
                page.meta["description"] = generated.description
            page.meta.setdefault("hide", ["toc"])
        url = urls.source_path(page.file.dest_uri)  # ko/x.md for ko/x.html
        lang = url.split("/", 1)[0] if url.split("/", 1)[0] in LANGS else "ko"
        page.meta.setdefault("lang", lang)
        page.meta["alternates"] = self._alternates(page.file.dest_uri)
        if generated is not None and not generated.in_nav:
            folder = page.file.dest_uri.rsplit("/", 1)[0]
            page.meta["nav_key"] = f"{page.meta['lang']}:{folder}"
        return markdown

    def on_page_content(self, html, page, config, files):
        generated = self.pages.get(page.file.src_uri)
        if generated is None:
            return html
        self.rendered += 1
        if self.rendered % PROGRESS_EVERY == 0 and _progress_wanted():
            log.info("rendered %d of %d generated pages", self.rendered, len(self.pages))
        content = self.ahead.take(generated.url) if self.ahead is not None else None
        if content is not None:  # rendered, and its search document written, by the worker
            if self.search is not None:
                self.search.note(generated.lang)
        elif generated.template == "case.html":
            content = self._render_case(generated)
            if self.search is not None:
                self.search.note(generated.lang)
        else:
            content = render_page(generated)
        if self.command == "serve":
            return content
        # MkDocs keeps every page's content from now until it writes the page; at 10,000
        # incidents that is over a gigabyte. Keep it compressed until the page is written.
        self.stash[page.file.src_uri] = zlib.compress(content.encode("utf-8"), 1)
        return ""

    def on_page_context(self, context, page, config, nav):
        stashed = self.stash.pop(page.file.src_uri, None)
        if stashed is not None:
            page.content = zlib.decompress(stashed).decode("utf-8")
        return context

    def on_nav(self, nav, config, files):
        for file in files.documentation_pages():
            if file.page is None and file.src_uri in self.pages:
                GeneratedPage(None, file, config)  # sets file.page; MkDocs keeps it
        return nav

    def on_env(self, env, config, files):
        """Every page's content exists now: index the cases while MkDocs writes the site."""
        if self.ahead is not None:
            self.ahead.close()
            self.ahead = None
        self.fragments = {}
        env.globals["il_cached"] = self._cached
        if self.command == "serve":
            env.bytecode_cache = self.bytecode_cache
        if self.search is not None:
            self.search.start()
        return env

    def on_post_build(self, config) -> None:
        """Wait for the search index, the last step of every build (not of a preview)."""
        log.info("rendered %d generated pages", self.rendered)
        self.rendered = 0
        if self.search is not None:
            try:
                self.search.wait()
                log.info(
                    "search index: Pagefind ran beside MkDocs for %.1f s; the build waited %.1f s",
                    self.search.seconds,
                    self.search.waited,
                )
            finally:
                self.search.discard()
        self.staged = Path(config.site_dir) if self.publish_to is not None else None

    def on_build_error(self, *, error) -> None:
        # Also reached when --strict turns warnings into a failure after on_post_build.
        self.staged = None
        if self.ahead is not None:
            self.ahead.close()
            self.ahead = None
        if self.search is not None:
            self.search.discard()
        if self.publish_to is not None:
            discard(self.publish_to.parent / f".{self.publish_to.name}.building-{os.getpid()}")

    def on_shutdown(self) -> None:
        """Publish the staged site: only now is the build known to have succeeded."""
        if self.publish_to is not None and self.staged is not None:
            publish(self.staged, self.publish_to)
            log.info("published %s", self.publish_to)
        self.staged = None

    def on_post_page(self, output, page, config):
        if page.file.src_uri in self.pages:
            page.content = None  # written; the site needs it no more
        return with_policy(output)

    def on_post_template(self, output_content, template_name, config):
        return with_policy(output_content) if template_name.endswith(".html") else output_content

    def on_serve(self, server, config, builder):
        assert self.paths is not None
        for path in (self.paths.incidents, self.paths.taxonomy):
            if path.exists():
                server.watch(str(path))
        return server

    def _render_case(self, page: Page) -> str:
        """A case page's content, and its search document (also run by the render worker)."""
        content = render_page(page)
        if self.search is not None:
            self.search.write(page.url, page.lang, content)  # page.url: ko/cases/x.html
        return content

    def _cached(self, key: str | None, caller) -> str:
        """`{% call il_cached(key) %}…{% endcall %}` in a theme template: the block is rendered
        once per key and reused. Pages outside the navigation share their navigation HTML with
        every page of their language in the same folder."""
        if not key:
            return caller()
        html = self.fragments.get(key)
        if html is None:
            html = self.fragments[key] = caller()
        return html

    def _alternates(self, dest_uri: str) -> list[dict[str, str]]:
        """The same page in each language, as links relative to this page; only pages that exist."""
        if dest_uri.split("/", 1)[0] not in LANGS:
            return []
        out = []
        for lang in LANGS:
            target = urls.counterpart(dest_uri, lang)
            if urls.source_path(target) in self.src_uris:
                out.append({"lang": lang, "href": urls.relative(dest_uri, target), "url": target})
        return out
