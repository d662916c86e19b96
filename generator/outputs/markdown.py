"""The library as Markdown, for language models and agents. Pure.

- `<lang>/cases/<id>.md`: one case as Markdown, beside its HTML page, in every language;
- `<lang>/<facet>/index.md` and `<lang>/<facet>/<term>.md`, beside the facet's and the term's
  pages: a facet's terms with their counts, and a term's cases (title, date, summary, link);
- `<lang>/llms-full.txt`: every case in one language;
- `llms.txt` (the llmstxt.org convention): what the library is, its newest cases, and links to
  the files above.

The full text comes a language, a facet or a term at a time: at a few thousand cases the whole
library in one file is tens of megabytes, past any language model's context, and llms.txt links
the newest cases and the facets' indexes (every case is in a term file of its domain), so that
it stays the same size whatever the library's.

The agent server (`incidents mcp`) returns the same Markdown for `get_incident`, so what an agent
reads through the server and what it reads from a downloaded site are one text.

Values are escaped for Markdown as the pages escape them for HTML: a title, summary, label,
publisher or source title is text, never syntax (three backticks in a summary would open a code
block that swallows every later case of llms-full.txt; a title could add a link or an image that
a reader's Markdown viewer fetches). Section bodies are Markdown by design: the check refuses
images and links to anything but http(s) and mailto in them, and here raw HTML stays text and a
code block left open is closed at the end of its section.
"""

from __future__ import annotations

import re

from ..languages import LANGS, name
from ..model.incident import SECTION_HEADINGS, SECTIONS, Incident
from ..model.library import Library
from ..model.text import is_known
from ..pages import urls
from ..render.strings import date_text, t, tn

_FACT_KEYS = ("occurred", "ended", "published")


def case_markdown(
    library: Library, incident: Incident, lang: str, site_url: str = "", depth: int = 1
) -> str:
    """One case in `lang` (its original when it has no translation), as Markdown; its title is
    a heading of level `depth`, its sections one level below."""
    text = incident.text(lang)
    meta = incident.meta
    title, section = "#" * depth, "#" * (depth + 1)
    lines = [f"{title} {markdown_text(text.title)}", "", markdown_text(text.summary), ""]
    if text.lang != lang:
        lines += [f"> {t('fallback_notice', lang, original=name(text.lang, lang))}", ""]
    for facet in library.taxonomy.facets:
        terms = library.terms_of(incident, facet.id)
        if terms:
            labels = ", ".join(f"{markdown_text(term.label(lang))} (`{term.id}`)" for term in terms)
            lines.append(f"- **{markdown_text(facet.label(lang))}**: {labels}")
    for key in _FACT_KEYS:
        value = getattr(meta, key)
        if value:
            shown = value if is_known(value) else date_text(value, lang, note=True)
            lines.append(f"- **{t(key, lang)}**: {shown}")
    if meta.scale:
        parts = [
            tn(f"scale_{key}", lang, value, n=f"{value:,}")
            for key in ("gpus", "hosts", "nodes", "clusters")
            if (value := getattr(meta.scale, key))
        ]
        if parts:
            lines.append(f"- **{t('scale', lang)}**: {', '.join(parts)}")
    lines.append(f"- **{t('original_language', lang)}**: {name(meta.lang, lang)}")
    page = urls.case(lang, incident.id)
    if site_url:
        lines += [f"- **{t('cite_permalink', lang)}**: {_absolute(site_url, page)}", ""]
    else:  # no address known: the page's path within the site, which is what is true
        lines += [f"- **{t('cite_path', lang)}**: {page}", ""]
    for key in SECTIONS:
        lines.append(f"{section} {SECTION_HEADINGS[lang][key]}")
        lines.append("")
        body = text.section(key).strip()
        if body and key in meta.summary_only:
            lines += [f"> {t('summary_only', lang)}", ""]
        lines.append(markdown_body(body) if body else t("not_in_sources", lang))
        lines.append("")
    lines += [f"{section} {t('sources', lang)}", ""]
    for source in meta.sources:
        title, publisher = markdown_text(source.title), markdown_text(source.publisher)
        lines.append(f"- [{title}]({markdown_url(str(source.url))}), {publisher}, {source.date}")
    return "\n".join(lines).rstrip() + "\n"


