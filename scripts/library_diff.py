"""What a change does to the library: new, changed and removed incidents and moved term counts.

Compares the library at a git ref (default `origin/main`) with the working tree:

    .venv/bin/python scripts/library_diff.py --base origin/main --format markdown

The old `taxonomy.yml` and `incidents/` are read out of git (`git ls-tree`, `git cat-file`) into a
temporary folder, so no worktree or checkout is needed, and both folders are loaded with the
project's own loader. The current generator code judges both sides.

This is a report, not a check: a missing ref, a library that does not load or an incident that
does not validate is described in the output and the script still exits 0 (the `incidents check`
step reports the errors themselves).
"""

from __future__ import annotations

import argparse
import subprocess
import sys
import tempfile
from collections.abc import Iterable
from dataclasses import dataclass, field
from datetime import date
from pathlib import Path

try:
    import generator  # noqa: F401
except ImportError:  # run from a checkout without the package installed
    sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from generator.languages import LANGS
from generator.load.project import ProjectPaths, incident_files
from generator.model.incident import Incident
from generator.model.library import Library, build_library
from generator.model.taxonomy import Taxonomy, Term
from generator.pipeline.check import check_project
from generator.validate.incident import parse_file_name

TAXONOMY = "taxonomy.yml"
INCIDENTS = "incidents"
# What a term change means to readers (its position in the file does not count).
TERM_FIELDS = (
    "label_ko",
    "label_en",
    "description_ko",
    "description_en",
    "aliases_ko",
    "aliases_en",
    "parent",
)
TEXT_FIELDS = ("id", "title", "summary")  # reported per language from the texts, not as fields


# ---------------------------------------------------------------------------------------------
# Loading one side


@dataclass
class Side:
    """The library as one side of the comparison saw it, and what kept parts of it from loading."""

    label: str
    taxonomy: Taxonomy | None = None
    incidents: dict[str, Incident] = field(default_factory=dict)
    library: Library | None = None
    files: dict[str, str] = field(default_factory=dict)  # incident id -> path of its original
    errors: int = 0
    notes: list[str] = field(default_factory=list)

    @property
    def loaded(self) -> bool:
        return self.taxonomy is not None


def load_side(root: Path, label: str, today: date) -> Side:
    side = Side(label)
    try:
        paths = ProjectPaths.at(root)
        checked = check_project(paths, today)
        for path, display in incident_files(paths):
            name = parse_file_name(path.name)
            if name is not None and name.lang is None:
                side.files.setdefault(name.incident_id, display)
        side.errors = sum(1 for d in checked.diagnostics if d.severity == "error")
        if checked.taxonomy is None:
            side.notes.append(f"{TAXONOMY} {label} does not load, so no incident there does.")
            return side
        side.taxonomy = checked.taxonomy
        side.incidents = {i.id: i for i in checked.result.incidents}
        side.library = build_library(checked.taxonomy, checked.result.incidents)
    except Exception as exc:  # a report must not fail the job; say what went wrong instead
        side.taxonomy = None
        side.incidents = {}
        side.library = None
        side.notes.append(f"could not load the library {label}: {type(exc).__name__}: {exc}")
    return side


def _git(root: Path, *args: str, data: bytes | None = None) -> subprocess.CompletedProcess:
    return subprocess.run(
        ["git", *args], cwd=root, input=data, capture_output=True, check=False, timeout=120
    )


def export_ref(root: Path, ref: str, target: Path) -> str | None:
    """Write `taxonomy.yml` and `incidents/` as they are at `ref` into `target`.

    Returns None on success, or a sentence saying why the ref could not be read.
    """
    if not ref or ref.startswith("-"):
        return f"'{ref}' is not a git ref"
    try:
        found = _git(root, "rev-parse", "--verify", "--quiet", f"{ref}^{{commit}}")
    except (OSError, subprocess.SubprocessError) as exc:
        return f"git is not available ({exc})"
    if found.returncode != 0 and _git(root, "rev-parse", "--git-dir").returncode != 0:
        return f"{root} is not in a git repository"
    if found.returncode != 0:
        return (
            f"base ref '{ref}' was not found in this repository "
            "(fetch it first, e.g. actions/checkout with fetch-depth: 0)"
        )
    commit = found.stdout.decode().strip()
    listing = _git(root, "ls-tree", "-r", "-z", commit, "--", TAXONOMY, INCIDENTS)
    if listing.returncode != 0:
        return f"could not list the files at '{ref}': {listing.stderr.decode().strip()}"
    blobs: list[tuple[str, str]] = []  # (object id, path relative to root)
    for entry in listing.stdout.decode("utf-8", "surrogateescape").split("\0"):
        if not entry:
            continue
        info, _, path = entry.partition("\t")
        _mode, kind, object_id = info.split()
        if kind == "blob":
            blobs.append((object_id, path))
    contents = _read_blobs(root, [object_id for object_id, _ in blobs])
    for (_object_id, path), content in zip(blobs, contents, strict=True):
        if content is None:
            continue
        destination = target / path
        destination.parent.mkdir(parents=True, exist_ok=True)
        destination.write_bytes(content)
    return None


