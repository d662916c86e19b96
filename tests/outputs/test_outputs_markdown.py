"""The library as Markdown for language models (generator/outputs/markdown.py): one file per
case and language, per facet and per term, the full text a language at a time, and llms.txt
linking them. In memory."""

from __future__ import annotations

import re

from test_outputs_search_data import LIBRARY, TAX, make

from generator.model.incident import SECTION_HEADINGS, SECTIONS
from generator.model.library import build_library
from generator.outputs.markdown import case_markdown, llms_full_txt, llms_txt, markdown_files
from generator.outputs.search_data import text_payload
from generator.search.corpus import build_corpora


def test_a_case_in_korean_has_its_facts_sections_and_sources():
    text = case_markdown(LIBRARY, LIBRARY.incident("a"), "ko", "https://example.org/")
    assert text.startswith("# a title ko\n\na summary ko\n")
    assert (
        "- **구성 요소**: GPU 드라이버 (`gpu-driver`), InfiniBand 패브릭 (`infiniband-fabric`)"
        in text
    )
    assert "- **발생**: 2024-01" in text
    assert "https://example.org/ko/cases/a.html" in text
    headings = re.findall(r"^## (.+)$", text, re.MULTILINE)
    assert headings == [*(SECTION_HEADINGS["ko"][k] for k in SECTIONS), "출처"]
    assert "- [R](https://reports.acme.dev/r), P, 2024" in text


def test_an_untranslated_case_says_so_in_the_readers_language():
    text = case_markdown(LIBRARY, LIBRARY.incident("b"), "ko")
    assert text.startswith("# b title en\n")
    assert "> 이 사례는 아직 한국어로 번역되지 않아 원문(영어)으로 보여 드립니다." in text


def test_llms_txt_links_the_newest_cases_the_facets_and_each_languages_full_text():
    text = llms_txt(LIBRARY)
    assert text.startswith("# Incident Library\n\n> ")
    for lang in ("ko", "en"):
        for case in ("a", "b"):
            assert f"]({lang}/cases/{case}.md)" in text
        for facet in LIBRARY.taxonomy.facets:
            assert f"]({lang}/{facet.slug}/index.md)" in text
        assert f"]({lang}/llms-full.txt)" in text
    assert "(api/incidents.db)" in text


def test_llms_txt_stays_the_same_size_whatever_the_librarys():
    from test_outputs_search_data import TAX, make

    from generator.model.library import build_library
    from generator.outputs.markdown import NEWEST_IN_LLMS_TXT

    many = build_library(TAX, [make(f"c{n}", f"20{10 + n % 15}-01") for n in range(60)])
    text = llms_txt(many, "https://example.org/")
    assert text.count("/cases/") == 2 * NEWEST_IN_LLMS_TXT
    newest = [i.id for i in many.incidents[:NEWEST_IN_LLMS_TXT]]
    assert all(f"https://example.org/en/cases/{i}.md" in text for i in newest)


def test_the_full_text_is_one_file_per_language_every_case_once():
    for lang in ("ko", "en"):
        text = llms_full_txt(LIBRARY, lang)
        # b has no Korean text: its original stands in, with a notice.
        assert text.count("\n## a title") == 1 and text.count("\n## b title en") == 1
        assert text.count("\n# ") == 0 and text.startswith("# Incident Library")


def test_a_term_lists_its_cases_and_a_facet_its_terms_with_counts():
    files = markdown_files(LIBRARY)
    facet = LIBRARY.taxonomy.facet("component")
    index = files[f"ko/{facet.slug}/index.md"]
    for term in facet.terms:
        assert f"]({term.id}.md) (`{term.id}`, 사례 {LIBRARY.count(term)}건)" in index
    term = facet.terms[0]
    listing = files[f"en/{facet.slug}/{term.id}.md"]
    linked = [line for line in listing.splitlines() if line.startswith("- [")]
    assert [line.split("](")[1].split(")")[0] for line in linked] == [
        f"../cases/{i.id}.md" for i in LIBRARY.cases_with(term)
    ]