# Characters Markdown reads as inline syntax, escaped wherever they stand.
_INLINE = re.compile(r"([\\`*_\[\]<>!|~&])")
# What opens a block at the start of a line: a heading, a quote, a list item, a thematic break
# or a setext underline, a table's row.
_BLOCK_START = re.compile(r"(?:[#>+=-]|\d{1,9}[.)])")
# Characters that would end or break a link's destination.
_URL_UNSAFE = re.compile(r"[\x00-\x20()<>\\\x7f]")
_FENCE = re.compile(r" {0,3}(`{3,}|~{3,})")
_CODE_SPAN = re.compile(r"(`+)(?:.*?[^`])?\1(?!`)")
_AUTOLINK = re.compile(r"<(?:https?://|mailto:)[^<>\s]*>")


def markdown_text(value: str) -> str:
    """A plain value as Markdown that reads exactly as written."""
    escaped = _INLINE.sub(r"\\\1", value)
    start = _BLOCK_START.match(escaped)
    if start:
        token = start.group(0)
        if token[0].isdigit():  # "1." -> "1\.": a backslash before a digit would be shown
            escaped = f"{token[:-1]}\\{token[-1]}{escaped[len(token) :]}"
        else:
            escaped = "\\" + escaped
    return escaped


def markdown_url(url: str) -> str:
    """A URL as a link destination: what would end it early is percent-encoded."""
    return _URL_UNSAFE.sub(lambda m: f"%{ord(m.group(0)):02X}", url)


def markdown_body(body: str) -> str:
    """A section's Markdown, contained: raw HTML shown as text (as the page shows it), a level-one
    heading kept a paragraph, and a code block left open closed before the next section."""
    out: list[str] = []
    fence = ""
    for line in body.split("\n"):
        opened = _FENCE.match(line)
        if fence:
            closing = opened is not None and opened.group(1)[0] == fence[0]
            if closing and len(opened.group(1)) >= len(fence) and not line[opened.end() :].strip():
                fence = ""
            out.append(line)
            continue
        if opened and not (opened.group(1)[0] == "`" and "`" in line[opened.end() :]):
            fence = opened.group(1)
            out.append(line)
            continue
        out.append(_inline_html_as_text(line))
    if fence:
        out.append(fence)
    return "\n".join(out)


def _inline_html_as_text(line: str) -> str:
    if line.startswith("# ") or line == "#":
        line = "\\" + line
    if "<" not in line:
        return line
    parts, last = [], 0
    for span in _CODE_SPAN.finditer(line):
        parts.append(_escape_lt(line[last : span.start()]))
        parts.append(span.group(0))
        last = span.end()
    parts.append(_escape_lt(line[last:]))
    return "".join(parts)


def _escape_lt(text: str) -> str:
    kept = [(m.start(), m.end()) for m in _AUTOLINK.finditer(text)]
    out, last = [], 0
    for start, end in kept:
        out.append(text[last:start].replace("<", "\\<"))
        out.append(text[start:end])
        last = end
    out.append(text[last:].replace("<", "\\<"))
    return "".join(out)


def _absolute(site_url: str, path: str) -> str:
    return f"{site_url.rstrip('/')}/{path}" if site_url else path


NEWEST_IN_LLMS_TXT = 20  # cases llms.txt lists per language


def _link(site_url: str, from_path: str, to_path: str) -> str:
    """A link from one Markdown file to another: absolute when the site's address is known,
    relative to the linking file otherwise."""
    return markdown_url(
        _absolute(site_url, to_path) if site_url else urls.relative(from_path, to_path)
    )


