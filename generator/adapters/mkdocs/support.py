"""What the MkDocs plugin translates with: the core's site in MkDocs' terms (files, pages,
navigation, settings). Everything here knows MkDocs; nothing here knows incidents."""

from __future__ import annotations

import html
import logging
import os
import re
from pathlib import Path
from types import MappingProxyType

import jinja2
import jinja2.bccache
from mkdocs.commands.build import get_context
from mkdocs.structure.files import File, Files, InclusionLevel
from mkdocs.structure.pages import Page as MkDocsPage
from mkdocs.structure.toc import get_toc
from watchdog import events
from watchdog.observers import Observer
from watchdog.observers.polling import PollingObserver

from ...languages import AUTONYMS, DEFAULT, LANGS, of_url
from ...load.inputs import input_problems
from ...load.project import ProjectPaths
from ...pages import urls
from ...pages.build import SiteOptions
from ...pages.kinds import Page
from ...pipeline.site import Site
from ...render import strings
from ...render.renderer import Sections
from ...validate.diagnostics import Diagnostic

log = logging.getLogger("mkdocs.plugins.incident_library")


class GeneratedPage(MkDocsPage):
    """A generated page: no Markdown to convert (MkDocs would make a converter per page); its
    content is the core's, set just before its template is rendered."""

    def render(self, config, files) -> None:
        self.content = ""
        self.toc = get_toc([])
        self.present_anchor_ids = set()
        self.links_to_anchors = {}


class MemoryBytecodeCache(jinja2.BytecodeCache):
    """Compiled theme templates kept across the rebuilds of a preview (MkDocs makes a new Jinja
    environment per build). Jinja checks each template's source against the stored checksum."""

    def __init__(self) -> None:
        self.store: dict[str, bytes] = {}

    def load_bytecode(self, bucket: jinja2.bccache.Bucket) -> None:
        data = self.store.get(bucket.key)
        if data is not None:
            bucket.bytecode_from_string(data)

    def dump_bytecode(self, bucket: jinja2.bccache.Bucket) -> None:
        self.store[bucket.key] = bucket.bytecode_to_string()


def sources(config, paths: ProjectPaths) -> list[Path]:
    """What the project is made from, which a site folder must never replace."""
    root = paths.root
    theme = Path(config.theme.custom_dir) if config.theme.custom_dir else root / "overrides"
    return [paths.incidents, paths.taxonomy, Path(config.docs_dir), theme, root / "generator"]


def inputs(config, root: Path) -> list[Path]:
    """What MkDocs reads for the site besides the library: mkdocs.yml, the hand-written pages, the
    theme's overrides and any other theme folder inside the project (an installed theme's own
    files are not the project's to check)."""
    found = [Path(config.config_file_path)] if config.config_file_path else []
    found.append(Path(config.docs_dir))
    if config.theme.custom_dir:
        found.append(Path(config.theme.custom_dir))
    project = root.resolve()
    for folder in config.theme.dirs:
        real = Path(folder).resolve()
        if real == project or project in real.parents:
            found.append(Path(folder))
    return list(dict.fromkeys(found))


def refuse_outside_inputs(config, root: Path) -> None:
    """Stop before anything is built or written if MkDocs would read a file from outside the
    project (load/inputs.py says why)."""
    problems = input_problems(root, inputs(config, root))
    if problems:
        raise SettingsError("\n".join(p.format() for p in problems))


class SettingsError(ValueError):
    """A setting in mkdocs.yml (or SITE_URL) that the site must not use."""


def _web_address(value: str, name: str) -> str:
    if value and not re.match(r"^https?://[^\s\"'<>]+$", value):
        raise SettingsError(
            f"{name}: '{value[:80]}' is not an http(s) address; write one like "
            "https://example.org/incidents/"
        )
    return value