def _read_blobs(root: Path, object_ids: list[str]) -> list[bytes | None]:
    """The contents of many blobs, read by one `git cat-file --batch` rather than one per file."""
    if not object_ids:
        return []
    batch = _git(root, "cat-file", "--batch", data="".join(f"{o}\n" for o in object_ids).encode())
    out, pos, contents = batch.stdout, 0, []
    for _ in object_ids:
        end = out.find(b"\n", pos)
        if end < 0:
            contents.append(None)
            continue
        header = out[pos:end].split()
        if len(header) != 3 or header[1] != b"blob":  # "<id> missing" and the like
            contents.append(None)
            pos = end + 1
            continue
        size = int(header[2])
        contents.append(out[end + 1 : end + 1 + size])
        pos = end + 1 + size + 1
    return contents


# ---------------------------------------------------------------------------------------------
# Comparing


@dataclass(frozen=True)
class Change:
    incident: Incident
    fields: tuple[str, ...]  # e.g. "cause (+overload, -faulty-change)", "sources"
    texts: tuple[str, ...]  # e.g. "ko: title, symptoms", "en text added"


@dataclass(frozen=True)
class Moved:
    term: Term
    before: int
    after: int


@dataclass
class Diff:
    base: str
    old: Side
    new: Side
    added: list[Incident] = field(default_factory=list)
    changed: list[Change] = field(default_factory=list)
    removed: list[Incident] = field(default_factory=list)
    invalid: list[str] = field(default_factory=list)  # paths present here that did not validate
    terms_added: list[Term] = field(default_factory=list)
    terms_removed: list[Term] = field(default_factory=list)
    terms_changed: list[Term] = field(default_factory=list)
    moved: list[Moved] = field(default_factory=list)
    notes: list[str] = field(default_factory=list)
    compared: bool = True  # False when one side could not be loaded at all

    @property
    def empty(self) -> bool:
        return not (
            self.added
            or self.changed
            or self.removed
            or self.invalid
            or self.terms_added
            or self.terms_removed
            or self.terms_changed
            or self.moved
        )


def compare(base: str, old: Side, new: Side) -> Diff:
    diff = Diff(base, old, new, notes=[*old.notes, *new.notes])
    if not (old.loaded and new.loaded):
        # Without both taxonomies no incident loads on that side; listing every incident as new
        # or removed would be wrong, so say what is known and stop.
        diff.compared = False
        return diff
    for incident_id, incident in sorted(new.incidents.items()):
        before = old.incidents.get(incident_id)
        if before is None:
            # An incident that was there but did not validate before is not "new" to readers,
            # but it is new to the site, which is what this report is about.
            diff.added.append(incident)
            continue
        change = incident_change(before, incident, new.taxonomy)
        if change.fields or change.texts:
            diff.changed.append(change)
    for incident_id, incident in sorted(old.incidents.items()):
        if incident_id not in new.incidents and incident_id not in new.files:
            diff.removed.append(incident)
    # Still on disk but not loaded: an error keeps it out of the site (the check step says which).
    diff.invalid = sorted(p for i, p in new.files.items() if i not in new.incidents)
    _compare_taxonomies(diff, old.taxonomy, new.taxonomy)
    diff.moved = moved_counts(old.library, new.library)
    return diff


def incident_change(old: Incident, new: Incident, taxonomy: Taxonomy) -> Change:
    before = old.meta.model_dump(mode="json")
    after = new.meta.model_dump(mode="json")
    fields: list[str] = []
    for name in after.keys() | before.keys():
        if name in TEXT_FIELDS or before.get(name) == after.get(name):
            continue
        fields.append(name)
    fields.sort(key=lambda n: list(after).index(n) if n in after else len(after))
    described = tuple(_describe_field(name, old, new, taxonomy) for name in fields)
    if old.path != new.path:
        described += (f"path ({old.path} → {new.path})",)
    return Change(new, described, _text_changes(old, new))


def _describe_field(name: str, old: Incident, new: Incident, taxonomy: Taxonomy) -> str:
    if not taxonomy.has_facet(name):
        return name
    before, after = old.term_ids(name), new.term_ids(name)
    if taxonomy.facet(name).single:
        return f"{name} ({', '.join(before) or '-'} → {', '.join(after) or '-'})"
    parts = [f"+{t}" for t in after if t not in before] + [
        f"-{t}" for t in before if t not in after
    ]
    return f"{name} ({', '.join(parts)})" if parts else f"{name} (order)"


