"""Pages -> HTML fragments. The only module that touches Jinja."""

from __future__ import annotations

from functools import lru_cache

from jinja2 import Environment, PackageLoader, StrictUndefined, select_autoescape
from markupsafe import Markup, escape

from . import i18n, urls
from .incident import Incident
from .library import Library
from .pages import Page
from .prose import to_html
from .search_data import order_key
from .taxonomy import Term


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
        order_key=order_key,
        chip=chip,
        chips=chips,
        case_card=case_card,
    )
    env.filters["markdown"] = lambda text: Markup(to_html(text))
    env.filters["number"] = lambda n: f"{n:,}"
    env.filters["section_heading_in"] = lambda key, lang: i18n.section_heading(key, lang)
    return env


DESCRIPTIVE = ("symptom", "cause", "component", "contributing_factor")


def chip(term: Term, lang: str, link, count: int | None = None) -> Markup:
    """A term as a link to its page, coloured by facet."""
    suffix = f' <span class="il-chip__count">{count}</span>' if count is not None else ""
    return Markup(
        f'<a class="il-chip il-chip--{term.facet}" href="{escape(link(urls.term(lang, term)))}" '
        f'data-facet="{term.facet}" data-term="{term.id}">{escape(term.label(lang))}{suffix}</a>'
    )


def chips(terms, lang: str, link) -> Markup:
    if not terms:
        return Markup("")
    items = "".join(f"<li>{chip(term, lang, link)}</li>" for term in terms)
    return Markup(f'<ul class="il-chips">{items}</ul>')


_ROOT = "\x00root\x00"


def case_card(library: Library, incident: Incident, lang: str, link, t) -> Markup:
    """One case in a list: title, organization and date, summary, and its terms.

    A case appears on a dozen list pages; its card is rendered once per language with links
    from the site root, and each page only swaps in its own way back to the root."""
    key = ("card", incident.id, lang)
    card = library.memo.get(key)
    if card is None:
        card = str(_case_card(library, incident, lang, lambda url: _ROOT + url, t))
        library.memo[key] = card
    root = link("index.html")[: -len("index.html")]
    return Markup(card.replace(_ROOT, root))


def _case_card(library: Library, incident: Incident, lang: str, link, t) -> str:
    text = incident.text(lang)
    other = f' lang="{text.lang}"' if text.lang != lang else ""
    orgs = "".join(
        f'<span class="il-card__org">{escape(o.label(lang))}</span> · '
        for o in library.terms_of(incident, "organization")
    )
    terms = "".join(
        f"<li>{chip(term, lang, link)}</li>"
        for facet in DESCRIPTIVE
        for term in library.terms_of(incident, facet)
    )
    href = escape(link(urls.case(lang, incident.id)))
    return Markup(
        f'<article class="il-card" data-case="{escape(incident.id)}">\n'
        f'  <h3 class="il-card__title"><a href="{href}"{other}>'
        f"{escape(text.title)}</a></h3>\n"
        f'  <p class="il-card__meta">{orgs}<span>{escape(t("occurred"))} '
        f"<time>{escape(incident.meta.occurred)}</time></span></p>\n"
        f'  <p class="il-card__summary"{other}>{escape(text.summary)}</p>\n'
        f'  <ul class="il-chips il-chips--compact">{terms}</ul>\n'
        "</article>"
    )


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