def resolve_site_url(config, preview: bool) -> None:
    """A published site needs its own address for what only takes absolute ones (the sitemap,
    canonical links, the feeds' ids, citation permalinks). Without one, nothing pretends to know
    it: links stay relative, those outputs are left out or say what they are, and the build says
    so (MkDocs' --strict turns the warning into a failure). A preview has the address MkDocs
    serves it at."""
    if not config.site_url and not preview:
        log.warning(
            "site_url is not set (mkdocs.yml, or the SITE_URL environment variable): building "
            "for no known address, so the sitemap and canonical links are left out, citations "
            "give each page's path instead of a permalink and the feeds' entries get ids that "
            "change once it is set; set SITE_URL to the address the site is published at"
        )


def site_options(config) -> SiteOptions:
    """The settings pages show, from mkdocs.yml (`site_url`, `extra.check_cluster`), checked:
    addresses are http(s), names are plain text."""
    for name in ("site_name", "site_description"):
        if re.search(r"[<>]", str(config.get(name) or "")):
            raise SettingsError(f"{name} in mkdocs.yml must be plain text, without < or >")
    extra = config.extra.get("check_cluster") or {}
    _web_address(str(config.site_url or ""), "site_url (or SITE_URL)")
    url, name = str(extra.get("url") or ""), str(extra.get("name") or "").strip()
    _web_address(url, "extra.check_cluster.url")
    _web_address(str(config.extra.get("repository") or ""), "extra.repository (or REPOSITORY_URL)")
    if url and not name:
        raise SettingsError(
            "extra.check_cluster in mkdocs.yml has a url but no name: the block names the "
            "checker it links (name: the checker's name)"
        )
    unknown = sorted(set(extra) - {"name", "url", *LANGS})
    if unknown:
        raise SettingsError(
            f"extra.check_cluster in mkdocs.yml: unknown key {', '.join(unknown)} "
            f"(it takes name, url and a line per language: {', '.join(LANGS)})"
        )
    return SiteOptions(
        site_url=str(config.site_url or ""),
        check_cluster_name=name,
        check_cluster_url=url,
        check_cluster_text=MappingProxyType({k: str(extra[k]) for k in LANGS if extra.get(k)}),
    )


def log_warnings(warnings: tuple[Diagnostic, ...]) -> None:
    for warning in warnings:
        log.warning(warning.format())


def log_build(site: Site, executor, changed: frozenset[str] | None) -> None:
    """What was built; `changed`: the pages a preview's rebuild changed."""
    if changed is not None:
        log.info("preview: rebuilding %d of %d generated pages", len(changed), len(site.pages))
    where = f"{executor.forked} jobs on forked workers" if executor.forked else "one process"
    log.info(
        "incident library: %d incidents, %d pages (%s)",
        len(site.library.incidents),
        len(site.pages),
        where,
    )


def configure(config, site: Site) -> None:
    """Navigation (the core's pages per language, then that language's hand-written pages) and
    the stylesheets and scripts the pages load."""
    docs = Path(config.docs_dir)
    config.nav = [
        {
            section.title: [
                *(urls.source_path(u) for u in section.urls),
                *sorted(p.relative_to(docs).as_posix() for p in (docs / section.lang).glob("*.md")),
            ]
        }
        for section in site.nav
    ]
    config.extra_css = [
        *site.stylesheets,
        *(c for c in config.extra_css if c not in site.stylesheets),
    ]
    config.extra_javascript = [*site.scripts, *config.extra_javascript]
    os.environ.setdefault("SOURCE_DATE_EPOCH", str(_epoch(site)))


def _epoch(site: Site) -> int:
    from ..publish import source_date_epoch

    # MkDocs stamps gzip headers with the clock unless SOURCE_DATE_EPOCH is set.
    return source_date_epoch(site.library)


def framed(page: Page) -> bool:
    """Whether a page is written in a drawn frame: MkDocs renders the pages of the navigation
    (their frame marks them current, and links the pages before and after) and the standalone
    root."""
    return not page.in_nav and not page.standalone


