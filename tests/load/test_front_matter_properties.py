"""Property tests of reading and checking incident files (generator/load.py, validate.py).

For any front matter hypothesis can build (mappings, lists, scalars, text that is barely YAML)
and any body, `check_project` returns diagnostics instead of raising, and every diagnostic
points inside the file. A valid incident stays valid, with the same fields, whatever the key
order, quoting, list style, comments, line ends or byte order mark.
"""

from __future__ import annotations

import tempfile
from datetime import date, datetime
from pathlib import Path

import yaml
from conftest import BODY_EN, BODY_KO, TAXONOMY, TODAY, incident_text, translation_text
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from generator.load.front_matter import Position, _LineIndex
from generator.load.project import ProjectPaths
from generator.model.incident import IncidentMeta, split_sections
from generator.pipeline.check import check_project

# Bounded so the module runs in about 15 s; database=None leaves no .hypothesis folder behind.
SETTINGS = settings(
    max_examples=200,
    deadline=None,
    database=None,
    suppress_health_check=[HealthCheck.too_slow],
)
ORIGINAL = "incidents/acme-gpu-outage.md"
TRANSLATION = "incidents/acme-gpu-outage.ko.md"


def check(files: dict[str, str | bytes]):
    """Write `files` into a fresh project with the test taxonomy and check it."""
    with tempfile.TemporaryDirectory() as folder:
        root = Path(folder)
        (root / "taxonomy.yml").write_text(TAXONOMY, encoding="utf-8")
        (root / "incidents").mkdir()
        for name, content in files.items():
            data = content.encode("utf-8") if isinstance(content, str) else content
            (root / name).write_bytes(data)
        return check_project(ProjectPaths.at(root), TODAY)


def assert_inside_files(checked, files: dict[str, str | bytes]) -> None:
    """Every diagnostic names a written file and a line (and column) that exists in it."""
    for diagnostic in checked.diagnostics:
        assert diagnostic.path in files, diagnostic
        content = files[diagnostic.path]
        if isinstance(content, bytes):
            content = content.decode("utf-8", errors="replace")
        lines = content.removeprefix("\ufeff").replace("\r\n", "\n").replace("\r", "\n")
        lines = lines.split("\n")
        assert 1 <= diagnostic.line <= len(lines), diagnostic
        assert 1 <= diagnostic.col <= len(lines[diagnostic.line - 1]) + 1, diagnostic
        assert "\n" not in diagnostic.format(), diagnostic


# Field names and values the validator knows, mixed with anything, so that generated front
# matter reaches past "unknown field" into the checks of each field.
FIELDS = [*IncidentMeta.model_fields, "url", "date", "gpus", "sumary", "<<", "", "?"]
KNOWN_VALUES = [
    "acme-gpu-outage",
    "../../etc/passwd",
    "en",
    "ko",
    "2024-03-01",
    "2024-13",
    "2999-01-01",
    "gpu-failure",
    "gpu-failur",
    "ai-infra",
    "acme",
    "https://reports.acme.dev/postmortem",
    "javascript:alert(1)",
    "<b>x</b>",
    "TODO",
]
scalars = st.one_of(
    st.none(),
    st.booleans(),
    st.integers(),
    st.floats(),
    st.text(max_size=30),
    st.sampled_from(KNOWN_VALUES),
    st.dates(min_value=date(1, 1, 1)),
    st.datetimes(min_value=datetime(1, 1, 1)),
)
keys = st.one_of(st.sampled_from(FIELDS), st.text(max_size=12))
values = st.recursive(
    scalars,
    lambda inner: st.one_of(st.lists(inner, max_size=4), st.dictionaries(keys, inner, max_size=4)),
    max_leaves=25,
)
front_matter_data = st.one_of(st.dictionaries(keys, values, max_size=15), values)
# Text that is nearly YAML: indicators, fences, tabs and line breaks in any order.
YAML_PIECES = [
    *"ab1: -[]{}&*!|>'\"#\t\n,?%@`<=~.\\",
    *("---", "...", "id: ", "cause:", "2024-03-01", "\u2028", "é", "\x07", "\r\n", "\ufeff"),
]
yamlish = st.lists(st.sampled_from(YAML_PIECES), max_size=40).map("".join)
body_lines = st.sampled_from(
    [
        *(f"## {h}" for h in ("Symptoms", "Trigger", "Detection", "Actions", "Follow-ups")),
        "## Lessons",
        "## 증상",
        "## 교훈",
        "## ",
        "##",
        "# Title",
        "### Detail",
        "```",
        "~~~",
        "- item",
        "Text.",
        "TODO",
        "---",
        "",
    ]
)
bodies = st.one_of(
    st.text(max_size=200), st.lists(st.one_of(body_lines, st.text(max_size=20))).map("\n".join)
)


