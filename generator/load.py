"""Read incident files and the taxonomy: bytes -> text -> front matter + body, with positions.

Together with project.py this is the input edge of the core. Everything it returns carries the line
and column of every YAML value, so later stages can point at the exact place a contributor erred.
"""

from __future__ import annotations

import re
from bisect import bisect_right
from collections.abc import Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import yaml

from .diagnostics import Diagnostic, field_name
from .text import shorten

try:  # libyaml is several times faster; PyYAML's wheels ship it.
    _Loader: type = yaml.CSafeLoader
except AttributeError:  # pragma: no cover - only on builds without libyaml
    _Loader = yaml.SafeLoader

Loc = tuple[str | int, ...]
MAX_FILE_BYTES = 1_000_000
MAX_YAML_NODES = 5_000
MAX_YAML_DEPTH = 8
MAX_ALIAS_REPORTS = 100
_FENCE = re.compile(r"^---[ \t]*$")
_CLOSE = re.compile(r"^(---|\.\.\.)[ \t]*$")
# Characters no editor shows but that change what a file means: C0/C1 controls other than tab and
# line ends, DEL, and the Unicode line and paragraph separators (YAML counts those as line breaks,
# Markdown does not, so they would also shift every line number after them).
_INVISIBLE = re.compile("[\x00-\x08\x0b-\x1f\x7f-\x9f\u2028\u2029]")
_INVISIBLE_NAMES = {"\u2028": "a Unicode line separator", "\u2029": "a Unicode paragraph separator"}
# A line that looks like a front matter field (`title: ...`), to tell a stray `---` inside the
# front matter from the one that closes it.
_FIELD_LINE = re.compile(r"^[A-Za-z_][A-Za-z0-9_-]*[ \t]*:(?:[ \t]|$)")
_YAMLISH_LINE = re.compile(
    r"^(?:[A-Za-z_][A-Za-z0-9_-]*[ \t]*:(?:[ \t]|$)|[ \t]|-(?:[ \t]|$)|#(?!#))"
)


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
    return decode_text(read_bytes(path, display), display)


def read_bytes(path: Path, display: str) -> bytes:
    """A file's bytes, refusing files over MAX_FILE_BYTES without reading them whole."""
    try:
        size = path.stat().st_size
    except OSError as exc:
        raise LoadError(
            [Diagnostic(display, 1, 1, "", f"cannot read file: {exc.strerror}")]
        ) from None
    if size <= MAX_FILE_BYTES:
        # Read one byte past the limit at most: what a read returns may differ from the size.
        try:
            with path.open("rb") as handle:
                raw = handle.read(MAX_FILE_BYTES + 1)
        except OSError as exc:
            raise LoadError(
                [Diagnostic(display, 1, 1, "", f"cannot read file: {exc.strerror}")]
            ) from None
        if len(raw) <= MAX_FILE_BYTES:
            return raw
    shown = f"{size:,} bytes" if size > MAX_FILE_BYTES else f"over {MAX_FILE_BYTES:,} bytes"
    message = f"file is {shown}; an incident file may be at most {MAX_FILE_BYTES:,}"
    raise LoadError([Diagnostic(display, 1, 1, "", message)])


def decode_text(raw: bytes, display: str) -> SourceText:
    if raw.startswith((b"\xff\xfe", b"\xfe\xff")):
        message = "file is UTF-16, not UTF-8; save it as UTF-8"
        raise LoadError([Diagnostic(display, 1, 1, "", message)])
    if raw.startswith(b"\xef\xbb\xbf"):
        raw = raw[3:]
    if b"\x00" in raw:
        line, col = _byte_position(raw, raw.index(b"\x00"))
        message = "file contains NUL bytes; is it binary?"
        raise LoadError([Diagnostic(display, line, col, "", message)])
    try:
        text = raw.decode("utf-8")
    except UnicodeDecodeError as exc:
        line, col = _byte_position(raw, exc.start)
        message = f"file is not valid UTF-8 (byte 0x{raw[exc.start]:02x}); save it as UTF-8"
        raise LoadError([Diagnostic(display, line, col, "", message)]) from None
    text = text.replace("\r\n", "\n").replace("\r", "\n")
    invisible = _INVISIBLE.search(text)
    if invisible:
        char = invisible.group()
        line, col = _LineIndex(text).position(invisible.start())
        name = _INVISIBLE_NAMES.get(char, "control character")
        message = f"file contains {name} U+{ord(char):04X}; delete it"
        raise LoadError([Diagnostic(display, line, col, "", message)])
    return SourceText(display, text)


def _byte_position(raw: bytes, offset: int) -> tuple[int, int]:
    """1-based line and column (in characters) of byte `offset`."""
    before = raw[:offset].replace(b"\r\n", b"\n").replace(b"\r", b"\n")
    start = before.rfind(b"\n") + 1
    column = len(before[start:].decode("utf-8", errors="replace")) + 1
    return before.count(b"\n") + 1, column


