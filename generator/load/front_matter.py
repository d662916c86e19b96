"""Read incident files and the taxonomy: bytes -> text -> front matter + body, with positions.

Together with project.py this is the input edge of the core. Everything it returns carries the line
and column of every YAML value, so later stages can point at the exact place a contributor erred.
"""

from __future__ import annotations

import re
import unicodedata
from bisect import bisect_right
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import yaml

from ..model.shorten import shorten
from ..model.text import INVISIBLE
from ..validate.diagnostics import Diagnostic, field_name
from .indentation import Misindented, misindented

try:  # libyaml is several times faster; PyYAML's wheels ship it.
    _Loader: type = yaml.CSafeLoader
except AttributeError:  # pragma: no cover - only on builds without libyaml
    _Loader = yaml.SafeLoader

Loc = tuple[str | int, ...]
MAX_FILE_BYTES = 1_000_000
MAX_YAML_NODES = 5_000  # in one incident's front matter
MAX_TAXONOMY_NODES = 500_000  # in taxonomy.yml, which holds the whole vocabulary
MAX_YAML_DEPTH = 8
MAX_ALIAS_REPORTS = 100
_FENCE = re.compile(r"^---[ \t]*$")
_CLOSE = re.compile(r"^(---|\.\.\.)[ \t]*$")
# Characters no editor shows but that change what a file means: C0/C1 controls other than tab and
# line ends, DEL, and the Unicode line and paragraph separators (YAML counts those as line breaks,
# Markdown does not, so they would also shift every line number after them).
# Bidirectional controls reorder what an editor shows ("Trojan Source"): no case needs them.
_INVISIBLE = re.compile(
    "[\x00-\x08\x0b-\x1f\x7f-\x9f\u2028\u2029\u061c\u200e\u200f\u202a-\u202e\u2066-\u2069]"
)
_INVISIBLE_NAMES = {
    "\u2028": "a Unicode line separator",
    "\u2029": "a Unicode paragraph separator",
    **{c: "a bidirectional control" for c in "\u061c\u200e\u200f\u202a\u202b\u202c\u202d\u202e"},
    **{c: "a bidirectional control" for c in "\u2066\u2067\u2068\u2069"},
}
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
    # One spelling of every character: Korean saved decomposed (NFD, as some editors on macOS
    # do) would otherwise never match a query typed normally, and two labels that look the same
    # would count as different.
    text = unicodedata.normalize("NFC", text)
    invisible = _INVISIBLE.search(text)
    if invisible:
        char = invisible.group()
        line, col = _LineIndex(text).position(invisible.start())
        name = _INVISIBLE_NAMES.get(char, "control character")
        message = f"file contains {name} U+{ord(char):04X}; delete it"
        raise LoadError([Diagnostic(display, line, col, "", message)])
    # No ASCII character is invisible by Unicode's properties, and most English files are ASCII.
    hidden = None if text.isascii() else INVISIBLE.search(text)
    if hidden:
        char = hidden.group()
        line, col = _LineIndex(text).position(hidden.start())
        name = unicodedata.name(char, "unnamed")
        message = f"file contains the invisible character U+{ord(char):04X} ({name}); delete it"
        raise LoadError([Diagnostic(display, line, col, "", message)])
    return SourceText(display, text)


def _byte_position(raw: bytes, offset: int) -> tuple[int, int]:
    """1-based line and column (in characters) of byte `offset`."""
    before = raw[:offset].replace(b"\r\n", b"\n").replace(b"\r", b"\n")
    start = before.rfind(b"\n") + 1
    column = len(before[start:].decode("utf-8", errors="replace")) + 1
    return before.count(b"\n") + 1, column


_OTHER_BREAKS = re.compile("[\r\x85\u2028\u2029\ufeff]")


class _LineIndex:
    """Turns character offsets in a text into 1-based (line, column), counting only `\\n`."""

    def __init__(self, text: str, first_line: int = 1):
        self.first_line = first_line
        self.starts = [0]
        self.starts.extend(m.end() for m in re.finditer("\n", text))
        # Where `\n` is the only line end, no byte-order mark shifts the index and the text ends
        # in `\n` (libyaml adds a line end to a text without one), a mark's own line and column
        # are the file's, and reading them takes two thirds of the time of the index.
        self.marks_agree = text.endswith("\n") and _OTHER_BREAKS.search(text) is None

    def position(self, offset: int) -> tuple[int, int]:
        row = bisect_right(self.starts, offset) - 1
        return row + self.first_line, offset - self.starts[row] + 1

    def mark(self, mark) -> Position:
        """Where a YAML mark sits. Marks carry a character index; their own line count also
        breaks at characters that are not line ends in the file, so it is used only where the
        text has none of them."""
        if self.marks_agree:
            return Position(mark.line + self.first_line, mark.column + 1)
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