def dump(data, style: dict) -> str:
    return yaml.safe_dump(data, **style)


dump_styles = st.fixed_dictionaries(
    {
        "allow_unicode": st.booleans(),
        "default_flow_style": st.sampled_from([False, True, None]),
        "sort_keys": st.booleans(),
    }
)


@SETTINGS
@given(
    data=front_matter_data,
    style=dump_styles,
    body=bodies,
    name=st.sampled_from([ORIGINAL, TRANSLATION]),
)
def test_any_dumped_front_matter_is_reported_inside_the_file(data, style, body, name):
    files = {name: f"---\n{dump(data, style)}---\n{body}"}
    assert_inside_files(check(files), files)


@SETTINGS
@given(front_matter=st.one_of(yamlish, st.text(max_size=60)), body=bodies)
def test_any_text_as_front_matter_is_reported_inside_the_file(front_matter, body):
    files = {ORIGINAL: f"---\n{front_matter}\n---\n{body}", TRANSLATION: translation_text()}
    assert_inside_files(check(files), files)


@SETTINGS
@given(content=st.one_of(st.binary(max_size=200), yamlish.map(lambda t: t.encode("utf-8"))))
def test_any_bytes_are_reported_inside_the_file(content):
    files = {ORIGINAL: content}
    assert_inside_files(check(files), files)


@SETTINGS
@given(body=bodies)
def test_section_split_keeps_every_line(body):
    """Splitting never loses or invents text: headings plus section text give back the body."""
    preamble, parts = split_sections(body, 5)
    lines = [line.strip() for line in body.split("\n") if line.strip()]
    rebuilt = [line.strip() for line in preamble.split("\n") if line.strip()]
    for heading, text in parts:
        assert 5 <= heading.line < 5 + body.count("\n") + 1
        rebuilt += [line.strip() for line in text.split("\n") if line.strip()]
    assert len(rebuilt) == len(lines) - len(parts)


def test_section_split_is_linear_on_hostile_lines():
    import time

    started = time.perf_counter()
    preamble, parts = split_sections(
        "## Trigger" + " " * 500_000 + "x" + " " * 500_000 + "\ntext", 1
    )
    assert time.perf_counter() - started < 1.0
    assert [h.text for h, _ in parts] == ["Trigger" + " " * 500_000 + "x"]


# -- a valid incident stays valid under harmless changes ------------------------------------

STRINGS = {
    "id": "acme-gpu-outage",
    "title": "Acme: GPUs fall off the bus",
    "summary": "Driver updates left GPUs unusable.",
    "lang": "en",
    "organization": "acme",
}
DATES = {"occurred": "2024-03-01", "published": "2024-04-02"}
LISTS = {
    "domain": ["ai-infra"],
    "symptom": ["training-job-failure"],
    "cause": ["gpu-failure"],
    "component": ["gpu-driver", "infiniband-fabric"],
    "contributing_factor": ["unverified-assumption"],
}
SCALE = {"gpus": 4088, "hosts": 511}
SOURCE = {
    "url": "https://reports.acme.dev/postmortem",
    "title": "Postmortem",
    "publisher": "Acme",
    "date": "2024-04-02",
}
FIELD_NAMES = [*STRINGS, *DATES, *LISTS, "scale", "sources"]
EXPECTED = (
    check({ORIGINAL: incident_text(), TRANSLATION: translation_text()}).result.incidents[0].meta
)


