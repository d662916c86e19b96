"""The library as Markdown, for language models and agents. Pure.

- `<lang>/cases/<id>.md`: one case as Markdown, beside its HTML page, in every language;
- `llms.txt` (the llmstxt.org convention): what the library is, and a link to every case's
  Markdown in each language;
- `llms-full.txt`: the whole library as Markdown, every case in every language it is written in.

The agent server (`incidents mcp`) returns the same Markdown for `get_incident`, so what an agent
reads through the server and what it reads from a downloaded site are one text.
"""

from __future__ import annotations

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
    lines = [f"{title} {text.title}", "", text.summary, ""]
    if text.lang != lang:
        lines += [f"> {t('fallback_notice', lang, original=name(text.lang, lang))}", ""]
    for facet in library.taxonomy.facets:
        terms = library.terms_of(incident, facet.id)
        if terms:
            labels = ", ".join(f"{term.label(lang)} (`{term.id}`)" for term in terms)
            lines.append(f"- **{facet.label(lang)}**: {labels}")
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
    permalink = _absolute(site_url, urls.case(lang, incident.id))
    lines += [f"- **{t('cite_permalink', lang)}**: {permalink}", ""]
    for key in SECTIONS:
        lines.append(f"{section} {SECTION_HEADINGS[lang][key]}")
        lines.append("")
        body = text.section(key).strip()
        if body and key in meta.summary_only:
            lines += [f"> {t('summary_only', lang)}", ""]
        lines.append(body if body else t("not_in_sources", lang))
        lines.append("")
    lines += [f"{section} {t('sources', lang)}", ""]
    for source in meta.sources:
        lines.append(f"- [{source.title}]({source.url}), {source.publisher}, {source.date}")
    return "\n".join(lines).rstrip() + "\n"


def _absolute(site_url: str, path: str) -> str:
    return f"{site_url.rstrip('/')}/{path}" if site_url else path


def llms_txt(library: Library, site_url: str = "") -> str:
    """The site's llms.txt: a title, a summary, and links to every case in Markdown."""
    lines = [
        f"# {t('site_title', 'en')}",
        "",
        f"> {t('library_intro', 'en')} {t('library_intro', 'ko')}",
        "",
        (
            f"{len(library.incidents)} cases, each taken from a public postmortem or paper and "
            "cited, written in Korean or English with a translation into the other. Every case "
            "is classified by the facets below; the whole library is in llms-full.txt, and as "
            "JSON in api/incidents.json and api/taxonomy.json."
        ),
        "",
        "Facets: "
        + "; ".join(f"{f.label('en')} ({f.label('ko')})" for f in library.taxonomy.facets)
        + ".",
        "",
    ]
    for lang in LANGS:
        lines += [f"## Cases in {name(lang, 'en')} ({name(lang, lang)})", ""]
        for incident in library.incidents:
            text = incident.text(lang)
            link = _absolute(site_url, urls.case(lang, incident.id).removesuffix(".html") + ".md")
            lines.append(f"- [{text.title}]({link}): {text.summary}")
        lines.append("")
    lines += [
        "## Optional",
        "",
        f"- [The whole library as Markdown]({_absolute(site_url, 'llms-full.txt')})",
        f"- [Incidents as JSON]({_absolute(site_url, 'api/incidents.json')})",
        f"- [Taxonomy as JSON]({_absolute(site_url, 'api/taxonomy.json')})",
    ]
    return "\n".join(lines).rstrip() + "\n"


def llms_full_txt(library: Library, site_url: str = "") -> str:
    """Every case in every language it is written in (the original first), as Markdown."""
    parts = [f"# {t('site_title', 'en')}\n\n> {t('library_intro', 'en')}\n"]
    for incident in library.incidents:
        for text in incident.texts:
            parts.append(case_markdown(library, incident, text.lang, site_url, depth=2))
    return "\n---\n\n".join(parts)


def markdown_files(library: Library, site_url: str = "") -> dict[str, str]:
    """Site-relative path -> Markdown: every case page's .md, llms.txt and llms-full.txt."""
    files = {}
    for incident in library.incidents:
        for lang in LANGS:
            path = urls.case(lang, incident.id).removesuffix(".html") + ".md"
            files[path] = case_markdown(library, incident, lang, site_url)
    files["llms.txt"] = llms_txt(library, site_url)
    files["llms-full.txt"] = llms_full_txt(library, site_url)
    return files
