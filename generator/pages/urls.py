"""Every URL of the site, one function per kind of page.

URLs name `.html` files (not folders) so the built site also works opened from disk, where a
folder URL shows a directory listing instead of its index page.
"""

from __future__ import annotations

from ..languages import LANGS
from ..model.taxonomy import Facet, Term

PAGE_SIZE = 20

# Names the site's own pages and folders take, which an id must not take too (a term called
# `index` would overwrite its facet's page; a facet called `cases` would mix with the cases).
RESERVED_TERM_IDS = frozenset({"index"})
RESERVED_INCIDENT_IDS = frozenset({"index"})
RESERVED_FACET_SLUGS = frozenset(
    {"cases", "page", "matrix", "search", "assets", "api", "about", "index", "feed", "checks"}
)
RESERVED_CHECK_IDS = frozenset({"index"})


def root() -> str:
    return "index.html"


def home(lang: str, page: int = 1) -> str:
    return f"{lang}/index.html" if page == 1 else f"{lang}/page/{page}.html"


def case(lang: str, incident_id: str) -> str:
    return f"{lang}/cases/{incident_id}.html"


def case_markdown(lang: str, incident_id: str) -> str:
    """The case as Markdown, beside its page (for language models and agents)."""
    return case(lang, incident_id).removesuffix(".html") + ".md"


def facet(lang: str, facet_obj: Facet | str) -> str:
    slug = facet_obj.slug if isinstance(facet_obj, Facet) else facet_obj.replace("_", "-")
    return f"{lang}/{slug}/index.html"


def term(lang: str, term_obj: Term, page: int = 1) -> str:
    slug = term_obj.facet.replace("_", "-")
    if page == 1:
        return f"{lang}/{slug}/{term_obj.id}.html"
    return f"{lang}/{slug}/{term_obj.id}/{page}.html"


def facet_markdown(lang: str, facet_obj: Facet | str) -> str:
    """A facet's terms as Markdown, beside its page."""
    return facet(lang, facet_obj).removesuffix(".html") + ".md"


def term_markdown(lang: str, term_obj: Term) -> str:
    """A term's cases as Markdown, beside its first page."""
    return term(lang, term_obj).removesuffix(".html") + ".md"


def llms_full(lang: str) -> str:
    """Every case in one language, as Markdown."""
    return f"{lang}/llms-full.txt"


def checks(lang: str) -> str:
    """The index of the checker's checks."""
    return f"{lang}/checks/index.html"


def check(lang: str, check_id: str) -> str:
    return f"{lang}/checks/{check_id}.html"


def matrix(lang: str, rows: str, cols: str) -> str:
    return f"{lang}/matrix/{rows.replace('_', '-')}-x-{cols.replace('_', '-')}.html"


def source_path(url: str) -> str:
    """The source path (`ko/cases/x.md`) a shell such as MkDocs gives `ko/cases/x.html`."""
    return url[: -len(".html")] + ".md"


def relative(from_url: str, to_url: str) -> str:
    """A link from the page at `from_url` to `to_url` that works over http and from disk.

    Both are site-relative paths without `..`, so this is plain string work (no relpath, which
    consults the working directory on every call: it was a third of rendering time)."""
    target, _, fragment = to_url.partition("#")
    if not target:
        rel = from_url.rsplit("/", 1)[-1]
    else:
        start = from_url.split("/")[:-1]
        parts = target.split("/")
        common = 0
        while common < len(start) and common < len(parts) - 1 and start[common] == parts[common]:
            common += 1
        rel = "/".join([".."] * (len(start) - common) + parts[common:])
    return f"{rel}#{fragment}" if fragment else rel


def counterpart(url: str, lang: str) -> str:
    """The same page in another language: `ko/cases/x.html` -> `en/cases/x.html`."""
    head, _, rest = url.partition("/")
    if head in LANGS:
        return f"{lang}/{rest}"
    return url
