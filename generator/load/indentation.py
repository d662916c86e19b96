"""What indentation a line of YAML should have, for a syntax error a contributor can act on.

PyYAML words a misplaced line after its parser ("did not find expected '-' indicator", "mapping
values are not allowed here"); what a contributor did was indent a line by the wrong number of
spaces. The lines above a line say which indentations it could have: the column of each field
and list item still open there. A line at none of them is the mistake, and the nearest of them
is what it should be. Pure: looks only at the text.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

_ITEM = re.compile(r"( *)- +(?=\S)")  # a list item; the group is the dash's indentation
_BLANK_OR_COMMENT = re.compile(r"\s*(?:#.*)?$")


@dataclass(frozen=True)
class Misindented:
    """A line at an indentation no open field or list allows, and what it should be."""

    line: int  # 0-based, in the text given
    item: bool  # whether the line is a list item (else a field)
    spaces: int
    expected: int
    like: int  # 0-based line of a field or item already at the expected indentation


def misindented(lines: list[str], at: int) -> Misindented | None:
    """Whether line `at` of a YAML text is indented where nothing open above it allows; None
    when its indentation is one of those (the syntax error is something else)."""
    if at >= len(lines) or _BLANK_OR_COMMENT.match(lines[at]) or "\t" in lines[at]:
        return None
    line = lines[at]
    item = _ITEM.match(line)
    spaces = len(line) - len(line.lstrip(" "))
    allowed = _open_columns(lines, at, items=item is not None)
    if not allowed or spaces in allowed:
        return None
    # The nearest column; between two, the deeper one (a line one space short of its
    # neighbours belongs with them, not with the field above them).
    expected = min(allowed, key=lambda column: (abs(column - spaces), -column))
    return Misindented(at, item is not None, spaces, expected, allowed[expected])


def _open_columns(lines: list[str], at: int, items: bool) -> dict[int, int]:
    """The columns where a field (or, with `items`, a list item) may start on line `at`, each
    with the line above that starts one there."""
    fields: dict[int, int] = {}
    dashes: dict[int, int] = {}
    limit = None
    for n in range(at - 1, -1, -1):
        line = lines[n]
        if _BLANK_OR_COMMENT.match(line) or "\t" in line:
            continue
        spaces = len(line) - len(line.lstrip(" "))
        if limit is not None and spaces >= limit:
            continue  # inside a block that closed before line `at`
        item = _ITEM.match(line)
        if item is not None:
            dashes.setdefault(spaces, n)
            if ":" in line:  # `- url: …` opens a mapping at the text after the dash
                fields.setdefault(item.end(), n)
        else:
            fields.setdefault(spaces, n)
        limit = spaces
        if spaces == 0:
            break
    return dashes if items else fields
