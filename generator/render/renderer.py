"""Pages -> HTML fragments. The only module that touches Jinja.

A `Renderer` renders the content area of each page (the shell adds the frame around it). It is
made per build and keeps what it reuses across pages (each case card is rendered once per
language and reused on every list page that shows it) in itself, never in the library.
"""

from __future__ import annotations

import re
from functools import lru_cache

from jinja2 import Environment, PackageLoader, StrictUndefined, select_autoescape
from markupsafe import Markup, escape

from .. import languages
from ..model.incident import SECTION_HEADINGS, SECTIONS, Incident
from ..model.library import Library
from ..model.taxonomy import Term
from ..model.text import is_known
from ..pages import urls
from ..pages.build import FULL_CARDS, SiteOptions
from ..pages.kinds import Page
from . import strings
from .prose import to_html


@lru_cache(maxsize=1)  # compiled templates: a pure function of the package's own files
def environment() -> Environment:
    env = Environment(
        loader=PackageLoader("generator.render", "templates"),
        autoescape=select_autoescape(default=True, default_for_string=True),
        undefined=StrictUndefined,
        trim_blocks=True,
        lstrip_blocks=True,
        keep_trailing_newline=False,
    )
    env.globals.update(
        urls=urls,
        sections=SECTIONS,
        section_heading=lambda key, lang: SECTION_HEADINGS[lang][key],
        language_name=languages.name,
        chip=chip,
        chips=chips,
        t_in=strings.t,  # a string in a language other than the page's (the root page has both)
    )
    env.filters["markdown"] = lambda text: Markup(to_html(text))
    env.filters["number"] = lambda n: f"{n:,}"
    env.filters["date_in"] = strings.date_text
    env.filters["date_element"] = date_element
    env.filters["section_heading_in"] = lambda key, lang: SECTION_HEADINGS[lang][key]
    return env


def date_element(value: str, lang: str, note: bool = False) -> Markup:
    """A date as the reader of `lang` reads it, in a `<time>` element that gives machines the
    date itself; `occurred: unknown` is no date, so it is words alone."""
    text = escape(strings.date_text(value, lang, note))
    if not is_known(value):
        return Markup(text)
    return Markup(f'<time datetime="{escape(value)}">{text}</time>')


def chip(term: Term, lang: str, link, count: int | None = None) -> Markup:
    """A term as a link to its page, coloured by facet (a Python function, not a macro: it is
    called tens of thousands of times per build)."""
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


# A page that lists its own sections says so with `<nav class="il-toc" data-il-contents="TITLE">`
# (TITLE: the id of its <h1>) holding `<a href="#ID">HEADING</a>` per section: the case page.
_CONTENTS = re.compile(
    r'<nav class="il-toc"[^>]* data-il-contents="([^"]+)"[^>]*>(.*?)</nav>', re.S
)
_CONTENTS_ENTRY = re.compile(r'<a href="#([^"]+)">(.*?)</a>', re.S)

# The id of a page's title, and each section it lists: (anchor, heading as HTML).
Sections = tuple[str, tuple[tuple[str, str], ...]]


def page_sections(html: str) -> Sections | None:
    """The sections a rendered page lists in its own contents (None for a page without one),
    read from that list, so that a shell's table of contents names exactly what the page shows."""
    found = _CONTENTS.search(html) if "data-il-contents" in html else None
    if found is None:
        return None
    return found.group(1), tuple(_CONTENTS_ENTRY.findall(found.group(2)))


_ROOT = "\x00root\x00"
ROOT_MARK = _ROOT  # where a card shipped to the browser needs its way to the site root


