"""Reading files: encodings, front matter fences and YAML with positions (generator/load.py)."""

from __future__ import annotations

import pytest

from generator.load.front_matter import LoadError, decode_text, parse_yaml, split_front_matter


def _errors(call) -> list[str]:
    with pytest.raises(LoadError) as info:
        call()
    return [d.format() for d in info.value.diagnostics]


def test_bom_and_crlf_are_accepted():
    source = decode_text(b"\xef\xbb\xbf---\r\nid: x\r\n---\r\nbody\r\n", "a.md")
    parsed = split_front_matter(source)
    assert parsed.front_matter.data == {"id": "x"}
    assert parsed.body == "body\n"
    assert parsed.body_line == 4


def test_invalid_utf8_names_line_and_column():
    raw = b"---\nid: x\ntitle: caf" + b"\xe9\n---\n"
    assert _errors(lambda: decode_text(raw, "a.md")) == [
        "a.md:3:11: file is not valid UTF-8 (byte 0xe9); save it as UTF-8"
    ]


def test_binary_file_is_rejected():
    assert _errors(lambda: decode_text(b"\x00\x01\x02", "a.md")) == [
        "a.md:1:1: file contains NUL bytes; is it binary?"
    ]


def test_empty_file():
    source = decode_text(b"  \n", "a.md")
    assert _errors(lambda: split_front_matter(source)) == [
        "a.md:1:1: file is empty; start it with '---' front matter"
    ]


def test_missing_front_matter():
    source = decode_text(b"# Title\n", "a.md")
    assert _errors(lambda: split_front_matter(source)) == [
        "a.md:1:1: missing front matter: the first line must be '---'"
    ]


def test_unclosed_front_matter():
    source = decode_text(b"---\nid: x\n", "a.md")
    assert _errors(lambda: split_front_matter(source)) == [
        "a.md:1:1: front matter is not closed: add a line '---' after the last field"
    ]


def test_yaml_syntax_error_points_at_the_file_line():
    source = decode_text(b"---\nid: x\ntitle: [unclosed\nlang: en\n---\n", "a.md")
    (message,) = _errors(lambda: split_front_matter(source))
    assert message == "a.md:4:5: invalid YAML: did not find expected ',' or ']'"


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        (  # PyYAML: did not find expected '-' indicator
            "sources:\n  - url: https://a.dev\n    title: x\n   publisher: y\n",
            "a.md:5:4: invalid YAML: wrong indentation: this line is indented by 3 spaces, but "
            "the fields it belongs with are indented by 4 spaces (line 4); indent it by 4 spaces",
        ),
        (  # PyYAML: mapping values are not allowed here
            "scale:\n  gpus: 1\n    hosts: 2\n",
            "a.md:4:5: invalid YAML: wrong indentation: this line is indented by 4 spaces, but "
            "the fields it belongs with are indented by 2 spaces (line 3); indent it by 2 spaces",
        ),
        (  # PyYAML: did not find expected key
            "sources:\n  - url: a\n    title: b\n - url: c\n",
            "a.md:5:2: invalid YAML: wrong indentation: this line is indented by 1 space, but "
            "the list items it belongs with are indented by 2 spaces (line 3); indent it by 2 "
            "spaces",
        ),
        (
            "id: x\n title: y\n",
            "a.md:3:2: invalid YAML: wrong indentation: this line is indented by 1 space, but "
            "the fields it belongs with start in column 1 (line 2); start it in column 1 too",
        ),
        (  # well indented: the problem is something else, and PyYAML's words stay
            "id: x\ntitle: [y\n",
            "a.md:4:1: invalid YAML: did not find expected ',' or ']'",
        ),
    ],
)
def test_a_misindented_line_is_told_what_its_indentation_should_be(text, expected):
    assert _errors(lambda: parse_yaml(text, "a.md", first_line=2)) == [expected]


def test_tabs_get_a_hint():
    source = decode_text(b"---\nid: x\nscale:\n\tgpus: 1\n---\n", "a.md")
    (message,) = _errors(lambda: split_front_matter(source))
    assert message.startswith("a.md:4:1: invalid YAML")
    assert "use spaces, not tabs" in message


def test_duplicate_keys_are_errors():
    assert _errors(lambda: parse_yaml("id: a\ntitle: t\nid: b\n", "a.md", first_line=2)) == [
        "a.md:4:1: id: duplicate key (first set on line 2)"
    ]


def test_only_a_plain_merge_key_is_refused():
    assert _errors(lambda: parse_yaml("a: 1\n<<: {b: 2}\n", "a.md")) == [
        "a.md:2:1: YAML merge keys (<<) are not allowed; write values out"
    ]
    for quoted in ('"<<"', "'<<'"):
        assert parse_yaml(f"{quoted}: x\n", "a.md").data == {"<<": "x"}


def test_aliases_are_rejected_before_they_can_expand():
    bomb = "a: &a [x, x, x]\nb: &b [*a, *a, *a]\nc: [*b, *b, *b]\n"
    messages = _errors(lambda: parse_yaml(bomb, "a.md"))
    assert (
        messages[0] == "a.md:2:8: YAML anchors and aliases (&, *) are not allowed; write values out"
    )
    assert len(messages) == 6


def test_positions_of_values_and_keys():
    doc = parse_yaml("id: a\nsources:\n  - url: u\n    title: t\n", "a.md", first_line=2)
    assert (
        doc.position(("sources", 0, "title")).line,
        doc.position(("sources", 0, "title")).col,
    ) == (5, 12)
    assert doc.position(("sources", 0, "title"), key=True).col == 5
    # a missing field is placed at its nearest existing parent
    assert doc.position(("sources", 0, "date")).line == 4


def test_dates_are_parsed_and_deep_nesting_is_bounded():
    doc = parse_yaml("d: 2024-01-02\n", "a.md")
    assert str(doc.data["d"]) == "2024-01-02"
    deep = "a: " + "[" * 12 + "]" * 12 + "\n"
    assert "nested more than" in _errors(lambda: parse_yaml(deep, "a.md"))[0]