def parse_yaml(
    text: str, path: str, first_line: int = 1, max_values: int | None = MAX_YAML_NODES
) -> YamlDocument:
    """Parse YAML into data with positions; reject aliases, tags, duplicate keys and huge or
    deeply nested documents before they can cost time or memory.

    One pass over libyaml's events builds the data and checks it: an alias is never expanded
    and nothing past a size or depth limit is read."""
    index = _LineIndex(text, first_line)
    reader = _Reader(path, index, max_values)
    try:
        for event in yaml.parse(text, Loader=_Loader):
            if reader.feed(event):
                break
    except yaml.MarkedYAMLError as exc:
        raise LoadError([_syntax_error(exc, text, path, index)]) from None
    except yaml.reader.ReaderError as exc:
        line, col = index.position(exc.position)
        message = f"invalid YAML: character U+{exc.character:04X} is not allowed here"
        raise LoadError([Diagnostic(path, line, col, "", message)]) from None
    except yaml.YAMLError as exc:
        message = "invalid YAML: " + str(exc).split("\n")[0]
        raise LoadError([Diagnostic(path, first_line, 1, "", message)]) from None
    # What is reported, in order: aliases; then anchors, tags, depth and size; then a second
    # document; then what is wrong with keys and values.
    problems = reader.aliases or reader.others
    if problems:
        raise LoadError(problems)
    if reader.second_document is not None:
        raise LoadError([_syntax_error(reader.second_document, text, path, index)])
    if reader.errors:
        raise LoadError(reader.errors)
    if reader.root is _ABSENT:
        return YamlDocument({}, {(): Position(first_line, 1)})
    return YamlDocument(reader.root, reader.values, reader.keys)


_ALIAS_MESSAGE = "YAML anchors and aliases (&, *) are not allowed; write values out"
_TAG_MESSAGE = "YAML tags (!, !!) are not allowed; write the value out plainly"
_MERGE_TAG = "tag:yaml.org,2002:merge"
_VALUE_TAG = "tag:yaml.org,2002:value"
_STR_TAG = "tag:yaml.org,2002:str"
_INT_TAG = "tag:yaml.org,2002:int"
_DECIMAL = re.compile(r"[-+]?(0|[1-9][0-9]*)")
_ABSENT = object()
_SKIP = object()  # a mapping value that is not kept (its key was refused)
_RESOLVER = yaml.resolver.Resolver()


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
    wrong = misindented(text.split("\n"), position.line - index.first_line) if not hint else None
    if wrong is not None:
        return _indentation_error(wrong, path, index.first_line)
    if problem.startswith("mapping values are not allowed") and ": " in offending.strip():
        hint = '; a value with ": " in it goes in quotes, like title: "Acme: GPUs lost"'
    return Diagnostic(path, position.line, position.col, "", f"invalid YAML: {problem}{hint}")


def _indentation_error(wrong: Misindented, path: str, first_line: int) -> Diagnostic:
    """PyYAML's words for a misplaced line replaced by what is wrong and what to write."""

    def spaces(n: int) -> str:
        return "1 space" if n == 1 else f"{n} spaces"

    kind = "list items" if wrong.item else "fields"
    where = f"line {wrong.like + first_line}"
    if wrong.expected:
        rule = f"are indented by {spaces(wrong.expected)} ({where})"
        fix = f"indent it by {spaces(wrong.expected)}"
    else:
        rule, fix = f"start in column 1 ({where})", "start it in column 1 too"
    message = (
        f"invalid YAML: wrong indentation: this line is indented by {spaces(wrong.spaces)}, "
        f"but the {kind} it belongs with {rule}; {fix}"
    )
    return Diagnostic(path, wrong.line + first_line, wrong.spaces + 1, "", message)


class _Frame:
    """One open mapping or sequence: where it is, what it holds so far, and whose turn it is."""

    __slots__ = ("loc", "mapping", "container", "index", "key", "want_key")

    def __init__(self, loc: Loc, mapping: bool, container: Any):
        self.loc, self.mapping, self.container = loc, mapping, container
        self.index, self.key, self.want_key = 0, "", True  # key: str, or _SKIP


