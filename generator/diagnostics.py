"""Problems found in contributors' files, reported as `path:line:col: field: message`."""

from __future__ import annotations

import difflib
from collections.abc import Iterable
from dataclasses import dataclass
from typing import Literal

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
        return f"{self.path}:{self.line}:{self.col}: {level}{field}{self.message}{hint}"

    def format_github(self) -> str:
        """A GitHub Actions workflow command that annotates the line in a pull request."""
        hint = f" (did you mean '{self.suggestion}'?)" if self.suggestion else ""
        title = _escape_property(self.field or "incident")
        text = _escape_data(f"{self.message}{hint}")
        path = _escape_property(self.path)
        return (
            f"::{self.severity} file={path},line={self.line},col={self.col},title={title}::{text}"
        )


def _escape_data(value: str) -> str:
    return value.replace("%", "%25").replace("\r", "%0D").replace("\n", "%0A")


def _escape_property(value: str) -> str:
    return _escape_data(value).replace(":", "%3A").replace(",", "%2C")


def closest(word: str, candidates: Iterable[str]) -> str | None:
    """The candidate most like `word`, if any is close enough to be a plausible typo."""
    pool = list(candidates)
    lowered = {c.lower(): c for c in pool}
    if word.lower() in lowered:
        return lowered[word.lower()]
    matches = difflib.get_close_matches(word.lower(), list(lowered), n=1, cutoff=0.6)
    return lowered[matches[0]] if matches else None


def has_errors(diagnostics: Iterable[Diagnostic], strict: bool = False) -> bool:
    return any(d.severity == "error" or strict for d in diagnostics)


def field_name(loc: tuple[str | int, ...]) -> str:
    """`('sources', 0, 'url')` -> `sources[0].url`."""
    out = ""
    for part in loc:
        if isinstance(part, int):
            out += f"[{part}]"
        else:
            out += f".{part}" if out else str(part)
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
            if known_fields is not None:
                suggestion = closest(str(loc[-1]), known_fields(loc[:-1]))
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
    return isinstance(part, str) and (part.startswith("function-") or "[" in part)


def _message(error: dict) -> str:
    message = str(error["msg"]).replace("Tuple should", "List should")
    if error["type"] == "tuple_type":
        message = "Input should be a list, like [a, b]"
    if message.startswith("Value error, "):
        message = message[len("Value error, ") :]
    elif message.startswith("Assertion failed, "):
        message = message[len("Assertion failed, ") :]
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