class _LineIndex:
    """Turns character offsets in a text into 1-based (line, column), counting only `\\n`."""

    def __init__(self, text: str, first_line: int = 1):
        self.first_line = first_line
        self.starts = [0]
        self.starts.extend(m.end() for m in re.finditer("\n", text))

    def position(self, offset: int) -> tuple[int, int]:
        row = bisect_right(self.starts, offset) - 1
        return row + self.first_line, offset - self.starts[row] + 1

    def mark(self, mark) -> Position:
        """Where a YAML mark sits. Marks carry a character index; their own line count also
        breaks at characters that are not line ends in the file, so it is not used."""
        line, col = self.position(mark.index)
        return Position(line, col)


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
    _reject_early_close(lines, index, path)
    yaml_text = "\n".join(lines[1:index]) + "\n"
    document = parse_yaml(yaml_text, path, first_line=2)
    body = "\n".join(lines[index + 1 :])
    return MarkdownFile(path, document, body, body_line=index + 2)


def _reject_early_close(lines: list[str], index: int, path: str) -> None:
    """A `---` inside the front matter closes it early and the fields after it land in the body.

    That body cannot be valid (nothing may come before the first section), so when the lines
    after the fence look like more fields up to another `---`, say so instead of reporting every
    field after it as missing.
    """
    following = [i for i in range(index + 1, len(lines)) if lines[i].strip()]
    if not following or not _FIELD_LINE.match(lines[following[0]]):
        return
    for i in following:
        if _FENCE.match(lines[i]):
            message = (
                f"this '---' closes the front matter, but fields follow it up to the '---' on "
                f"line {i + 1}; delete this line"
            )
            raise LoadError([Diagnostic(path, index + 1, 1, "", message)])
        if not _YAMLISH_LINE.match(lines[i]):
            return


def parse_yaml(text: str, path: str, first_line: int = 1) -> YamlDocument:
    """Parse YAML into data with positions; reject aliases, tags, duplicate keys and huge or
    deeply nested documents before they can cost time or memory."""
    index = _LineIndex(text, first_line)
    try:
        problems = _scan(text, path, index)
        if problems:
            raise LoadError(problems)
        node = yaml.compose(text, Loader=_Loader)
    except yaml.MarkedYAMLError as exc:
        raise LoadError([_syntax_error(exc, text, path, index)]) from None
    except yaml.reader.ReaderError as exc:
        line, col = index.position(exc.position)
        message = f"invalid YAML: character U+{exc.character:04X} is not allowed here"
        raise LoadError([Diagnostic(path, line, col, "", message)]) from None
    except yaml.YAMLError as exc:
        message = "invalid YAML: " + str(exc).split("\n")[0]
        raise LoadError([Diagnostic(path, first_line, 1, "", message)]) from None
    if node is None:
        return YamlDocument({}, {(): Position(first_line, 1)})
    builder = _Builder(path, index)
    data = builder.build(node, (), 0)
    if builder.aliased:  # pragma: no cover - _scan reports every alias first
        raise LoadError([Diagnostic(path, first_line, 1, "", _ALIAS_MESSAGE)])
    if builder.errors:
        raise LoadError(builder.errors)
    return YamlDocument(data, builder.values, builder.keys)


_ALIAS_MESSAGE = "YAML anchors and aliases (&, *) are not allowed; write values out"
_TAG_MESSAGE = "YAML tags (!, !!) are not allowed; write the value out plainly"


def _syntax_error(exc: yaml.MarkedYAMLError, text: str, path: str, index: _LineIndex) -> Diagnostic:
    mark = exc.problem_mark or exc.context_mark
    position = index.mark(mark) if mark else Position(index.first_line, 1)
    problem = exc.problem or exc.context or "invalid YAML"
    if exc.context == "expected a single document in the stream":
        problem = "a second '---' inside the front matter starts another YAML document; delete it"
    if problem == "exceeded maximum nesting depth":  # libyaml's own limit, 1000 levels
        message = f"values are nested more than {MAX_YAML_DEPTH} levels deep"
        return Diagnostic(path, position.line, position.col, "", message)
    offending = text[index.starts[position.line - index.first_line] :].split("\n", 1)[0]
    hint = "; YAML indentation must use spaces, not tabs" if "\t" in offending else ""
    return Diagnostic(path, position.line, position.col, "", f"invalid YAML: {problem}{hint}")