def llms_txt(library: Library, site_url: str = "") -> str:
    """The site's llms.txt: a title, a summary, the newest cases, and where the rest is."""
    here = "llms.txt"
    lines = [
        f"# {t('site_title', 'en')}",
        "",
        f"> {t('library_intro', 'en')} {t('library_intro', 'ko')}",
        "",
        (
            f"{len(library.incidents)} cases, each taken from a public postmortem or paper and "
            "cited, written in Korean or English with a translation into the other. Every case "
            "is classified by the facets below; each facet's index links its terms, and each "
            "term's file lists its cases with a link to each case's Markdown. The full text is "
            "one file per language; the same data is in api/incidents.json, "
            "api/taxonomy.json and the SQLite database api/incidents.db."
        ),
        "",
    ]
    for lang in LANGS:
        lines += [f"## Facets in {name(lang, 'en')} ({name(lang, lang)})", ""]
        for facet in library.taxonomy.facets:
            link = _link(site_url, here, urls.facet_markdown(lang, facet))
            label = markdown_text(facet.label(lang))
            lines.append(f"- [{label}]({link}): {markdown_text(facet.description(lang))}")
        lines.append("")
    for lang in LANGS:
        lines += [f"## Newest cases in {name(lang, 'en')} ({name(lang, lang)})", ""]
        for incident in library.incidents[:NEWEST_IN_LLMS_TXT]:
            text = incident.text(lang)
            link = _link(site_url, here, urls.case_markdown(lang, incident.id))
            title, summary = markdown_text(text.title), markdown_text(text.summary)
            lines.append(f"- [{title}]({link}): {summary}")
        lines.append("")
    lines += ["## Optional", ""]
    for lang in LANGS:
        link = _link(site_url, here, urls.llms_full(lang))
        lines.append(f"- [Every case in {name(lang, 'en')}, as Markdown]({link})")
    for label, path in [
        ("Incidents as JSON", "api/incidents.json"),
        ("Taxonomy as JSON", "api/taxonomy.json"),
        ("The library as a SQLite database", "api/incidents.db"),
    ]:
        lines.append(f"- [{label}]({_link(site_url, here, path)})")
    return "\n".join(lines).rstrip() + "\n"


def llms_full_txt(library: Library, lang: str, site_url: str = "") -> str:
    """Every case in `lang` (its original where it has no translation), newest first."""
    parts = [f"# {t('site_title', lang)}\n\n> {t('library_intro', lang)}\n"]
    for incident in library.incidents:
        parts.append(case_markdown(library, incident, lang, site_url, depth=2))
    return "\n---\n\n".join(parts)


def facet_index_markdown(library: Library, facet, lang: str, site_url: str = "") -> str:
    """A facet's terms, each with its count and a link to its cases."""
    here = urls.facet_markdown(lang, facet)
    lines = [
        f"# {markdown_text(facet.label(lang))}",
        "",
        markdown_text(facet.description(lang)),
        "",
    ]
    for term in facet.terms:
        link = _link(site_url, here, urls.term_markdown(lang, term))
        count = tn("cases_count", lang, library.count(term), n=f"{library.count(term):,}")
        label, about = markdown_text(term.label(lang)), markdown_text(term.description(lang))
        lines.append(f"- [{label}]({link}) (`{term.id}`, {count}): {about}")
    return "\n".join(lines).rstrip() + "\n"


def term_markdown(library: Library, term, lang: str, site_url: str = "") -> str:
    """A term's cases, newest first: title (a link to the case's Markdown), date and summary."""
    here = urls.term_markdown(lang, term)
    facet = library.taxonomy.facet(term.facet)
    cases = library.cases_with(term)
    lines = [
        f"# {markdown_text(facet.label(lang))}: {markdown_text(term.label(lang))}",
        "",
        markdown_text(term.description(lang)),
        "",
        tn("cases_count", lang, len(cases), n=f"{len(cases):,}"),
        "",
    ]
    for incident in cases:
        text = incident.text(lang)
        link = _link(site_url, here, urls.case_markdown(lang, incident.id))
        title, summary = markdown_text(text.title), markdown_text(text.summary)
        lines.append(f"- [{title}]({link}) ({incident.meta.occurred}): {summary}")
    return "\n".join(lines).rstrip() + "\n"


def markdown_files(library: Library, site_url: str = "") -> dict[str, str]:
    """Site-relative path -> Markdown: every case page's .md, each facet's and term's, each
    language's full text, and llms.txt."""
    files = {}
    for incident in library.incidents:
        for lang in LANGS:
            path = urls.case_markdown(lang, incident.id)
            files[path] = case_markdown(library, incident, lang, site_url)
    for lang in LANGS:
        for facet in library.taxonomy.facets:
            files[urls.facet_markdown(lang, facet)] = facet_index_markdown(
                library, facet, lang, site_url
            )
            for term in facet.terms:
                files[urls.term_markdown(lang, term)] = term_markdown(library, term, lang, site_url)
        files[urls.llms_full(lang)] = llms_full_txt(library, lang, site_url)
    files["llms.txt"] = llms_txt(library, site_url)
    return files
