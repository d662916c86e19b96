"""The checks as reviewed data: `checks/<id>/check.yml`, read and validated like incidents.

Each check folder holds `check.yml` (what the check says, in both languages, its severity, the
taxonomy terms it concerns and the incidents it is drawn from), `fires.yaml` (a manifest it must
flag) and `passes.yaml` (one it must not). A mistake is reported as `path:line:col: field:
message (did you mean ...?)`, every mistake at once, as `incidents check` reports incidents.
"""

from __future__ import annotations

import re
import string
from collections.abc import Mapping
from dataclasses import dataclass
from pathlib import Path
from types import MappingProxyType

from ..languages import LANGS
from ..load.files import CHECKS_FOLDER
from ..load.front_matter import LoadError, Position, YamlDocument, parse_yaml
from ..model.taxonomy import Taxonomy
from ..pages.urls import RESERVED_CHECK_IDS
from ..validate.diagnostics import Diagnostic, closest, field_name, ordered

CHECK_FILE = "check.yml"
EXAMPLES = ("fires", "passes")  # fires.yaml must be flagged, passes.yaml must not
SEVERITIES = ("high", "medium", "low")  # most serious first
SCOPES = ("object", "cluster")
TEXTS = ("title", "why", "fix", "finding")
TERM_FACETS = ("component", "cause", "contributing_factor")
FIELDS = ("id", "severity", "scope", *TEXTS, "terms", "incidents")
_SLUG = re.compile(r"^[a-z0-9]+(-[a-z0-9]+)*$")
MAX_TITLE = 120
MAX_NODES = 2_000


@dataclass(frozen=True)
class Check:
    """One check's reviewed data."""

    id: str
    severity: str
    scope: str  # object: judged from objects alone; cluster: needs the whole cluster
    texts: Mapping[str, Mapping[str, str]]  # title, why, fix, finding -> lang -> text
    terms: tuple[tuple[str, tuple[str, ...]], ...]  # facet id -> term ids, in TERM_FACETS order
    incidents: tuple[str, ...]
    examples: Mapping[str, str]  # fires, passes -> the manifest's text
    path: str  # display path of check.yml

    def text(self, key: str, lang: str) -> str:
        return self.texts[key][lang]

    def term_ids(self, facet: str) -> tuple[str, ...]:
        return dict(self.terms).get(facet, ())

    @property
    def rank(self) -> int:
        """0 for the most serious severity."""
        return SEVERITIES.index(self.severity)


@dataclass(frozen=True)
class Catalogue:
    checks: tuple[Check, ...]  # most serious first, then by id
    diagnostics: tuple[Diagnostic, ...]

    def check(self, check_id: str) -> Check:
        return next(c for c in self.checks if c.id == check_id)

    def drawn_from(self, incident_id: str) -> tuple[Check, ...]:
        return tuple(c for c in self.checks if incident_id in c.incidents)


def load_checks(
    root: Path,
    taxonomy: Taxonomy,
    incident_ids: frozenset[str],
    rule_ids: frozenset[str] | None = None,
) -> Catalogue:
    """Read and validate every check under `root/checks`; never raises for bad content.

    `rule_ids` are the checks that have a rule (default: the registered rules)."""
    if rule_ids is None:
        from .rules import rules

        rule_ids = frozenset(rules())
    folder = root / CHECKS_FOLDER
    checks: list[Check] = []
    diagnostics: list[Diagnostic] = []
    if not folder.is_dir():
        return Catalogue((), ())
    for entry in sorted(folder.iterdir()):
        if entry.name.startswith((".", "_")) or not entry.is_dir() or entry.is_symlink():
            continue
        display = f"{CHECKS_FOLDER}/{entry.name}/{CHECK_FILE}"
        found, problems = _load_check(entry, display, taxonomy, incident_ids, rule_ids)
        diagnostics.extend(problems)
        if found is not None and not problems:
            checks.append(found)
    checks.sort(key=lambda c: (c.rank, c.id))
    return Catalogue(tuple(checks), tuple(diagnostics))


def check_project_checks(project, taxonomy: Taxonomy | None = None) -> tuple[Diagnostic, ...]:
    """The problems of a project's checks, judged against its taxonomy (read here unless
    given) and its incidents' ids (the names of the originals, which validation holds to
    their ids)."""
    from ..load.files import incident_paths
    from ..load.project import load_taxonomy

    if not (project.root / CHECKS_FOLDER).is_dir():
        return ()
    if taxonomy is None:
        try:
            taxonomy, _ = load_taxonomy(project)
        except LoadError:
            return ()  # the taxonomy's own problems are reported by the incidents' check
    ids = frozenset(
        display.rsplit("/", 1)[-1][: -len(".md")]
        for _, display in incident_paths(project)
        if not display.endswith((".ko.md", ".en.md"))
    )
    return load_checks(project.root, taxonomy, ids).diagnostics