class _Slot:
    """Where the scanner is inside one mapping or sequence."""

    __slots__ = ("loc", "mapping", "index", "key", "want_key")

    def __init__(self, loc: Loc, mapping: bool):
        self.loc, self.mapping = loc, mapping
        self.index, self.key, self.want_key = 0, "", True

    def next_loc(self, event: yaml.Event) -> tuple[Loc, bool]:
        """The location of the node `event` starts, and whether it is a mapping key."""
        if not self.mapping:
            self.index += 1
            return (*self.loc, self.index - 1), False
        if self.want_key:
            self.want_key = False
            self.key = str(event.value) if isinstance(event, yaml.ScalarEvent) else "?"
            return self.loc, True
        self.want_key = True
        return (*self.loc, self.key), False


def _scan(text: str, path: str, index: _LineIndex) -> list[Diagnostic]:
    """One streaming pass over the YAML events, before any tree is built: aliases (an alias bomb
    never expands), anchors, tags, depth and the number of values."""
    aliases: list[Diagnostic] = []
    others: list[Diagnostic] = []
    stack: list[_Slot] = []
    count = 0

    def report(into: list[Diagnostic], event: yaml.Event, loc: Loc, message: str) -> None:
        pos = index.mark(event.start_mark)
        into.append(Diagnostic(path, pos.line, pos.col, field_name(loc), message))

    for event in yaml.parse(text, Loader=_Loader):
        if isinstance(event, yaml.CollectionEndEvent):
            stack.pop()
            continue
        if not isinstance(event, yaml.NodeEvent):  # scalars, aliases, collection starts
            continue
        loc, is_key = stack[-1].next_loc(event) if stack else ((), False)
        if len(stack) > MAX_YAML_DEPTH:
            message = f"values are nested more than {MAX_YAML_DEPTH} levels deep"
            report(others, event, loc, message)
            return aliases or others[-1:]
        if isinstance(event, yaml.AliasEvent):
            if len(aliases) < MAX_ALIAS_REPORTS:
                report(aliases, event, (), _ALIAS_MESSAGE)
            continue
        if not is_key:
            count += 1
            if count > MAX_YAML_NODES:
                report(others, event, loc, f"front matter has more than {MAX_YAML_NODES} values")
                return aliases or others[-1:]
        if event.anchor is not None:
            report(others, event, (), _ALIAS_MESSAGE)
        if event.tag is not None:
            report(others, event, loc, _TAG_MESSAGE)
        if isinstance(event, yaml.CollectionStartEvent):
            stack.append(_Slot(loc, isinstance(event, yaml.MappingStartEvent)))
    return aliases or others


class _Builder:
    """Turns a composed YAML node tree into Python data, recording each node's position."""

    def __init__(self, path: str, index: _LineIndex):
        self.path = path
        self.index = index
        self.values: dict[Loc, Position] = {}
        self.keys: dict[Loc, Position] = {}
        self.errors: list[Diagnostic] = []
        self.seen: set[int] = set()
        self.aliased = False
        self.count = 0
        self.constructor = yaml.constructor.SafeConstructor()

    def _pos(self, node: yaml.Node) -> Position:
        return self.index.mark(node.start_mark)

    def _error(self, node: yaml.Node, loc: Loc, message: str) -> None:
        pos = self._pos(node)
        self.errors.append(Diagnostic(self.path, pos.line, pos.col, field_name(loc), message))

    def build(self, node: yaml.Node, loc: Loc, depth: int) -> Any:
        self.count += 1
        if self.count > MAX_YAML_NODES:
            if self.count == MAX_YAML_NODES + 1:
                self._error(node, loc, f"front matter has more than {MAX_YAML_NODES} values")
            return None
        if id(node) in self.seen:
            # An alias: the composer hands back the anchored node itself. _scan reports aliases
            # before composing; this only keeps an alias bomb from expanding should one get here.
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
            if key_node.tag == _MERGE_TAG:
                self._error(key_node, loc, "YAML merge keys (<<) are not allowed; write values out")
                continue
            if not isinstance(key_node, yaml.ScalarNode):
                self._error(key_node, loc, "mapping keys must be plain words")
                continue
            key = key_node.value  # the key as written: `2024: x` has the key '2024'
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
        if node.tag in (_MERGE_TAG, _VALUE_TAG):
            return node.value  # `<<` or `=` as a value is just text
        try:
            return self.constructor.construct_object(node, deep=True)
        except Exception as exc:  # the constructors raise many kinds for odd scalars
            shown = shorten(node.value)
            if node.tag == "tag:yaml.org,2002:timestamp":
                self._error(node, loc, f"'{shown}' is not a day of the calendar")
            elif node.tag == "tag:yaml.org,2002:int":
                self._error(node, loc, f"'{shown}' is too long for a number")
            else:
                self._error(node, loc, f"invalid value '{shown}': {exc}")
            return None


_MERGE_TAG = "tag:yaml.org,2002:merge"
_VALUE_TAG = "tag:yaml.org,2002:value"


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