def add_files(files: Files, config, site: Site) -> Files:
    """The core's pages that MkDocs renders itself (those of the navigation, outside which
    Material draws the frame once per kind: frames.py, and the standalone root). Its other
    pages and files are written by frames.write."""
    in_nav = {u for section in site.nav for u in section.urls}
    for page in site.pages:
        if not framed(page):
            level = InclusionLevel.INCLUDED if page.url in in_nav else InclusionLevel.NOT_IN_NAV
            files.append(File.generated(config, page.source_path, content="", inclusion=level))
    return files


def generated_pages(files: Files, config, site: Site, dirty: bool = False) -> None:
    """The core's pages as MkDocs pages. In a dirty build (`serve --dirty`) MkDocs reads only
    the hand-written pages that changed, and every page drawn would name the others "None" in
    its navigation: their front matter is read here (they are few)."""
    for file in files.documentation_pages():
        if site.page(file.dest_uri) is None:
            if dirty and file.page is not None and file.page.markdown is None:
                file.page.read_source(config)
        elif file.page is None:
            GeneratedPage(None, file, config)  # sets file.page; MkDocs keeps it


def sitemap(files: Files, site: Site, known: set[str]) -> list[dict]:
    """Every page of the site with its language alternates, for overrides/sitemap.xml: the
    hand-written ones, then the core's."""
    written = [
        {"url": f.page.url, "alternates": f.page.meta.get("alternates") or []}
        for f in files.documentation_pages()
        if f.page is not None and not f.page.is_link and site.page(f.dest_uri) is None
    ]
    return written + [{"url": p.url, "alternates": alternates(p.url, known)} for p in site.pages]


def page_meta(page, site: Site, known: set[str]) -> None:
    """Title, description, language and language alternates of a page, for the theme."""
    generated = site.page(page.file.dest_uri)
    if generated is not None:
        page.meta["title"] = generated.title
        if generated.description:
            page.meta["description"] = generated.description
        page.meta.setdefault("hide", ["toc"])
        if not generated.in_nav:
            # Pages outside the navigation share its HTML per language and folder.
            folder = page.file.dest_uri.rsplit("/", 1)[0]
            page.meta["nav_key"] = f"{generated.lang}:{folder}"
    page.meta.setdefault("lang", of_url(page.file.dest_uri) or DEFAULT)
    page.meta["alternates"] = alternates(page.file.dest_uri, known)


def set_content(page, content: str, sections: Sections | None) -> None:
    """A generated page's content, and the sections it lists (the core's `Site.sections`) as
    MkDocs' table of contents: Material then shows them in its right sidebar (scroll-spy
    included) and its skip link goes to the title. The section headings are already HTML
    there, as MkDocs' TOC titles are."""
    page.content = content
    if sections is None:
        return
    page.toc = material_toc(html.escape(str(page.meta.get("title", ""))), sections)
    page.meta["hide"] = [h for h in page.meta.get("hide", ()) if h != "toc"]


def material_toc(title: str, sections: Sections):
    """One level-1 entry (the title, as HTML) holding the sections: Material lists its children
    and points "skip to content" at it, not past the case's facts and summary."""
    anchor, entries = sections
    children = [{"level": 2, "id": entry, "name": name, "children": []} for entry, name in entries]
    return get_toc([{"level": 1, "id": anchor, "name": title, "children": children}])


def alternates(dest_uri: str, known: set[str]) -> list[dict[str, str]]:
    """The same page in each language, as links relative to this page; only pages that exist."""
    if of_url(dest_uri) is None:
        return []
    out = []
    for lang in LANGS:
        target = urls.counterpart(dest_uri, lang)
        if target in known:
            out.append({"lang": lang, "href": urls.relative(dest_uri, target), "url": target})
    return out