class Renderer:
    """Renders the pages of one library with one set of site options."""

    def __init__(self, library: Library, options: SiteOptions) -> None:
        self.library = library
        self.options = options
        self._cards: dict[tuple[str, str], str] = {}

    def render(self, page: Page) -> str:
        """The HTML of a page's content area."""
        template = environment().get_template(page.template)
        lang = page.lang

        def link(url: str) -> str:
            return urls.relative(page.url, url)

        def t(key: str, **values: object) -> str:
            return strings.t(key, lang, **values)

        def tn(key: str, count: int, **values: object) -> str:
            return strings.tn(key, lang, count, **values)

        site_root = urls.relative(page.url, "index.html")[: -len("index.html")]
        return template.render(
            page.context()
            | {
                "link": link,
                "t": t,
                "tn": tn,
                "site_root": site_root,
                "taxonomy": self.library.taxonomy,
                "options": self.options,
                "full_cards": FULL_CARDS,
                "case_card": lambda incident, full=False: self.case_card(
                    incident, lang, link, full
                ),
            }
        )

    def case_card(self, incident: Incident, lang: str, link, full: bool = False) -> Markup:
        """One case in a list: title, byline and date, summary, and its descriptive terms; with
        `full`, also its labelled sections (a list of a few cases shows them, as the reference
        page does).

        Rendered once per language with links from the site root; each page only swaps in its
        own way back to the root."""
        key = (incident.id, lang, full)
        card = self._cards.get(key)
        if card is None:
            card = self._cards[key] = self._card(incident, lang, lambda url: _ROOT + url, full)
        root = link("index.html")[: -len("index.html")]
        return Markup(card.replace(_ROOT, root))

    def card_sections(self, incident: Incident, lang: str) -> str:
        """The labelled sections of a full card, with links from the site root written as
        `ROOT_MARK` (the browser puts its own way to the root there): the live results show
        them when a few cases remain, from `search/cards/<id>.js`."""
        return self._sections(incident, lang, lambda url: _ROOT + url)

    def _sections(self, incident: Incident, lang: str, link) -> str:
        """Each section under its heading (증상, 촉발, …, 교훈), with the terms of the facets
        that belong to it; after the trigger, the descriptive facets of their own (원인, 구성
        요소, 기여 요인), as on the case page."""
        library = self.library
        text = incident.text(lang)
        other = f' lang="{text.lang}"' if text.lang != lang else ""
        by_section: dict[str, list[Term]] = {}
        own: list[tuple[str, tuple[Term, ...]]] = []
        for facet in library.taxonomy.descriptive:
            terms = library.terms_of(incident, facet.id)
            if facet.case_section:
                by_section.setdefault(facet.case_section, []).extend(terms)
            elif terms:
                own.append((facet.label(lang), terms))
        parts = []
        for key in SECTIONS:
            heading = escape(SECTION_HEADINGS[lang][key])
            if key in incident.meta.not_in_sources:
                body = (
                    f'<p class="il-notice il-notice--gap">'
                    f"{escape(strings.t('not_in_sources', lang))}</p>"
                )
            else:
                body = f'<div class="il-prose"{other}>{to_html(text.section(key))}</div>'
                if key in incident.meta.summary_only:
                    body = (
                        f'<p class="il-notice il-notice--summary">'
                        f"{escape(strings.t('summary_only', lang))}</p>{body}"
                    )
            terms = chips(by_section.get(key, ()), lang, link)
            parts.append(
                f'<div class="il-card__section" data-section="{key}">'
                f"<h4>{heading}</h4>{body}{terms}</div>"
            )
            if key == "trigger":
                parts.extend(
                    f'<div class="il-card__section il-card__section--terms">'
                    f"<h4>{escape(label)}</h4>{chips(terms, lang, link)}</div>"
                    for label, terms in own
                )
        return f'<div class="il-card__sections">{"".join(parts)}</div>'

    def _card(self, incident: Incident, lang: str, link, full: bool = False) -> str:
        library = self.library
        text = incident.text(lang)
        other = f' lang="{text.lang}"' if text.lang != lang else ""
        byline = "".join(
            f'<span class="il-card__org">{escape(o.label(lang))}</span> · '
            for o in library.byline(incident)
        )
        terms = "".join(
            f"<li>{chip(term, lang, link)}</li>" for term in library.descriptive_terms(incident)
        )
        href = escape(link(urls.case(lang, incident.id)))
        occurred = strings.t("occurred", lang)
        return (
            f'<article class="il-card{" il-card--full" if full else ""}" '
            f'data-case="{escape(incident.id)}">\n'
            f'  <h3 class="il-card__title"><a href="{href}"{other}>'
            f"{escape(text.title)}</a></h3>\n"
            f'  <p class="il-card__meta">{byline}<span>{escape(occurred)} '
            f"{date_element(incident.meta.occurred, lang)}</span></p>\n"
            f'  <p class="il-card__summary"{other}>{escape(text.summary)}</p>\n'
            + (
                f"  {self._sections(incident, lang, link)}\n"
                if full
                else f'  <ul class="il-chips il-chips--compact">{terms}</ul>\n'
            )
            + "</article>"
        )
