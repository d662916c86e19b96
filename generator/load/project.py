"""A project on disk: reading its taxonomy (the input edge of the core, with front_matter.py).

Where the project's files are and which are incidents is files.py, re-exported here."""

from __future__ import annotations

from ..model.taxonomy import Taxonomy
from ..validate.diagnostics import Diagnostic
from .files import ProjectPaths, incident_files, select_incident_files
from .front_matter import LoadError, decode_text, parse_yaml, read_bytes
from .taxonomy import build_taxonomy

__all__ = ["ProjectPaths", "incident_files", "load_taxonomy", "select_incident_files"]


Loaded = tuple[Taxonomy, tuple[Diagnostic, ...]]
# The last taxonomy read, by its file's name and bytes. A preview reads the taxonomy on every
# rebuild: while the file is unchanged, it gets the same objects, and comparing a page with the
# last rebuild's stops at them instead of comparing every term anew.
_last: tuple[tuple[str, bytes], Loaded] | None = None


def load_taxonomy(paths: ProjectPaths) -> Loaded:
    """The project's taxonomy and its warnings, or LoadError with every problem."""
    global _last
    display = paths.display(paths.taxonomy)
    if not paths.taxonomy.is_file():
        raise LoadError([Diagnostic(display, 1, 1, "", "taxonomy file not found")])
    raw = read_bytes(paths.taxonomy, display)
    if _last is not None and _last[0] == (display, raw):
        return _last[1]
    source = decode_text(raw, display)
    loaded = build_taxonomy(parse_yaml(source.text, display, max_values=None), display)
    _last = ((display, raw), loaded)
    return loaded
