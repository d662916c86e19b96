"""Pages -> HTML fragments. The only module that touches Jinja."""

from __future__ import annotations

from functools import lru_cache

from jinja2 import Environment, PackageLoader, StrictUndefined, select_autoescape
from markupsafe import Markup

from . import i18n, urls
from .pages import Page
from .prose import to_html
from .search_data import sort_key


@lru_cache(maxsize=1)
def environment() -> Environment:
    env = Environment(
        loader=PackageLoader("generator", "templates"),
        autoescape=select_autoescape(default=True, default_for_string=True),
        undefined=StrictUndefined,
        trim_blocks=True,
        lstrip_blocks=True,
        keep_trailing_newline=False,
    )
    env.globals.update(
        urls=urls,
        section_heading=i18n.section_heading,
        language_name=i18n.language_name,
        sort_key=sort_key,
    )
    env.filters["markdown"] = lambda text: Markup(to_html(text))
    env.filters["number"] = lambda n: f"{n:,}"
    return env


def render_page(page: Page) -> str:
    """The HTML of a page's content area (Material supplies the frame around it)."""
    template = environment().get_template(page.template)
    lang = page.lang

    def link(url: str) -> str:
        return urls.relative(page.url, url)

    def t(key: str, **values: object) -> str:
        return i18n.t(key, lang, **values)

    site_root = urls.relative(page.url, "index.html")[: -len("index.html")]
    return template.render(page=page, lang=lang, link=link, t=t, site_root=site_root, **page.data)