class _Reader:
    """Builds data and positions from YAML events, checking as it goes."""

    def __init__(self, path: str, index: _LineIndex, max_values: int | None = MAX_YAML_NODES):
        self.max_values = max_values or MAX_TAXONOMY_NODES
        self.where = "front matter" if max_values else "the file"
        self.path = path
        self.index = index
        self.root: Any = _ABSENT
        self.values: dict[Loc, Position] = {}
        self.keys: dict[Loc, Position] = {}
        self.aliases: list[Diagnostic] = []
        self.others: list[Diagnostic] = []
        self.errors: list[Diagnostic] = []
        self.second_document: yaml.MarkedYAMLError | None = None
        self.stack: list[_Frame] = []
        self.documents = 0
        self.count = 0
        self.constructor = yaml.constructor.SafeConstructor()

    def _report(self, into: list[Diagnostic], event: yaml.Event, loc: Loc, message: str) -> None:
        pos = self.index.mark(event.start_mark)
        into.append(Diagnostic(self.path, pos.line, pos.col, field_name(loc), message))

    def feed(self, event: yaml.Event) -> bool:
        """Take one event; True when reading must stop (a limit was passed)."""
        kind = type(event)
        if kind is yaml.MappingEndEvent or kind is yaml.SequenceEndEvent:
            self.stack.pop()
            return False
        if kind is yaml.DocumentStartEvent:
            self.documents += 1
            if self.documents == 2:
                self.second_document = yaml.composer.ComposerError(
                    "expected a single document in the stream",
                    None,
                    "but found another document",
                    event.start_mark,
                )
            return False
        if not isinstance(event, yaml.NodeEvent):  # stream and document ends
            return False
        frame = self.stack[-1] if self.stack else None
        # Where this node sits, and whether it is a mapping key.
        is_key = False
        if frame is None:
            loc: Loc = ()
        elif not frame.mapping:
            loc = (*frame.loc, frame.index)
            frame.index += 1
        elif frame.want_key:
            frame.want_key, is_key, loc = False, True, frame.loc
        else:
            frame.want_key, loc = True, (*frame.loc, frame.key)
        if len(self.stack) > MAX_YAML_DEPTH:
            message = f"values are nested more than {MAX_YAML_DEPTH} levels deep"
            self._report(self.others, event, loc, message)
            self.others = self.others[-1:]
            return True
        if kind is yaml.AliasEvent:
            if len(self.aliases) < MAX_ALIAS_REPORTS:
                self._report(self.aliases, event, (), _ALIAS_MESSAGE)
        elif not is_key:
            self.count += 1
            if self.count > self.max_values:
                message = f"{self.where} has more than {self.max_values} values"
                self._report(self.others, event, loc, message)
                self.others = self.others[-1:]
                return True
        if kind is not yaml.AliasEvent:
            if event.anchor is not None:
                self._report(self.others, event, (), _ALIAS_MESSAGE)
            if event.tag is not None:
                self._report(self.others, event, loc, _TAG_MESSAGE)
        # Build, unless this node lies inside something that is not kept.
        kept = self.documents < 2 and not (
            frame is not None and (frame.container is None or (not is_key and frame.key is _SKIP))
        )
        if is_key:
            assert frame is not None
            frame.key = self._key(event, frame) if kept else _SKIP
            if kind is yaml.MappingStartEvent or kind is yaml.SequenceStartEvent:
                self.stack.append(_Frame(loc, kind is yaml.MappingStartEvent, None))
            return False
        value: Any = None
        if kept:
            self.values[loc] = self.index.mark(event.start_mark)
        if kind is yaml.MappingStartEvent or kind is yaml.SequenceStartEvent:
            mapping = kind is yaml.MappingStartEvent
            value = ({} if mapping else []) if kept else None
            self.stack.append(_Frame(loc, mapping, value))
        elif kind is yaml.ScalarEvent and kept:
            value = self._scalar(event, loc)
        if not kept:
            return False
        if frame is None:
            self.root = value
        elif frame.mapping:
            frame.container[frame.key] = value
        else:
            frame.container.append(value)
        return False

    def _key(self, event: yaml.Event, frame: _Frame) -> Any:
        """The key a mapping value is stored under, or _SKIP when the key is refused."""
        if type(event) is yaml.ScalarEvent:
            # Only a plain `<<` resolves to the merge tag, so the resolver (slow for a call
            # made for every key) is not asked.
            if event.value == "<<" and event.implicit[0]:
                message = "YAML merge keys (<<) are not allowed; write values out"
                self._report(self.errors, event, frame.loc, message)
                return _SKIP
            key = event.value  # the key as written: `2024: x` has the key '2024'
            if key in frame.container:
                first = self.keys[(*frame.loc, key)]
                message = f"duplicate key (first set on line {first.line})"
                self._report(self.errors, event, (*frame.loc, key), message)
                return _SKIP
            self.keys[(*frame.loc, key)] = self.index.mark(event.start_mark)
            return key
        if type(event) is not yaml.AliasEvent:
            self._report(self.errors, event, frame.loc, "mapping keys must be plain words")
        return _SKIP

    def _scalar(self, event: yaml.ScalarEvent, loc: Loc) -> Any:
        tag = _RESOLVER.resolve(yaml.ScalarNode, event.value, event.implicit)
        if tag == _INT_TAG and not _DECIMAL.fullmatch(event.value):
            # YAML 1.1 reads 1:30 as 90, 0x10 as 16, 0b11 as 3 and 1_000 as 1000: a number here
            # is written in plain decimal digits, and anything else stays the text it looks like
            # (a count then says it wants a whole number, at this line).
            return event.value
        if tag == _STR_TAG or tag in (_MERGE_TAG, _VALUE_TAG):
            return event.value  # text; `<<` or `=` as a value is just text too
        node = yaml.ScalarNode(tag, event.value, event.start_mark, event.end_mark, event.style)
        try:
            return self.constructor.construct_object(node, deep=True)
        except Exception as exc:  # the constructors raise many kinds for odd scalars
            shown = shorten(event.value)
            if tag == "tag:yaml.org,2002:timestamp":
                message = f"'{shown}' is not a day of the calendar"
            elif tag == "tag:yaml.org,2002:int":
                message = f"'{shown}' is too long for a number"
            else:
                message = f"invalid value '{shown}': {exc}"
            self._report(self.errors, event, loc, message)
            return None
