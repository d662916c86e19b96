"""A project on disk: reading its taxonomy (the input edge of the core, with front_matter.py).

Where the project's files are and which are incidents is files.py, re-exported here."""

from __future__ import annotations

from ..model.taxonomy import Taxonomy
from ..validate.diagnostics import Diagnostic
from .files import ProjectPaths, incident_files, select_incident_files
from .front_matter import LoadError, parse_yaml, read_text
from .taxonomy import build_taxonomy

__all__ = ["ProjectPaths", "incident_files", "load_taxonomy", "select_incident_files"]


def load_taxonomy(paths: ProjectPaths) -> tuple[Taxonomy, tuple[Diagnostic, ...]]:
    """The project's taxonomy and its warnings, or LoadError with every problem."""
    display = paths.display(paths.taxonomy)
    if not paths.taxonomy.is_file():
        raise LoadError([Diagnostic(display, 1, 1, "", "taxonomy file not found")])
    source = read_text(paths.taxonomy, display)
    return build_taxonomy(parse_yaml(source.text, display, max_values=None), display)
