"""Incident prose to HTML (generator/render/prose.py): raw HTML is shown as text, only http(s) and
mailto links stay links, images are dropped to their alt text, and the Markdown contributors
write (paragraphs, emphasis, lists, code, quotes, sub-headings) is kept."""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from selectolax.lexbor import LexborHTMLParser as HTMLParser

from generator.render.prose import ALLOWED_TAGS, to_html


def tags(html: str) -> set[str]:
    return {node.tag for node in HTMLParser(html).body.traverse()} - {"body", "-text"}


class TestRawHtml:
    @pytest.mark.parametrize(
        "markdown",
        [
            "<script>alert(1)</script>",
            "a <b>bold</b> word",
            "<div>block</div>",
            '<img src="x" onerror="alert(1)">',
            '<a href="javascript:alert(1)">x</a>',
            "<iframe src=https://evil.example></iframe>",
            "<!-- a comment -->",
            "<style>body{display:none}</style>",
        ],
    )
    def test_shown_as_text(self, markdown):
        html = to_html(markdown)
        assert tags(html) == {"p"}
        assert HTMLParser(html).body.text() == markdown

    def test_inside_a_list_too(self):
        html = to_html("- <script>alert(1)</script>\n- ok")
        assert tags(html) == {"ul", "li"}
        assert "&lt;script&gt;" in html

    def test_entities_stay_entities(self):
        assert to_html("AT&amp;T and &lt;tag&gt;") == "<p>AT&amp;T and &lt;tag&gt;</p>"


class TestLinks:
    @pytest.mark.parametrize(
        ("markdown", "href"),
        [
            ("[report](https://reports.acme.dev/r)", "https://reports.acme.dev/r"),
            ("[report](http://reports.acme.dev/r)", "http://reports.acme.dev/r"),
            ("[HTTPS](HTTPS://EXAMPLE.COM)", "HTTPS://EXAMPLE.COM"),
            ("[mail](mailto:sre@reports.acme.dev)", "mailto:sre@reports.acme.dev"),
            ("<https://reports.acme.dev/auto>", "https://reports.acme.dev/auto"),
            # A "<" in an address is the address's (%3C), not the stand-in raw HTML is kept as.
            ("[q](https://reports.acme.dev/q?a<b)", "https://reports.acme.dev/q?a%3Cb"),
        ],
    )
    def test_http_and_mailto_stay_links(self, markdown, href):
        link = HTMLParser(to_html(markdown)).css_first("a")
        assert link is not None
        assert link.attributes["href"] == href
        assert link.attributes["rel"] == "noopener noreferrer"

    @pytest.mark.parametrize(
        "markdown",
        [
            "[x](javascript:alert(1))",
            "[x](JaVaScRiPt:alert(1))",
            "[x](data:text/html,hi)",
            "[x](vbscript:msgbox)",
            "[x](/relative/path)",
            "[x](../up.html)",
            "[x](#anchor)",
            "[x](ftp://reports.acme.dev/file)",
            "[x]( javascript:alert(1))",
        ],
    )
    def test_other_links_become_plain_text(self, markdown):
        html = to_html(markdown)
        tree = HTMLParser(html)
        assert tree.css("a") == []
        assert tree.body.text() == "x"
        assert "href" not in html

    def test_a_link_title_is_kept(self):
        link = HTMLParser(to_html('[r](https://reports.acme.dev "The report")')).css_first("a")
        assert link.attributes["title"] == "The report"

    def test_reference_links_follow_the_same_rule(self):
        html = to_html(
            "[good][1] and [bad][2]\n\n[1]: https://reports.acme.dev\n[2]: javascript:alert(1)"
        )
        assert [a.attributes["href"] for a in HTMLParser(html).css("a")] == [
            "https://reports.acme.dev"
        ]
        assert HTMLParser(html).body.text() == "good and bad"


class TestImages:
    def test_an_image_alone_becomes_its_alt_text(self):
        assert to_html("![GPU diagram](https://reports.acme.dev/d.png)") == "<p>GPU diagram</p>"

    def test_an_image_without_alt_text_disappears(self):
        assert to_html("![](https://reports.acme.dev/d.png)") == "<p></p>"

    def test_no_image_is_fetched(self):
        html = to_html(
            "Before ![a](https://reports.acme.dev/a.png) ![b](data:image/png;base64,AA==)"
        )
        assert "<img" not in html
        assert "reports.acme.dev" not in html

    def test_the_alt_text_takes_the_images_place(self):
        assert to_html("See ![the diagram](d.png) for details.") == (
            "<p>See the diagram for details.</p>"
        )
        assert (
            to_html("**Bold** then ![alt](x.png) end")
            == "<p><strong>Bold</strong> then alt end</p>"
        )


