"""Problems found in contributors' files, reported as `path:line:col: field: message`."""

from __future__ import annotations

import difflib
import re
from collections.abc import Iterable
from dataclasses import dataclass
from functools import lru_cache
from typing import Literal

from ..model.shorten import shorten

Severity = Literal["error", "warning"]


@dataclass(frozen=True, order=True)
class Diagnostic:
    """One problem at one place in one file."""

    path: str
    line: int
    col: int
    field: str
    message: str
    severity: Severity = "error"
    suggestion: str | None = None

    def format(self) -> str:
        hint = f" (did you mean '{self.suggestion}'?)" if self.suggestion else ""
        level = "warning: " if self.severity == "warning" else ""
        field = f"{self.field}: " if self.field else ""
        line = f"{self.path}:{self.line}:{self.col}: {level}{field}{self.message}{hint}"
        return printable(line)

    def format_github(self) -> str:
        """A GitHub Actions workflow command that annotates the line in a pull request."""
        hint = f" (did you mean '{self.suggestion}'?)" if self.suggestion else ""
        title = _escape_property(printable(self.field or "incident"))
        text = _escape_data(printable(f"{self.message}{hint}"))
        path = _escape_property(printable(self.path))
        return (
            f"::{self.severity} file={path},line={self.line},col={self.col},title={title}::{text}"
        )


# Control characters, line separators, undecodable bytes, and bidirectional controls (which
# would reorder what the terminal shows).
_UNPRINTABLE = re.compile(
    "[\x00-\x1f\x7f-\x9f\u2028\u2029\ud800-\udfff\u061c\u200e\u200f\u202a-\u202e\u2066-\u2069]"
)


def printable(text: str) -> str:
    """`text` safe to print on one terminal line: control characters (which could move the
    cursor or recolour the terminal) become escapes, and undecodable file-name bytes become
    U+FFFD."""

    def escape(match: re.Match[str]) -> str:
        char = match.group()
        if "\ud800" <= char <= "\udfff":
            return "\ufffd"
        return f"\\x{ord(char):02x}" if ord(char) < 0x100 else f"\\u{ord(char):04x}"

    return _UNPRINTABLE.sub(escape, text)


def _escape_data(value: str) -> str:
    return value.replace("%", "%25").replace("\r", "%0D").replace("\n", "%0A")


def _escape_property(value: str) -> str:
    return _escape_data(value).replace(":", "%3A").replace(",", "%2C")


def closest(word: str, candidates: Iterable[str]) -> str | None:
    """The candidate most like `word`, if any is close enough to be a plausible typo."""
    return _closest(word, tuple(candidates))


# A suggestion is offered only when it is likely right: a wrong one ("did you mean 'modal'?" for
# a new organization 'mosaicml') sends a contributor to the wrong term instead of proposing the
# right one. Likely right is a near spelling (a letter or two wrong, swapped, missing or extra)
# or one name inside the other ('apiserver' for 'kube-apiserver').
CLOSE_SPELLING = 0.75  # difflib's ratio: 2 * matching characters / characters of both
MIN_CONTAINED = 4  # characters of a name found inside the other ('ai' is inside too much)


@lru_cache(maxsize=4096)  # a broken file repeats the same mistake many times
def _closest(word: str, pool: tuple[str, ...]) -> str | None:
    lowered = {c.lower(): c for c in pool}
    word = word.lower()
    if word in lowered:
        return lowered[word]
    for match in difflib.get_close_matches(word, list(lowered), n=5, cutoff=0.6):
        if _likely(word, match):
            return lowered[match]
    return None


def _likely(word: str, candidate: str) -> bool:
    if difflib.SequenceMatcher(None, word, candidate).ratio() >= CLOSE_SPELLING:
        return True
    short, long = sorted((word, candidate), key=len)
    return len(short) >= MIN_CONTAINED and short in long


def ordered(diagnostics: Iterable[Diagnostic]) -> tuple[Diagnostic, ...]:
    """Each diagnostic once, in file, line and column order.

    Sorts on a key of plain values: the dataclass's own comparison is many times slower, which
    shows when a broken file yields hundreds of thousands of problems.
    """
    return tuple(sorted(set(diagnostics), key=_sort_key))


def capped(diagnostics: tuple[Diagnostic, ...], per_file: int) -> tuple[Diagnostic, ...]:
    """At most `per_file` ordered diagnostics of each file, then one line saying how many more.

    A file broken in one way many thousand times (a heading or TODO on every line) would
    otherwise bury everything else, and take long just to print.
    """
    by_path: dict[str, list[Diagnostic]] = {}
    for d in diagnostics:
        by_path.setdefault(d.path, []).append(d)
    out: list[Diagnostic] = []
    for found in by_path.values():
        out.extend(found[:per_file])
        hidden = found[per_file:]
        if hidden:
            first = hidden[0]
            severity: Severity = (
                "error" if any(d.severity == "error" for d in hidden) else "warning"
            )
            message = f"{len(hidden)} more problems in this file are not shown; fix these first"
            out.append(Diagnostic(first.path, first.line, first.col, "", message, severity))
    return tuple(out)


