"""Read incident files and the taxonomy: bytes -> text -> front matter + body, with positions.

Together with project.py this is the input edge of the core. Everything it returns carries the line
and column of every YAML value, so later stages can point at the exact place a contributor erred.
"""

from __future__ import annotations

import re
from collections.abc import Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import yaml

from .diagnostics import Diagnostic

try:  # libyaml is several times faster; PyYAML's wheels ship it.
    _Loader: type = yaml.CSafeLoader
except AttributeError:  # pragma: no cover - only on builds without libyaml
    _Loader = yaml.SafeLoader

Loc = tuple[str | int, ...]
MAX_FILE_BYTES = 1_000_000
MAX_YAML_NODES = 5_000
MAX_YAML_DEPTH = 8
_FENCE = re.compile(r"^---[ \t]*$")
_CLOSE = re.compile(r"^(---|\.\.\.)[ \t]*$")


@dataclass(frozen=True)
class Position:
    """1-based line and column in the file on disk."""

    line: int
    col: int


@dataclass(frozen=True)
class YamlDocument:
    """Plain Python data from YAML plus where each value (and each mapping key) sits in the file."""

    data: Any
    values: dict[Loc, Position] = field(default_factory=dict)
    keys: dict[Loc, Position] = field(default_factory=dict)

    def position(self, loc: Loc, *, key: bool = False) -> Position:
        """The position of `loc`, or of its nearest ancestor that exists."""
        table = self.keys if key else self.values
        probe = tuple(loc)
        while probe:
            if probe in table:
                return table[probe]
            if probe in self.values:
                return self.values[probe]
            probe = probe[:-1]
        return self.values.get((), Position(1, 1))


@dataclass(frozen=True)
class SourceText:
    """A decoded file: its display path and text with line ends normalised to `\\n`."""

    path: str
    text: str


@dataclass(frozen=True)
class MarkdownFile:
    """A Markdown file split into parsed front matter and body."""

    path: str
    front_matter: YamlDocument
    body: str
    body_line: int  # line number in the file where the body's first line sits


class LoadError(Exception):
    """Raised with the diagnostics that stop a file from being read at all."""

    def __init__(self, diagnostics: list[Diagnostic]):
        super().__init__("; ".join(d.format() for d in diagnostics))
        self.diagnostics = diagnostics


def read_text(path: Path, display: str) -> SourceText:
    """Decode a file as UTF-8 (a BOM and CRLF line ends are accepted and normalised)."""
    try:
        size = path.stat().st_size
    except OSError as exc:
        raise LoadError(
            [Diagnostic(display, 1, 1, "", f"cannot read file: {exc.strerror}")]
        ) from None
    if size > MAX_FILE_BYTES:
        message = f"file is {size:,} bytes; an incident file may be at most {MAX_FILE_BYTES:,}"
        raise LoadError([Diagnostic(display, 1, 1, "", message)])
    raw = path.read_bytes()
    return decode_text(raw, display)


def decode_text(raw: bytes, display: str) -> SourceText:
    if raw.startswith(b"\xef\xbb\xbf"):
        raw = raw[3:]
    try:
        text = raw.decode("utf-8")
    except UnicodeDecodeError as exc:
        line = raw[: exc.start].count(b"\n") + 1
        col = exc.start - (raw.rfind(b"\n", 0, exc.start) + 1) + 1
        message = f"file is not valid UTF-8 (byte 0x{raw[exc.start]:02x}); save it as UTF-8"
        raise LoadError([Diagnostic(display, line, col, "", message)]) from None
    if "\x00" in text:
        line = text[: text.index("\x00")].count("\n") + 1
        raise LoadError(
            [Diagnostic(display, line, 1, "", "file contains NUL bytes; is it binary?")]
        )
    text = text.replace("\r\n", "\n").replace("\r", "\n")
    return SourceText(display, text)


def split_front_matter(source: SourceText) -> MarkdownFile:
    """Split `---` fenced YAML front matter from the Markdown body and parse it with positions."""
    path, text = source.path, source.text
    if not text.strip():
        raise LoadError(
            [Diagnostic(path, 1, 1, "", "file is empty; start it with '---' front matter")]
        )
    lines = text.split("\n")
    if not _FENCE.match(lines[0]):
        message = "missing front matter: the first line must be '---'"
        raise LoadError([Diagnostic(path, 1, 1, "", message)])
    for index in range(1, len(lines)):
        if _CLOSE.match(lines[index]):
            break
    else:
        message = "front matter is not closed: add a line '---' after the last field"
        raise LoadError([Diagnostic(path, 1, 1, "", message)])
    yaml_text = "\n".join(lines[1:index]) + "\n"
    document = parse_yaml(yaml_text, path, first_line=2)
    body = "\n".join(lines[index + 1 :])
    return MarkdownFile(path, document, body, body_line=index + 2)


