"""The MkDocs adapter: asks the core for the site and hands it to MkDocs, hook by hook.

The core (`generator.pipeline.site.build`) checks the library and renders every page's content;
MkDocs and Material only draw the frame around each page and write it. Publishing (a staging
folder swapped in on success) is an adapter of its own. To move to
another shell, replace this package; see docs/ARCHITECTURE.md.
"""

from __future__ import annotations

from pathlib import Path

from mkdocs.config import config_options as c
from mkdocs.config.base import Config
from mkdocs.exceptions import PluginError
from mkdocs.plugins import BasePlugin

from ...load.project import ProjectPaths
from ...outputs.csp import with_policy
from ...pipeline.check_cache import CheckCache
from ...pipeline.executor import default_executor, serial
from ...pipeline.site import BuildError, Site, build
from ..publish import Publication, PublishError, check_site_dir
from . import frames, library, support

PUBLISHING = frozenset({"build", "gh-deploy"})  # commands whose output is published
# The marker every built page carries: a build that finishes without it ran without this
# plugin (a shell that ignores unknown plugins, such as Zensical) and is refused by the tests.
MARKER = '<meta name="generator" content="incident-library">'


class PluginConfig(Config):
    incidents_dir = c.Type(str, default="incidents")
    taxonomy = c.Type(str, default="taxonomy.yml")


class IncidentLibraryPlugin(BasePlugin[PluginConfig]):
    def __init__(self) -> None:
        self.command: str | None = None  # None when MkDocs' build() is called directly
        self.site: Site | None = None  # the last site built (a preview reuses what is unchanged)
        self.changed: frozenset[str] | None = None  # the pages and other files the last
        self.changed_files: frozenset[str] | None = None  # rebuild changed (None: all of them)
        self.frames: dict = {}  # the frames the last build drew (frames.py)
        self.dirty = False
        self.executor = serial
        self.mkdocs: tuple = ()  # this build's navigation and theme environment
        self.cache = CheckCache()  # kept across the rebuilds of `mkdocs serve`
        self.bytecode = support.MemoryBytecodeCache()
        self.publication: Publication | None = None
        self.known: set[str] = set()
        self.publishing = False
        self.build_error: str | None = None  # what stopped the last build, for the preview
        self.preview = library.Preview()  # a preview's rebuilds without MkDocs (library.py)

    def on_startup(self, *, command, dirty) -> None:
        self.command, self.dirty = command, dirty

    def on_config(self, config):
        self.build_error = None
        self.preview.begin(config)
        root = Path(config.config_file_path or ".").parent
        paths = ProjectPaths.at(root, self.config.taxonomy, self.config.incidents_dir)
        publishing, preview = self.command in PUBLISHING, self.command == "serve"
        previous = self.site if preview else None
        executor = self.executor = serial if preview else default_executor()
        try:
            support.refuse_outside_inputs(config, root)
            support.resolve_site_url(config, preview)
            options = support.site_options(config)
            self.preview.inputs = (paths, options)
            site = build(paths, options, executor, self.cache, previous, outputs=not preview)
            if publishing:
                check_site_dir(Path(config.site_dir), root, support.sources(config, paths))
        except (BuildError, PublishError, support.SettingsError) as exc:
            raise PluginError(str(exc)) from None
        written = self.dirty and previous is not None  # else every file is written anew
        changed = site.changed_since(previous)
        self.changed = changed if written else None
        self.changed_files = site.files_changed_since(previous) if written else None
        self.site = site
        support.log_warnings(site.warnings)
        support.log_build(site, executor, changed, preview)
        self.publication = Publication(Path(config.site_dir)) if not preview else None
        if publishing:
            config.site_dir = str(self.publication.staging)
        self.publishing = publishing
        support.configure(config, site)
        return config

    def on_files(self, files, config):
        files = support.add_files(files, config, self.site)
        self.known = {f.dest_uri for f in files.documentation_pages()}
        self.known.update(p.url for p in self.site.pages)
        return files

    def on_nav(self, nav, config, files):
        support.generated_pages(files, config, self.site, self.dirty)
        self.mkdocs = (nav, files)
        return nav

    def on_page_markdown(self, markdown, page, config, files):
        support.page_meta(page, self.site, self.known)
        return markdown

    def on_page_context(self, context, page, config, nav):
        if self.site.page(page.file.dest_uri) is not None:
            url = page.file.dest_uri
            support.set_content(page, self.site.content(url), self.site.sections.get(url))
        return context

    def on_env(self, env, config, files):
        env.globals.update(support.theme_globals(MARKER))
        env.globals["il_sitemap"] = support.sitemap(files, self.site, self.known)
        env.bytecode_cache = self.bytecode
        self.mkdocs += (env,)
        return env

    def on_post_build(self, config):
        nav, files, env = self.mkdocs
        framer = frames.Framer(config, env, nav, files, self.site, self.known)
        self.frames = frames.write(
            framer, self.executor, self.frames, self.changed, self.changed_files
        )
        if self.command == "serve" and self.dirty:
            self.preview.built(config, nav, files, env, framer.found)

    def on_post_page(self, output, page, config):
        generated = self.site.page(page.file.dest_uri)
        if generated is not None:
            if generated.standalone:  # a whole document: the theme's frame is not used
                output = support.standalone(self.site.content(page.file.dest_uri), MARKER)
            page.content = None  # written; MkDocs need not keep it
        return with_policy(output)

    def on_post_template(self, output_content, template_name, config):
        return with_policy(output_content) if template_name.endswith(".html") else output_content

    def on_build_error(self, *, error) -> None:
        # Also reached when --strict turns warnings into a failure after on_post_build.
        self.build_error = str(error)
        self.preview.shell = None
        if self.publication is not None:
            self.publication.discard()
        self.publication = None

    def on_shutdown(self) -> None:
        """Publish the staged site: only now is the build known to have succeeded. MkDocs keeps
        this plugin object for the life of the process, so nothing of this run is kept."""
        publication, publishing = self.publication, self.publishing
        self.__init__()
        if publication is not None and publishing:
            publication.publish()
            support.log.info("published %s", publication.site_dir)

    def on_serve(self, server, config, builder):
        root = Path(config.config_file_path or ".").parent
        library_files = (root / self.config.incidents_dir, root / self.config.taxonomy)
        return library.serve(server, library_files, lambda: self.build_error, self.preview, self)