def test_files_are_deterministic_and_beside_the_pages():
    files = markdown_files(LIBRARY)
    taxonomy = LIBRARY.taxonomy
    assert sorted(files) == sorted(
        ["llms.txt"]
        + [f"{lang}/llms-full.txt" for lang in ("ko", "en")]
        + [f"{lang}/cases/{case}.md" for lang in ("ko", "en") for case in ("a", "b")]
        + [f"{lang}/{f.slug}/index.md" for lang in ("ko", "en") for f in taxonomy.facets]
        + [
            f"{lang}/{f.slug}/{t.id}.md"
            for lang in ("ko", "en")
            for f in taxonomy.facets
            for t in f.terms
        ]
    )
    assert files == markdown_files(LIBRARY)


def test_a_case_the_sources_do_not_date_says_so_in_each_language():
    """`occurred: unknown` is no date to print: the Markdown and the result card say it in words."""
    library = build_library(TAX, [make("u", "unknown")])
    corpora = build_corpora(library)
    for lang, fact, card in (
        ("en", "- **Occurred**: Unknown (the sources give no date)", "unknown"),
        ("ko", "- **발생**: 미상 (출처에 날짜가 없음)", "미상"),
    ):
        assert fact in case_markdown(library, library.incident("u"), lang)
        assert text_payload(library, library.incident("u"), corpora[lang])["date"] == card


def test_a_section_read_only_through_a_summary_says_so_above_its_text():
    library = build_library(TAX, [make("s", "2024-01", summary_only=("trigger",))])
    text = case_markdown(library, library.incident("s"), "en")
    note = (
        "> Some facts in this part come from a secondary summary of the source, not from the "
        "source itself; see the sources below."
    )
    assert text.count(note) == 1
    assert "## Trigger\n\n" + note + "\n\n**trigger**" in text
    assert "> 이 부분의 사실 가운데 일부는 출처 원문이 아니라" in case_markdown(
        library, library.incident("s"), "ko"
    )


def hostile_library():
    """Two cases whose values are Markdown syntax: a summary of backticks, a title with a
    script link and a remote image, a source title with an image, a body with raw HTML and a
    code block that is never closed."""
    from dataclasses import replace

    from test_outputs_search_data import TAX, make

    from generator.model.incident import CaseText, Section
    from generator.model.library import build_library

    first = make("a", "2024-01")
    source = first.meta.sources[0].model_copy(
        update={"title": "![pixel](https://tracker.example/p.png) [x](javascript:alert(1))"}
    )
    meta = first.meta.model_copy(update={"sources": (source,)})
    texts = tuple(
        CaseText(
            text.lang,
            "[click](javascript:alert(1)) ![p](https://tracker.example/t.png)",
            "```",
            tuple(
                Section(s.key, "<img src=https://tracker.example/h.png> `<ok>`\n```\nopen", s.line)
                for s in text.sections
            ),
            text.path,
        )
        for text in first.texts
    )
    return build_library(TAX, [replace(first, meta=meta, texts=texts), make("b", "2024-02")])


def test_values_are_text_and_no_case_swallows_the_next():
    """Rendered by a Markdown reader (cmark), the exports fetch nothing, link nowhere but http(s),
    and every case keeps its own headings: nothing a contributor writes becomes syntax."""
    import cmarkgfm

    library = hostile_library()
    files = markdown_files(library, "https://example.org/")
    for path, text in files.items():
        html = cmarkgfm.github_flavored_markdown_to_html(
            text, options=cmarkgfm.Options.CMARK_OPT_UNSAFE
        )
        assert "<img" not in html, path
        assert "javascript:" not in re.sub(r">[^<]*<", "><", html), path  # only as text
        hrefs = re.findall(r'href="([^"]*)"', html)
        assert all(h.startswith(("https://", "http://", "mailto:", "ko/", "en/")) for h in hrefs)
    full = cmarkgfm.github_flavored_markdown_to_html(files["en/llms-full.txt"])
    # Every case is a level-two heading of its own, with its sections below it.
    assert len(re.findall(r"<h2>", full)) == len(library.incidents)
    assert re.findall(r"<h2>(.*?)</h2>", full)[:1] == ["b title en"]  # newest first
    assert full.count("<h3>Symptoms</h3>") == len(library.incidents)
    case = cmarkgfm.github_flavored_markdown_to_html(files["en/cases/a.md"])
    [title] = re.findall(r"<h1>(.*?)</h1>", case)
    assert re.sub(r"<[^>]+>", "", title) == (
        "[click](javascript:alert(1)) ![p](https://tracker.example/t.png)"
    )
    assert "<p>```</p>" in case
