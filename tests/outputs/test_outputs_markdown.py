"""The library as Markdown for language models (generator/outputs/markdown.py): one file per
case and language, llms.txt linking each of them, llms-full.txt with every text. In memory."""

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


def test_llms_txt_links_every_case_in_each_language():
    text = llms_txt(LIBRARY)
    assert text.startswith("# Incident Library\n\n> ")
    for lang in ("ko", "en"):
        for case in ("a", "b"):
            assert f"]({lang}/cases/{case}.md)" in text
    assert "[The whole library as Markdown](llms-full.txt)" in text


def test_llms_full_has_every_text_once_under_one_title():
    text = llms_full_txt(LIBRARY)
    assert text.count("\n## a title") == 2 and text.count("\n## b title") == 1
    assert text.count("\n# ") == 0 and text.startswith("# Incident Library")


def test_files_are_deterministic_and_beside_the_pages():
    files = markdown_files(LIBRARY)
    assert sorted(files) == sorted(
        ["llms.txt", "llms-full.txt"]
        + [f"{lang}/cases/{case}.md" for lang in ("ko", "en") for case in ("a", "b")]
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
    full = cmarkgfm.github_flavored_markdown_to_html(files["llms-full.txt"])
    # Every text of every case is a level-two heading of its own, with its sections below it.
    assert len(re.findall(r"<h2>", full)) == sum(len(i.texts) for i in library.incidents)
    assert re.findall(r"<h2>(.*?)</h2>", full)[:2] == ["b title en", "b title ko"]  # newest first
    assert full.count("<h3>Symptoms</h3>") == sum(
        1 for i in library.incidents for t in i.texts if t.lang == "en"
    )
    case = cmarkgfm.github_flavored_markdown_to_html(files["en/cases/a.md"])
    [title] = re.findall(r"<h1>(.*?)</h1>", case)
    assert re.sub(r"<[^>]+>", "", title) == (
        "[click](javascript:alert(1)) ![p](https://tracker.example/t.png)"
    )
    assert "<p>```</p>" in case
