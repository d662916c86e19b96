"""Material's frame around the core's pages: drawn once per kind of page, filled in per page.

Material renders its whole template (head, header, navigation, sidebars, footer) around every
page it writes, a few milliseconds each: for tens of thousands of case pages, most of MkDocs'
share of the build. The pages outside the navigation (cases, terms, their list pages) differ in
their frame only by a few values: the title, the description, the canonical address, the links
of the language switch and the sections in the sidebar. So Material draws one page of each kind
(`Framer.key`) with a token in place of each value and of the content, the drawing is split at
the tokens, and every page of that kind is its pieces with the page's own values in between.
The HTML stays Material's and the overrides' (nothing here writes any of it); a test holds a
filled page equal to the page Material draws itself.

The pages and the core's other files (search data, exports) are written here too, on the
build's workers: MkDocs would make a `File` and a `Page` of each and write them one by one.
"""

from __future__ import annotations

import os
import re
import secrets
from collections.abc import Collection, Mapping
from dataclasses import dataclass
from urllib.parse import urljoin

from markupsafe import Markup, escape
from mkdocs.commands.build import get_context
from mkdocs.structure.files import File

from ...languages import LANGS
from ...outputs.csp import with_policy
from ...pages.kinds import Page
from ...pipeline.executor import Executor
from ...pipeline.site import Site
from . import support
from .support import framed

# The content's token carries a heading: every page of the core has its own <h1> (Material adds
# one to content without).
_HEADING = "<h1></h1>"

Key = tuple


@dataclass(frozen=True)
class Frame:
    """A page's frame as literal pieces, with the name of the value that goes between each two."""

    pieces: tuple[str, ...]
    slots: tuple[str, ...]

    @classmethod
    def of(cls, drawn: str, tokens: re.Pattern) -> Frame:
        parts = tokens.split(drawn)
        return cls(tuple(parts[0::2]), tuple(parts[1::2]))

    def fill(self, values: Mapping[str, str]) -> str:
        out = [self.pieces[0]]
        for slot, piece in zip(self.slots, self.pieces[1:], strict=True):
            out += (values[slot], piece)
        return "".join(out)


class Framer:
    """Draws frames with MkDocs' objects of one build and fills them for the core's pages."""

    def __init__(
        self, config, env, nav, files, site: Site, known: Collection[str], alternates=None
    ) -> None:
        """`alternates`: the language links an earlier framer worked out for the same pages
        (`known`), kept by a preview between rebuilds (a mapping of page URL to links)."""
        self.config, self.env, self.nav, self.site, self.known = config, env, nav, site, known
        self.files, self.pages = files, files.documentation_pages()
        base = str(config.site_url or "")  # "" when the build does not know the site's address
        self.base = base if not base or base.endswith("/") else base + "/"
        # Tokens of letters and digits, which none of Material's filters (escape, striptags, url)
        # change; a new one per build, so that no text of the library can pose as one.
        nonce = secrets.token_hex(8)
        self.token = f"il{nonce}{{}}0".format  # the name is letters: the 0 ends it
        self.tokens = re.compile(rf"il{nonce}([a-z]+)0")
        self.found: dict[str, list[dict[str, str]]] = dict(alternates or {})

    def alternates(self, page: Page) -> list[dict[str, str]]:
        """The page in each language (`support.alternates`), worked out once per page: its key
        and its values both need them, and the workers inherit what the key found."""
        found = self.found.get(page.url)
        if found is None:
            found = self.found[page.url] = support.alternates(page.url, self.known)
        return found

    def key(self, page: Page) -> Key:
        """What a page's frame depends on besides the filled values: its language and folder
        (relative links, the navigation), whether it has a description (else the site's) and a
        title of its own, which languages it exists in, and its sections."""
        folder = page.url.rsplit("/", 1)[0]
        langs = tuple(a["lang"] for a in self.alternates(page))
        titled = page.title != self.config.site_name
        sections = self.site.sections.get(page.url)
        return (page.lang, folder, bool(page.description), titled, langs, sections)

    def draw(self, page: Page) -> Frame:
        """Material's page around tokens, for the pages of `page`'s kind."""
        names = ("title", "description", "canonical", *(f"alt{lang}" for lang in LANGS))
        tokens = {name: self.token(name) for name in names}
        content = self.token("content")
        drawn = self.material(page, tokens | {"content": content + _HEADING})
        if drawn.count(content + _HEADING) != 1 or drawn.count(content) != 1:
            raise RuntimeError("the theme does not show a page's content once, as it stands")
        return Frame.of(drawn.replace(content + _HEADING, content), self.tokens)

    def material(self, page: Page, values: Mapping[str, str]) -> str:
        """`page` as Material draws it (what MkDocs would write), with `values` (HTML) in place
        of its own title, description, canonical address, language links and content."""
        file = File.generated(self.config, page.source_path, content="")
        drawn = support.GeneratedPage(None, file, self.config)
        support.page_meta(drawn, self.site, self.known)
        drawn.meta["title"] = Markup(values["title"])
        if page.description:
            drawn.meta["description"] = Markup(values["description"])
        for alternate in drawn.meta["alternates"]:
            alternate["href"] = Markup(values[f"alt{alternate['lang']}"])
        drawn.render(self.config, None)
        support.set_content(drawn, values["content"], self.site.sections.get(page.url))
        # A canonical link is absolute or nothing: left out where the site's address is unknown.
        drawn.canonical_url = Markup(values["canonical"]) if self.base else None
        context = get_context(self.nav, self.pages, self.config, drawn)
        template = self.env.get_template(drawn.meta.get("template", "main.html"))
        return with_policy(template.render(context))

    def values(self, page: Page, content: str) -> dict[str, str]:
        """A page's values for its frame, escaped as Jinja escapes them (the title too, which
        Material's header writes as it is: a title may hold `&` or `<`)."""
        values = {
            "title": str(escape(page.title)),
            "description": str(escape(page.description)),
            "canonical": str(escape(urljoin(self.base, page.url))) if self.base else "",
            "content": content,
        }
        for alternate in self.alternates(page):
            values[f"alt{alternate['lang']}"] = str(escape(alternate["href"]))
        return values


