"""The MkDocs adapter: asks the core for the site and hands it to MkDocs, hook by hook.

The core (`generator.pipeline.site.build`) checks the library and renders every page's content;
MkDocs and Material only draw the frame around each page and write it. Publishing (a staging
folder swapped in on success) is an adapter of its own. To move to another shell, replace this
package; see docs/ARCHITECTURE.md.

MkDocs keeps one plugin object for the life of the process. Each build's state is made in
`on_config` and kept in one object (`BuildState`); what lives across the rebuilds of a preview
(`incidents serve`) is the preview session's (preview.py), made in `on_startup`.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from mkdocs.config import config_options as c
from mkdocs.config.base import Config
from mkdocs.exceptions import PluginError
from mkdocs.plugins import BasePlugin
from mkdocs.utils import is_error_template

from ...load.project import ProjectPaths
from ...outputs.csp import with_policy
from ...pipeline.executor import Executor, default_executor, serial
from ...pipeline.site import BuildError, Site, build
from ..publish import Publication, PublishError, check_site_dir
from . import frames, preview, support

PUBLISHING = frozenset({"build", "gh-deploy"})  # commands whose output is published
# The marker every built page carries: a build that finishes without it ran without this
# plugin (a shell that ignores unknown plugins, such as Zensical) and is refused by the tests.
MARKER = '<meta name="generator" content="incident-library">'


class PluginConfig(Config):
    incidents_dir = c.Type(str, default="incidents")
    taxonomy = c.Type(str, default="taxonomy.yml")


@dataclass
class BuildState:
    """One build: made in `on_config`, completed by the hooks MkDocs calls after it."""

    site: Site
    inputs: tuple[ProjectPaths, Any]  # what the core built from (paths, SiteOptions)
    executor: Executor
    publication: Publication | None  # the staging folder of a published build
    known: set[str] = field(default_factory=set)  # every page's address, hand-written ones too
    nav: Any = None  # MkDocs' navigation, files and theme environment of this build
    files: Any = None
    env: Any = None


def start(config, settings: PluginConfig, command: str | None, session) -> BuildState:
    """Build the site with the core (a preview's through its session), and set MkDocs'
    settings from it."""
    root = Path(config.config_file_path or ".").parent
    paths = ProjectPaths.at(root, settings.taxonomy, settings.incidents_dir)
    support.refuse_outside_inputs(config, root)
    support.resolve_site_url(config, preview=session is not None)
    inputs = (paths, support.site_options(config))
    if session is None:
        executor = default_executor()
        site = build(*inputs, executor)
        support.log_build(site, executor, None)
    else:
        executor, site = serial, session.build(inputs)
    publication = None
    if command in PUBLISHING:
        check_site_dir(Path(config.site_dir), root, support.sources(config, paths))
        publication = Publication(Path(config.site_dir))
        config.site_dir = str(publication.staging)
    support.log_warnings(site.warnings)
    support.configure(config, site)
    return BuildState(site, inputs, executor, publication)


class IncidentLibraryPlugin(BasePlugin[PluginConfig]):
    def __init__(self) -> None:
        self.command: str | None = None  # None when MkDocs' build() is called directly
        self.dirty = False  # MkDocs reads and writes only what changed (--dirty)
        self.session: preview.Session | None = None  # `serve`: what lives across rebuilds
        self.state: BuildState | None = None  # the build under way, or the last one

    def on_startup(self, *, command, dirty) -> None:
        self.command, self.dirty = command, dirty
        self.session = preview.Session(dirty) if command == "serve" else None

    def on_config(self, config):
        self.state = None
        if self.session is not None:
            self.session.begin(config)
        try:
            self.state = start(config, self.config, self.command, self.session)
        except (BuildError, PublishError, support.SettingsError) as exc:
            raise PluginError(str(exc)) from None
        return config

    def on_files(self, files, config):
        state = self.state
        files = support.add_files(files, config, state.site)
        state.known = {f.dest_uri for f in files.documentation_pages()}
        state.known.update(p.url for p in state.site.pages)
        return files

    def on_nav(self, nav, config, files):
        support.generated_pages(files, config, self.state.site, self.dirty)
        self.state.nav, self.state.files = nav, files
        return nav

    def on_page_markdown(self, markdown, page, config, files):
        support.page_meta(page, self.state.site, self.state.known)
        return markdown

    def on_page_context(self, context, page, config, nav):
        site = self.state.site
        if site.page(page.file.dest_uri) is not None:
            url = page.file.dest_uri
            support.set_content(page, site.content(url), site.sections.get(url))
        return context

    def on_env(self, env, config, files):
        env.globals.update(support.theme_globals(MARKER, self.state.site))
        env.globals["il_sitemap"] = support.sitemap(files, self.state.site, self.state.known)
        if self.session is not None:
            env.bytecode_cache = self.session.bytecode
        self.state.env = env
        return env

    def on_post_build(self, config):
        state = self.state
        framer = frames.Framer(config, state.env, state.nav, state.files, state.site, state.known)
        if self.session is None:
            frames.write(framer, state.executor, {})
        else:
            self.session.write(framer, state.executor, state.inputs)

    def on_post_page(self, output, page, config):
        generated = self.state.site.page(page.file.dest_uri)
        if generated is not None:
            if generated.standalone:  # a whole document: the theme's frame is not used
                output = support.standalone(self.state.site.content(page.file.dest_uri), MARKER)
            page.content = None  # written; MkDocs need not keep it
        return with_policy(output)

    def on_template_context(self, context, template_name, config):
        if is_error_template(template_name):
            return support.error_page_context(context, config)
        return context

    def on_post_template(self, output_content, template_name, config):
        return with_policy(output_content) if template_name.endswith(".html") else output_content

    def on_build_error(self, *, error) -> None:
        # Also reached when --strict turns warnings into a failure after on_post_build.
        if self.session is not None:
            self.session.failed(str(error))
        if self.state is not None and self.state.publication is not None:
            self.state.publication.discard()
        self.state = None

    def on_shutdown(self) -> None:
        """Publish the staged site: only now is the build known to have succeeded. Nothing of
        this run is kept: MkDocs' build() may be called again without on_startup."""
        state = self.state
        self.command, self.dirty, self.session, self.state = None, False, None, None
        if state is not None and state.publication is not None:
            state.publication.publish()
            support.log.info("published %s", state.publication.site_dir)

    def on_serve(self, server, config, builder):
        root = Path(config.config_file_path or ".").parent
        library_files = (root / self.config.incidents_dir, root / self.config.taxonomy)
        return preview.serve(server, library_files, self.session)