def _text_changes(old: Incident, new: Incident) -> tuple[str, ...]:
    old_texts = {t.lang: t for t in old.texts}
    new_texts = {t.lang: t for t in new.texts}
    out: list[str] = []
    for lang in LANGS:
        before, after = old_texts.get(lang), new_texts.get(lang)
        if before is None and after is None:
            continue
        if before is None:
            out.append(f"{lang} text added")
            continue
        if after is None:
            out.append(f"{lang} text removed")
            continue
        parts = [
            name for name in ("title", "summary") if getattr(before, name) != getattr(after, name)
        ]
        old_sections = {s.key: s.markdown for s in before.sections}
        new_sections = {s.key: s.markdown for s in after.sections}
        for key in [*new_sections, *(k for k in old_sections if k not in new_sections)]:
            if old_sections.get(key) != new_sections.get(key):
                parts.append(key)
        if parts:
            out.append(f"{lang}: {', '.join(parts)}")
    return tuple(out)


def _compare_taxonomies(diff: Diff, old: Taxonomy, new: Taxonomy) -> None:
    old_terms = {t.key: t for t in old.terms()}
    new_terms = {t.key: t for t in new.terms()}
    for key, term in new_terms.items():
        before = old_terms.get(key)
        if before is None:
            diff.terms_added.append(term)
        elif any(getattr(before, f) != getattr(term, f) for f in TERM_FIELDS):
            diff.terms_changed.append(term)
    diff.terms_removed = [t for k, t in old_terms.items() if k not in new_terms]


def moved_counts(old: Library, new: Library) -> list[Moved]:
    """Every term whose number of cases differs, in the order of the new taxonomy."""
    terms: dict[tuple[str, str], Term] = {t.key: t for t in new.taxonomy.terms()}
    for term in old.taxonomy.terms():
        terms.setdefault(term.key, term)
    facet_order = {facet.id: i for i, facet in enumerate(new.taxonomy.facets)}
    out = []
    for position, (key, term) in enumerate(terms.items()):
        old_term, new_term = old.taxonomy.term(*key), new.taxonomy.term(*key)
        before = old.count(old_term) if old_term else 0
        after = new.count(new_term) if new_term else 0
        if before != after:
            out.append(
                (
                    facet_order.get(term.facet, len(facet_order)),
                    position,
                    Moved(term, before, after),
                )
            )
    return [moved for *_, moved in sorted(out, key=lambda item: item[:2])]


# ---------------------------------------------------------------------------------------------
# Output


def _title(incident: Incident) -> str:
    return incident.original.title


def _languages(incident: Incident) -> str:
    return ", ".join(t.lang for t in incident.texts)


def _delta(moved: Moved) -> str:
    return f"{moved.after - moved.before:+d}"


def _current(diff: Diff) -> str:
    if not diff.new.loaded:
        return "The working tree's library does not load."
    return f"The working tree has {len(diff.new.incidents)} valid incident(s)."


def _headline(diff: Diff) -> str:
    before, after = len(diff.old.incidents), len(diff.new.incidents)
    counts = f"{len(diff.added)} new, {len(diff.changed)} changed, {len(diff.removed)} removed"
    return f"Incidents: {before} → {after} ({counts})"


def _md(text: str) -> str:
    """Plain text safe inside a Markdown table cell (no markup, no HTML, no column breaks)."""
    out = text.replace("\\", "\\\\")
    for char in "`*_[]<>|#":
        out = out.replace(char, "\\" + char)
    return " ".join(out.split())