def write(
    framer: Framer,
    executor: Executor,
    kept: Mapping[Key, Frame],
    pages: Collection[str] | None = None,
    files: Collection[str] | None = None,
) -> dict[Key, Frame]:
    """Write the core's framed pages and other files into the site folder: every one, or (a
    preview whose folder holds the last build) the `pages` and `files` that changed, the pages
    of a kind whose frame was not `kept`, and the files not on disk. `kept`: the frames that
    still hold (a preview's, see `hold`); only the kinds of page without one are drawn.
    Returns every frame, for the next rebuild."""
    site, site_dir = framer.site, framer.config.site_dir
    keyed = [(page, framer.key(page)) for page in site.pages if framed(page)]
    frames = _frames(framer, keyed, kept)
    todo = [
        (page, frames[key])
        for page, key in keyed
        if pages is None or page.url in pages or key not in kept
    ]
    paths = [
        path
        for path in site.files
        if files is None or path in files or not os.path.isfile(os.path.join(site_dir, path))
    ]
    for folder in {os.path.dirname(p.url) for p, _ in todo} | {os.path.dirname(p) for p in paths}:
        os.makedirs(os.path.join(site_dir, folder), exist_ok=True)

    def job(n: int) -> None:
        if n < len(todo):
            page, frame = todo[n]
            html_text = frame.fill(framer.values(page, site.content(page.url)))
            path, data = page.url, html_text.encode("utf-8", errors="xmlcharrefreplace")
        else:
            path = paths[n - len(todo)]
            data = site.files[path]
        with open(os.path.join(site_dir, path), "wb") as out:
            out.write(data)

    executor.map(job, len(todo) + len(paths))
    return frames


def _frames(
    framer: Framer, keyed: list[tuple[Page, Key]], kept: Mapping[Key, Frame]
) -> dict[Key, Frame]:
    """The frame of every kind of page there is: `kept`'s where it has one, else drawn."""
    frames: dict[Key, Frame] = {}
    for page, key in keyed:
        if key not in frames:
            frames[key] = kept[key] if key in kept else framer.draw(page)
    return frames


def hold(framer: Framer, last: Mapping[Key, Frame]) -> bool:
    """Whether the last build's frames hold for this one. Material draws the first page of
    each language again: if each is as it was, so are the navigation, the theme and the
    settings, which every frame of a language shows (drawing every frame again would be most of
    a preview's rebuild)."""
    if not last:
        return False
    probes: dict[str, Page] = {}
    for page in framer.site.pages:
        if framed(page):
            probes.setdefault(page.lang, page)
    return all(last.get(framer.key(page)) == framer.draw(page) for page in probes.values())