def error_page_context(context, config):
    """The context of an error page (404.html). MkDocs writes its links from the root of the
    site's address, so that a server showing it for a missing page at any depth finds the
    theme's files; without an address it takes the server's root, and the page opened from disk
    (file://) finds none. With no address known, the page's links are relative to itself, as
    every other page's are: from disk, or at the root of a server."""
    if config.site_url:
        return context
    relative = get_context(context["nav"], context["pages"], config, base_url=".")
    for key in ("base_url", "extra_css", "extra_javascript"):
        context[key] = relative[key]
    return context


def theme_globals(marker: str, site: Site) -> dict:
    """What the templates in overrides/ use besides MkDocs' own: the cache of shared fragments,
    the marker every page carries, whether the site has a file (`il_has(path)`: the frame
    links the feeds and the data only where the build wrote them, which a preview's does not
    all), the library's strings (`il_t(key, lang)`) for the frame's labels, and each language
    with its own name."""
    files = site.files
    return {
        "il_cached": cached_fragments(),
        "il_marker": marker,
        "il_has": lambda path: path in files,
        "il_t": strings.t,
        "il_languages": AUTONYMS,
    }


def cached_fragments():
    """`{% call il_cached(key) %}…{% endcall %}` for theme templates: a block rendered once per
    key and reused (the navigation of pages outside it, per language and folder)."""
    fragments: dict[str, str] = {}

    def cached(key: str | None, caller) -> str:
        if not key:
            return caller()
        html = fragments.get(key)
        if html is None:
            html = fragments[key] = caller()
        return html

    return cached


def input_stamp(config) -> tuple:
    """Size, modification time and inode of every file MkDocs reads besides the library:
    mkdocs.yml, the hand-written pages, the theme's overrides and any folder it is told to
    watch. Equal stamps: a preview's rebuild may leave MkDocs' own pages as they are."""
    roots = [config.config_file_path, config.docs_dir, config.theme.custom_dir, *config.watch]
    stamp = []
    for root in filter(None, roots):
        for folder, _, names in os.walk(root) if os.path.isdir(root) else [("", [], [root])]:
            for name in sorted(names):
                path = os.path.join(folder, name)
                try:
                    info = os.stat(path)
                except OSError:
                    continue
                stamp.append((path, info.st_size, info.st_mtime_ns, info.st_ino))
    return tuple(sorted(stamp))


# What saving, creating, deleting or renaming a file is reported as: not opening or reading one
# (the build reads the library: those events would start rebuild after rebuild).
_CHANGES = [
    events.FileCreatedEvent,
    events.FileDeletedEvent,
    events.FileMovedEvent,
    events.FileModifiedEvent,
    events.FileClosedEvent,
    events.FileAttribEvent,
]


class _ChangeObserver(Observer):
    """The kernel's observer, told only of changes."""

    def schedule(self, handler, path, *, recursive=False, event_filter=None, **options):
        changes = event_filter or _CHANGES
        return super().schedule(handler, path, recursive=recursive, event_filter=changes, **options)


def notified_watching(server) -> None:
    """MkDocs' preview server polls what it watches every half second (stat'ing every file of
    the library each time); where the kernel reports changes (inotify on Linux), a saved file
    starts the rebuild at once. Polling stays where the kernel refuses (no inotify, or its
    limit of watches reached). The paths watched so far move to the new observer."""
    if Observer is PollingObserver or server.observer.is_alive():
        return
    watched = dict(server._watched_paths)  # MkDocs' own record: path -> how many watch it
    probe = _ChangeObserver()
    try:
        for path in watched:
            probe.schedule(events.FileSystemEventHandler(), path, recursive=True)
        probe.start()
    except OSError as exc:
        log.debug("preview: watching by polling (%s)", exc)
        return
    finally:
        if probe.is_alive():
            probe.stop()
            probe.join()
    for path, count in watched.items():
        for _ in range(count):
            server.unwatch(path)
    server.observer = _ChangeObserver()
    for path, count in watched.items():
        for _ in range(count):
            server.watch(path)


def standalone(document: str, marker: str) -> str:
    """A page the core wrote as a whole document, with the marker every built page carries."""
    return document.replace("</head>", f"  {marker}\n</head>", 1)