def _load_check(
    folder: Path,
    display: str,
    taxonomy: Taxonomy,
    incident_ids: frozenset[str],
    rule_ids: frozenset[str],
) -> tuple[Check | None, list[Diagnostic]]:
    file = folder / CHECK_FILE
    if not file.is_file() or file.is_symlink():
        return None, [
            Diagnostic(display, 1, 1, "", f"missing: every check folder holds {CHECK_FILE}")
        ]
    try:
        text = file.read_bytes().decode("utf-8-sig").replace("\r\n", "\n")
        document = parse_yaml(text, display, max_values=MAX_NODES)
    except UnicodeDecodeError:
        return None, [Diagnostic(display, 1, 1, "", "not UTF-8 text")]
    except LoadError as exc:
        return None, list(exc.diagnostics)
    problems = _Problems(display, document)
    data = document.data if isinstance(document.data, dict) else {}
    if not isinstance(document.data, dict):
        problems.add(
            (), "a check is a YAML mapping of id, severity, scope, texts, terms, incidents"
        )
    for key in data:
        if key not in FIELDS:
            problems.add((key,), f"unknown field '{key}'", closest(str(key), FIELDS), key=True)
    check_id = data.get("id")
    if check_id != folder.name:
        problems.add(("id",), f"must be the folder's name, '{folder.name}'")
    elif not _SLUG.match(folder.name) or folder.name in RESERVED_CHECK_IDS:
        problems.add(("id",), "lowercase words joined by '-', not a name the site uses (index)")
    elif check_id not in rule_ids:
        problems.add(("id",), "no rule implements this check (generator/audit/rules/)")
    for key, allowed in (("severity", SEVERITIES), ("scope", SCOPES)):
        if data.get(key) not in allowed:
            problems.add(
                (key,), f"one of {', '.join(allowed)}", closest(str(data.get(key)), allowed)
            )
    texts = {key: _texts(data, key, problems) for key in TEXTS}
    _same_placeholders(texts["finding"], problems)
    terms = _terms(data.get("terms"), taxonomy, problems)
    incidents = _incidents(data.get("incidents"), incident_ids, problems)
    examples = {}
    for name in EXAMPLES:
        example = folder / f"{name}.yaml"
        if not example.is_file():
            problems.add(("id",), f"missing {name}.yaml: a manifest the check must {_VERB[name]}")
        else:
            examples[name] = example.read_text(encoding="utf-8")
    if problems.found:
        return None, list(ordered(problems.found))
    check = Check(
        id=folder.name,
        severity=data["severity"],
        scope=data["scope"],
        texts=MappingProxyType({k: MappingProxyType(v) for k, v in texts.items()}),
        terms=terms,
        incidents=incidents,
        examples=MappingProxyType(examples),
        path=display,
    )
    return check, []


_VERB = {"fires": "flag", "passes": "not flag"}


class _Problems:
    def __init__(self, path: str, document: YamlDocument) -> None:
        self.path, self.document = path, document
        self.found: list[Diagnostic] = []

    def add(self, loc: tuple, message: str, suggestion: str | None = None, key: bool = False):
        at: Position = self.document.position(loc, key=key)
        self.found.append(
            Diagnostic(self.path, at.line, at.col, field_name(loc), message, "error", suggestion)
        )


def _texts(data: dict, key: str, problems: _Problems) -> dict[str, str]:
    value = data.get(key)
    if not isinstance(value, dict):
        problems.add((key,), f"write {key} in both languages: {{{', '.join(LANGS)}}}")
        return {}
    out = {}
    for lang in LANGS:
        text = value.get(lang)
        if not isinstance(text, str) or not text.strip():
            problems.add((key, lang), f"missing the {lang} text")
            continue
        if key == "title" and ("\n" in text.strip() or len(text) > MAX_TITLE):
            problems.add((key, lang), f"one line of at most {MAX_TITLE} characters")
        out[lang] = text.strip()
    for extra in set(value) - set(LANGS):
        problems.add((key, extra), f"unknown language '{extra}'", closest(str(extra), LANGS), True)
    return out


def placeholders(text: str) -> frozenset[str]:
    """The `{name}`s a finding's sentence takes from its rule."""
    try:
        return frozenset(name for _, name, _, _ in string.Formatter().parse(text) if name)
    except ValueError:
        return frozenset({"{"})


def _same_placeholders(finding: dict[str, str], problems: _Problems) -> None:
    named = {lang: placeholders(text) for lang, text in finding.items()}
    if len(set(named.values())) > 1:
        detail = "; ".join(f"{lang}: {', '.join(sorted(n)) or 'none'}" for lang, n in named.items())
        problems.add(("finding",), f"both languages must name the same values ({detail})")


def _terms(value: object, taxonomy: Taxonomy, problems: _Problems) -> tuple:
    if not isinstance(value, dict):
        problems.add(("terms",), f"a mapping of {', '.join(TERM_FACETS)} to term ids")
        return ()
    out = []
    for facet in value:
        if facet not in TERM_FACETS or not taxonomy.has_facet(facet):
            problems.add(
                ("terms", facet), f"unknown facet '{facet}'", closest(str(facet), TERM_FACETS), True
            )
    for facet in TERM_FACETS:
        if facet not in value or not taxonomy.has_facet(facet):
            if facet == "component":
                problems.add(
                    ("terms",), "name the components the check concerns (component: [...])"
                )
            continue
        ids = value[facet]
        if not isinstance(ids, list) or (facet == "component" and not ids):
            problems.add(("terms", facet), "a list of term ids")
            continue
        known = {t.id for t in taxonomy.facet(facet).terms}
        for n, term in enumerate(ids):
            if term not in known:
                hint = closest(str(term), known)
                problems.add(("terms", facet, n), f"unknown {facet} term '{term}'", hint)
        out.append((facet, tuple(str(t) for t in ids)))
    return tuple(out)


def _incidents(value: object, incident_ids: frozenset[str], problems: _Problems) -> tuple:
    if not isinstance(value, list) or not value:
        problems.add(("incidents",), "list the incidents this check is drawn from (one at least)")
        return ()
    for n, incident in enumerate(value):
        if incident not in incident_ids:
            problems.add(
                ("incidents", n), f"no incident '{incident}'", closest(str(incident), incident_ids)
            )
    if len(set(value)) != len(value):
        problems.add(("incidents",), "an incident is listed twice")
    return tuple(str(i) for i in value)