def _sort_key(d: Diagnostic) -> tuple:
    return (d.path, d.line, d.col, d.field, d.message, d.severity, d.suggestion or "")


def field_name(loc: tuple[str | int, ...]) -> str:
    """`('sources', 0, 'url')` -> `sources[0].url`."""
    out = ""
    for part in loc:
        if isinstance(part, int):
            out += f"[{part}]"
        else:
            name = shorten(part, 60) if part else "''"  # a key may be empty or huge
            out += f".{name}" if out else name
    return out


def from_validation_error(exc, path: str, position, known_fields=None) -> list[Diagnostic]:
    """Turn a pydantic ValidationError into diagnostics placed with `position(loc, key=...)`.

    `known_fields(loc)` returns the field names allowed at a mapping location, for suggestions.
    """
    out: list[Diagnostic] = []
    errors = exc.errors(include_url=False)
    # A list with a bad item is also reported as "too short" once the item is dropped; the item's
    # own error is the one worth reading.
    failing_items = {
        tuple(e["loc"][:i]) for e in errors for i, p in enumerate(e["loc"]) if isinstance(p, int)
    }
    for error in errors:
        loc = tuple(part for part in error["loc"] if not _is_union_tag(part))
        kind = error["type"]
        if kind == "too_short" and tuple(error["loc"]) in failing_items:
            continue
        suggestion = None
        if kind == "missing":
            pos = position(loc[:-1])
            message = "required field is missing"
        elif kind == "extra_forbidden":
            pos = position(loc, key=True)
            message = "unknown field"
            if known_fields is not None and loc:
                allowed = list(known_fields(loc[:-1]))
                suggestion = closest(str(loc[-1]), allowed)
                if allowed and len(allowed) <= 12:
                    message += "; the fields here are " + ", ".join(allowed)
        else:
            pos = position(loc)
            message = _message(error)
        out.append(
            Diagnostic(path, pos.line, pos.col, field_name(loc), message, "error", suggestion)
        )
    return out


def _is_union_tag(part: object) -> bool:
    # pydantic adds the member type's name to the location of errors inside unions and
    # function validators; contributors never wrote those names.
    # They look like `function-after[_http_url(), str]` or `tuple[str, ...]`; a contributor's key
    # (`[`, `a[0]`) does not.
    return isinstance(part, str) and _UNION_TAG.match(part) is not None


_UNION_TAG = re.compile(r"^(?:function-[a-z]+|[a-z][a-z-]*)\[.*\]$", re.DOTALL)


# The validation library's wording, as a contributor would say it.
_PLAIN = (
    (
        "Input should be a valid integer, unable to parse string as an integer",
        "should be a whole number",
    ),
    ("Input should be a valid integer", "should be a whole number"),
    ("Input should be a valid string", "should be text"),
    ("Input should be a valid list", "should be a list, like [a, b]"),
    ("Input should be a valid dictionary or instance of", "should be a mapping of fields:"),
    ("Input should be a valid dictionary", "should be a mapping of fields"),
    ("Input should be a valid boolean", "should be true or false"),
    ("String should have at least 1 character", "should not be empty"),
    ("List should have at least 1 item after validation, not 0", "should list at least one"),
    ("Tuple should have at least 1 item after validation, not 0", "should list at least one"),
    ("Input should be ", "should be "),
    ("String should ", "should "),
    ("List should ", "should "),
    ("Tuple should ", "should "),
)


def _message(error: dict) -> str:
    message = str(error["msg"])
    if error["type"] == "tuple_type":
        message = "should be a list, like [a, b]"
    if message.startswith("Value error, "):
        message = message[len("Value error, ") :]
    elif message.startswith("Assertion failed, "):
        message = message[len("Assertion failed, ") :]
    for raw, plain in _PLAIN:
        if message.startswith(raw):
            message = plain + message[len(raw) :]
            break
    if error["type"] in {
        "string_type",
        "list_type",
        "int_type",
        "int_parsing",
        "dict_type",
        "model_type",
        "date_type",
        "bool_type",
        "tuple_type",
        "literal_error",
    }:
        message += f", got {_describe(error.get('input'))}"
    return message


def _describe(value: object) -> str:
    if value is None:
        return "nothing (empty value)"
    kind = {
        dict: "a mapping",
        list: "a list",
        str: "text",
        int: "a number",
        float: "a number",
        bool: "true/false",
    }.get(type(value), type(value).__name__)
    shown = repr(value)
    return f"{kind} {shown[:40]}" if len(shown) <= 40 else f"{kind}"