class TestMarkdownKept:
    def test_paragraphs_and_emphasis(self):
        html = to_html("One *two* **three** `four`.\n\nSecond paragraph.")
        assert html == (
            "<p>One <em>two</em> <strong>three</strong> <code>four</code>.</p>\n"
            "<p>Second paragraph.</p>"
        )

    def test_lists(self):
        html = to_html("- drained the hosts\n- replaced a GPU\n\n1. first\n2. second")
        assert html == (
            "<ul>\n<li>drained the hosts</li>\n<li>replaced a GPU</li>\n</ul>\n"
            "<ol>\n<li>first</li>\n<li>second</li>\n</ol>"
        )

    def test_a_numbered_list_may_start_elsewhere(self):
        assert '<ol start="3">' in to_html("3. third\n4. fourth")

    def test_inline_code_is_escaped_not_run(self):
        assert (
            to_html("run `kubectl get <pods>`")
            == "<p>run <code>kubectl get &lt;pods&gt;</code></p>"
        )

    def test_indented_code_block(self):
        html = to_html("Run:\n\n    nvidia-smi -q\n    echo '<ok>'")
        assert html == "<p>Run:</p>\n<pre><code>nvidia-smi -q\necho '&lt;ok&gt;'\n</code></pre>"

    def test_fenced_code_block(self):
        html = to_html("```\nkubectl drain node-1\n## not a heading\n```")
        tree = HTMLParser(html)
        assert tree.css_first("pre > code") is not None
        assert tree.css_first("pre > code").text() == "kubectl drain node-1\n## not a heading\n"

    def test_sub_headings_and_quotes(self):
        html = to_html("### What changed\n\n> The driver was updated.")
        assert html == (
            "<h3>What changed</h3>\n<blockquote>\n<p>The driver was updated.</p>\n</blockquote>"
        )

    def test_headings_of_levels_above_three_are_dropped_to_text(self):
        # a section's own heading is the page's <h2>; prose cannot add another, nor an <h1>
        html = to_html("# Title\n\n## Section\n\ntext")
        assert tags(html) == {"p"}
        assert "Title" in html and "Section" in html

    def test_nothing_outside_the_allowlist(self):
        sample = (
            "### a\n\n*b* **c** `d`\n\n- e\n\n1. f\n\n> g\n\n    h\n\n---\n\n"
            "[i](https://reports.acme.dev) ![j](k.png) <u>l</u> line  \nbreak"
        )
        assert tags(to_html(sample)) <= ALLOWED_TAGS
        assert {
            "h3",
            "em",
            "strong",
            "code",
            "ul",
            "ol",
            "li",
            "blockquote",
            "pre",
            "hr",
            "a",
            "br",
        } <= tags(to_html(sample))

    def test_the_converter_is_reset_between_calls(self):
        first = to_html("[a][1]\n\n[1]: https://reports.acme.dev/1")
        assert "https://reports.acme.dev/1" in first
        assert "reports.acme.dev" not in to_html("[a][1]")


def test_a_section_too_deeply_nested_leaves_the_next_sections_intact():
    """Markdown's recursion gives out inside thousands of nested list markers; the section shows
    as text, and the converter it left inside a list is not used again: before, every later
    section of the build lost its paragraphs (`Jobs stopped.` without `<p>`)."""
    assert to_html("Jobs stopped.") == "<p>Jobs stopped.</p>"
    assert "- - -" in to_html("- " * 5000 + "x")
    assert to_html("Jobs stopped.") == "<p>Jobs stopped.</p>"
    assert to_html("- one\n- two") == "<ul>\n<li>one</li>\n<li>two</li>\n</ul>"


PIECES = st.sampled_from(
    [
        "<script>alert(1)</script>",
        "<a href='javascript:x'>",
        "</a>",
        "<img src=x onerror=y>",
        "<https://reports.acme.dev/a>",
        "<javascript:alert(1)>",
        "<sre@acme.dev>",
        "[a](",
        "javascript:alert(1))",
        "[b](https://reports.acme.dev/b)",
        "![c](https://x.dev/c.png)",
        "`<b>`",
        "```\n<i>\n```",
        "# ",
        "## ",
        "### ",
        "- ",
        "1. ",
        "> ",
        "\n",
        "\n\n",
        "*",
        "_",
        "&lt;",
        "&amp;",
        "\ue000",
        "[",
        "]",
        "(",
        ")",
        "<",
        ">",
        '"',
        "'",
        "x",
        "한글",
        " ",
    ]
)


@given(st.lists(PIECES, max_size=40).map("".join))
@settings(max_examples=400, deadline=None)
def test_whatever_is_written_only_allowed_markup_comes_out(text):
    """Any mix of Markdown, raw HTML and link syntax: only allowlisted tags, only http(s) and
    mailto addresses, no attribute beyond the allowlist (a code fence's info string, which
    cmark writes as a class, is dropped with it)."""
    tree = HTMLParser(to_html(text))
    for node in tree.body.traverse():
        if node.tag in ("body", "-text"):
            continue
        assert node.tag in ALLOWED_TAGS, node.tag
        allowed = {"a": {"href", "title", "rel"}, "ol": {"start"}}.get(node.tag, set())
        assert set(node.attributes) <= allowed, (node.tag, node.attributes)
        if node.tag == "a":
            assert node.attributes["href"].lower().startswith(("http://", "https://", "mailto:"))