def render_markdown(diff: Diff) -> str:
    lines = [f"## Library changes against `{_md(diff.base)}`", ""]
    for note in diff.notes:
        lines += [f"> **Note:** {_md(note)}", ""]
    if diff.new.errors:
        lines += [
            f"> **{diff.new.errors} validation error(s) in this change**; the check step "
            "annotates them on the changed lines.",
            "",
        ]
    if not diff.compared:
        lines += [f"Not compared. {_md(_current(diff))}", ""]
        return "\n".join(lines)
    lines += [f"**{_headline(diff)}**", ""]
    if diff.empty:
        lines += ["No change to the incidents or the taxonomy.", ""]
        return "\n".join(lines)
    if diff.added:
        lines += ["### New incidents", "", "| Incident | Title | Languages |", "|---|---|---|"]
        lines += [f"| `{i.id}` | {_md(_title(i))} | {_languages(i)} |" for i in diff.added]
        lines.append("")
    if diff.changed:
        lines += [
            "### Changed incidents",
            "",
            "| Incident | Title | What changed |",
            "|---|---|---|",
        ]
        for change in diff.changed:
            what = "; ".join(_md(part) for part in (*change.fields, *change.texts))
            lines.append(f"| `{change.incident.id}` | {_md(_title(change.incident))} | {what} |")
        lines.append("")
    if diff.removed:
        lines += ["### Removed incidents", "", "| Incident | Title |", "|---|---|"]
        lines += [f"| `{i.id}` | {_md(_title(i))} |" for i in diff.removed]
        lines.append("")
    if diff.invalid:
        lines += ["### Not valid in this change", ""]
        lines += [f"- `{path}` does not validate; see the check step." for path in diff.invalid]
        lines.append("")
    if diff.terms_added or diff.terms_removed or diff.terms_changed:
        lines += ["### Taxonomy", ""]
        for heading, terms in (
            ("Added", diff.terms_added),
            ("Changed", diff.terms_changed),
            ("Removed", diff.terms_removed),
        ):
            if terms:
                listed = ", ".join(f"`{t.facet}/{t.id}` ({_md(t.label_en)})" for t in terms)
                lines.append(f"- {heading} terms: {listed}")
        lines.append("")
    if diff.moved:
        lines += ["### Term counts", "", "| Facet | Term | Cases | Δ |", "|---|---|---|---|"]
        for moved in diff.moved:
            term = moved.term
            lines.append(
                f"| {term.facet} | {_md(term.label_en)} (`{term.id}`) "
                f"| {moved.before} → {moved.after} | {_delta(moved)} |"
            )
        lines.append("")
    return "\n".join(lines)


def render_text(diff: Diff) -> str:
    lines = [f"Library changes against {diff.base}"]
    lines += [f"note: {note}" for note in diff.notes]
    if diff.new.errors:
        lines.append(f"{diff.new.errors} validation error(s) in this change: run incidents check")
    if not diff.compared:
        lines.append(f"Not compared. {_current(diff)}")
        return "\n".join(lines) + "\n"
    lines.append(_headline(diff))
    if diff.empty:
        lines.append("No change to the incidents or the taxonomy.")
        return "\n".join(lines) + "\n"

    def section(heading: str, rows: Iterable[str]) -> None:
        rows = list(rows)
        if rows:
            lines.extend(["", f"{heading}:", *(f"  {row}" for row in rows)])

    section("New incidents", (f"+ {i.id}  {_title(i)}  [{_languages(i)}]" for i in diff.added))
    changed = []
    for change in diff.changed:
        changed.append(f"~ {change.incident.id}  {_title(change.incident)}")
        changed += [f"    {part}" for part in (*change.fields, *change.texts)]
    section("Changed incidents", changed)
    section("Removed incidents", (f"- {i.id}  {_title(i)}" for i in diff.removed))
    section("Not valid in this change", (f"! {path}" for path in diff.invalid))
    section(
        "Taxonomy",
        [
            *(f"+ {t.facet}/{t.id} ({t.label_en})" for t in diff.terms_added),
            *(f"~ {t.facet}/{t.id} ({t.label_en})" for t in diff.terms_changed),
            *(f"- {t.facet}/{t.id} ({t.label_en})" for t in diff.terms_removed),
        ],
    )
    section(
        "Term counts",
        (
            f"{m.term.facet}/{m.term.id} ({m.term.label_en}): {m.before} → {m.after} ({_delta(m)})"
            for m in diff.moved
        ),
    )
    return "\n".join(lines) + "\n"


# ---------------------------------------------------------------------------------------------
# Command


def library_diff(root: Path, base: str, today: date) -> Diff:
    root = root.resolve()
    new = load_side(root, "in the working tree", today)
    with tempfile.TemporaryDirectory(prefix="library-diff-") as folder:
        try:
            problem = export_ref(root, base, Path(folder))
        except Exception as exc:  # an unreadable ref is reported, not raised
            problem = f"could not read '{base}': {type(exc).__name__}: {exc}"
        if problem is None:
            old = load_side(Path(folder), f"at {base}", today)
        else:
            old = Side(base, notes=[f"{problem}; nothing to compare with."])
    return compare(base, old, new)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(
        description="Show what the working tree changes in the library compared with a git ref."
    )
    parser.add_argument("--base", default="origin/main", help="git ref to compare with")
    parser.add_argument(
        "--root",
        type=Path,
        default=Path("."),
        help="project folder holding taxonomy.yml and incidents/ (default: .)",
    )
    parser.add_argument("--format", choices=("markdown", "text"), default="text")
    args = parser.parse_args(argv)
    if hasattr(sys.stdout, "reconfigure"):
        sys.stdout.reconfigure(encoding="utf-8", errors="replace")
    diff = library_diff(args.root, args.base, date.today())
    sys.stdout.write(render_markdown(diff) if args.format == "markdown" else render_text(diff))
    return 0


if __name__ == "__main__":
    sys.exit(main())