def parse_yaml(text: str, path: str, first_line: int = 1) -> YamlDocument:
    """Parse YAML into data with positions; reject aliases, duplicate keys and huge documents."""
    try:
        node = yaml.compose(text, Loader=_Loader)
    except yaml.MarkedYAMLError as exc:
        mark = exc.problem_mark or exc.context_mark
        line = (mark.line if mark else 0) + first_line
        col = (mark.column if mark else 0) + 1
        problem = exc.problem or exc.context or "invalid YAML"
        lines = text.split("\n")
        offending = lines[mark.line] if mark and mark.line < len(lines) else ""
        hint = "; YAML indentation must use spaces, not tabs" if "\t" in offending else ""
        raise LoadError(
            [Diagnostic(path, line, col, "", f"invalid YAML: {problem}{hint}")]
        ) from None
    except yaml.YAMLError as exc:
        raise LoadError([Diagnostic(path, first_line, 1, "", f"invalid YAML: {exc}")]) from None
    if node is None:
        return YamlDocument({}, {(): Position(first_line, 1)})
    builder = _Builder(path, first_line)
    data = builder.build(node, (), 0)
    if builder.aliased:
        raise LoadError(_alias_errors(text, path, first_line))
    if builder.errors:
        raise LoadError(builder.errors)
    return YamlDocument(data, builder.values, builder.keys)


def _alias_errors(text: str, path: str, first_line: int) -> list[Diagnostic]:
    message = "YAML anchors and aliases (&, *) are not allowed; write values out"
    out = []
    for event in yaml.parse(text, Loader=_Loader):
        if isinstance(event, yaml.AliasEvent):
            mark = event.start_mark
            out.append(Diagnostic(path, mark.line + first_line, mark.column + 1, "", message))
    return out or [Diagnostic(path, first_line, 1, "", message)]


class _Builder:
    """Turns a composed YAML node tree into Python data, recording each node's position."""

    def __init__(self, path: str, first_line: int):
        self.path = path
        self.first_line = first_line
        self.values: dict[Loc, Position] = {}
        self.keys: dict[Loc, Position] = {}
        self.errors: list[Diagnostic] = []
        self.seen: set[int] = set()
        self.aliased = False
        self.count = 0
        self.constructor = yaml.constructor.SafeConstructor()

    def _pos(self, node: yaml.Node) -> Position:
        return Position(node.start_mark.line + self.first_line, node.start_mark.column + 1)

    def _error(self, node: yaml.Node, loc: Loc, message: str) -> None:
        from .diagnostics import field_name

        pos = self._pos(node)
        self.errors.append(Diagnostic(self.path, pos.line, pos.col, field_name(loc), message))

    def build(self, node: yaml.Node, loc: Loc, depth: int) -> Any:
        self.count += 1
        if self.count > MAX_YAML_NODES:
            if self.count == MAX_YAML_NODES + 1:
                self._error(node, loc, f"front matter has more than {MAX_YAML_NODES} values")
            return None
        if id(node) in self.seen:
            # An alias: the composer hands back the anchored node itself. Stop here, before an
            # alias bomb can expand, and let _alias_errors find where the aliases were written.
            self.aliased = True
            return None
        self.seen.add(id(node))
        if depth > MAX_YAML_DEPTH:
            self._error(node, loc, f"values are nested more than {MAX_YAML_DEPTH} levels deep")
            return None
        self.values[loc] = self._pos(node)
        if isinstance(node, yaml.MappingNode):
            return self._mapping(node, loc, depth)
        if isinstance(node, yaml.SequenceNode):
            return [self.build(item, (*loc, i), depth + 1) for i, item in enumerate(node.value)]
        return self._scalar(node, loc)

    def _mapping(self, node: yaml.MappingNode, loc: Loc, depth: int) -> dict[Any, Any]:
        result: dict[Any, Any] = {}
        for key_node, value_node in node.value:
            if key_node.tag == "tag:yaml.org,2002:merge":
                self._error(key_node, loc, "YAML merge keys (<<) are not allowed; write values out")
                continue
            if not isinstance(key_node, yaml.ScalarNode):
                self._error(key_node, loc, "mapping keys must be plain words")
                continue
            key = self._scalar(key_node, loc)
            if not isinstance(key, str):
                key = str(key)
            if key in result:
                first = self.keys[(*loc, key)]
                self._error(
                    key_node, (*loc, key), f"duplicate key (first set on line {first.line})"
                )
                continue
            self.keys[(*loc, key)] = self._pos(key_node)
            result[key] = self.build(value_node, (*loc, key), depth + 1)
        return result

    def _scalar(self, node: yaml.Node, loc: Loc) -> Any:
        try:
            return self.constructor.construct_object(node, deep=True)
        except (yaml.YAMLError, ValueError, OverflowError) as exc:
            if node.tag == "tag:yaml.org,2002:timestamp":
                self._error(node, loc, f"'{node.value}' is not a day of the calendar")
            else:
                self._error(node, loc, f"invalid value: {exc}")
            return None


def iter_markdown_files(folder: Path) -> Iterator[Path]:
    """Every `.md` file under `folder`, in a stable order; hidden files and folders are skipped."""
    if not folder.is_dir():
        return
    for path in sorted(folder.rglob("*.md")):
        relative = path.relative_to(folder)
        if any(part.startswith((".", "_")) for part in relative.parts):
            continue
        if path.name in ("README.md", "CONTRIBUTING.md"):
            continue
        if path.is_file():
            yield path