def _plain_ok(value: str, flow: bool) -> bool:
    unsafe = ": " in value or value.endswith(":") or value[:1] in "&*!|>'\"%@`#-?[]{},"
    return not unsafe and not (flow and any(c in value for c in ",[]{}:"))


def _quote(value: str, style: str, flow: bool = False) -> str:
    if style == "plain" and _plain_ok(value, flow):
        return value
    if style == "single":
        return "'" + value.replace("'", "''") + "'"
    return '"' + value.replace("\\", "\\\\").replace('"', '\\"') + '"'


quotes = st.sampled_from(["plain", "single", "double"])


@st.composite
def harmless_variants(draw) -> str:
    """The valid incident's front matter, written in one of the many equivalent ways."""
    lines: list[str] = []
    for name in draw(st.permutations(FIELD_NAMES)):
        if draw(st.booleans()):
            lines.append(draw(st.sampled_from(["", "# a comment", "   ", "#"])))
        if name in STRINGS:
            lines.append(f"{name}: {_quote(STRINGS[name], draw(quotes))}")
        elif name in DATES:
            lines.append(f"{name}: {_quote(DATES[name], draw(quotes))}")  # plain: a YAML date
        elif name in LISTS:
            items = [_quote(item, draw(quotes), flow=True) for item in LISTS[name]]
            if draw(st.booleans()):
                lines.append(f"{name}: [{', '.join(items)}]")
            else:
                indent = draw(st.sampled_from(["", "  ", "    "]))
                lines.append(f"{name}:")
                lines.extend(f"{indent}- {item}" for item in items)
        elif name == "scale":
            pairs = [f"{k}: {SCALE[k]}" for k in draw(st.permutations(list(SCALE)))]
            if draw(st.booleans()):
                lines.append(f"scale: {{{', '.join(pairs)}}}")
            else:
                lines.append("scale:")
                lines.extend(f"  {pair}" for pair in pairs)
        else:
            order = draw(st.permutations(list(SOURCE)))
            if draw(st.booleans()):
                pairs = [f"{k}: {_quote(SOURCE[k], draw(quotes), flow=True)}" for k in order]
                lines.append(f"sources: [{{{', '.join(pairs)}}}]")
            else:
                pairs = [f"{k}: {_quote(SOURCE[k], draw(quotes))}" for k in order]
                lines.append("sources:")
                lines.append(f"  - {pairs[0]}")
                lines.extend(f"    {pair}" for pair in pairs[1:])
    text = "---\n" + "\n".join(lines) + "\n---\n\n" + BODY_EN.format(name="acme-gpu-outage")
    if draw(st.booleans()):
        text = text.replace("\n", "\r\n")
    if draw(st.booleans()):
        text = "\ufeff" + text
    return text


@SETTINGS
@given(original=harmless_variants())
def test_valid_incident_stays_valid_under_harmless_changes(original):
    translation = translation_text(body=BODY_KO)
    checked = check({ORIGINAL: original, TRANSLATION: translation})
    assert [d.format() for d in checked.diagnostics] == []
    (incident,) = checked.result.incidents
    assert incident.meta == EXPECTED


def _both_ways(text: str) -> None:
    """Each mark read from its own line and column sits where its index says it does."""
    index = _LineIndex(text, first_line=2)
    if not index.marks_agree:
        return
    try:
        events = list(yaml.parse(text, Loader=yaml.CSafeLoader))
    except yaml.YAMLError:
        return
    for event in events:
        for mark in (event.start_mark, event.end_mark):
            assert index.mark(mark) == Position(*index.position(mark.index)), (text, mark)


@SETTINGS
@given(data=front_matter_data, style=dump_styles)
def test_a_marks_own_line_and_column_agree_with_its_index(data, style):
    _both_ways(dump(data, style))


@SETTINGS
@given(text=st.one_of(yamlish, st.text(max_size=80)))
def test_a_marks_own_line_and_column_agree_with_its_index_in_any_text(text):
    _both_ways(text)
    _both_ways(text + "\n")
