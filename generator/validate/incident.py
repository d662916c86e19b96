"""Check parsed files against the models and the taxonomy; report every problem in one pass.

Pure: takes parsed files, the taxonomy and today's date, returns incidents and diagnostics.
"""

from __future__ import annotations

import re
from collections import defaultdict
from dataclasses import dataclass, replace
from datetime import date

import cmarkgfm
from pydantic import ValidationError

from ..languages import LANGS, in_english
from ..load.front_matter import MarkdownFile, YamlDocument
from ..model.incident import (
    SECTION_HEADINGS,
    SECTIONS,
    CaseText,
    Incident,
    IncidentMeta,
    Scale,
    Section,
    Source,
    TranslationMeta,
    incident_model,
    split_sections,
)
from ..model.taxonomy import Taxonomy
from ..model.text import SLUG_PATTERN, date_before, date_key, parse_partial_date, shorten
from ..pages.urls import RESERVED_INCIDENT_IDS
from .diagnostics import Diagnostic, closest, field_name, from_validation_error, ordered
from .review import Marks, compare, placeholder_sources, review_file

# A facet lists at most this many terms (incident.TermList); past it, the list is reported as too
# long once rather than every extra term as unknown.
MAX_TERMS_CHECKED = 20
MAX_SECTION_CHARS = 20_000
MAX_SECTION_LINES = 400
MISSING = "required field is missing"  # as diagnostics.from_validation_error words it
NOT_A_MAPPING = "front matter must be a mapping of fields, like 'id: my-incident'"


@dataclass(frozen=True)
class FileName:
    """What a file's name says: the incident id and, for a translation, its language."""

    incident_id: str
    lang: str | None


@dataclass(frozen=True)
class ValidationResult:
    incidents: tuple[Incident, ...]  # the valid ones
    diagnostics: tuple[Diagnostic, ...]
    checked: int = 0  # incidents checked (original files), valid or not

    @property
    def errors(self) -> tuple[Diagnostic, ...]:
        return tuple(d for d in self.diagnostics if d.severity == "error")

    @property
    def warnings(self) -> tuple[Diagnostic, ...]:
        return tuple(d for d in self.diagnostics if d.severity == "warning")


def parse_file_name(name: str) -> FileName | None:
    """`x.md` -> (x, None); `x.en.md` -> (x, 'en'); anything else -> None."""
    if not name.endswith(".md"):
        return None
    parts = name[: -len(".md")].split(".")
    if not all(parts):
        return None  # `x..md`, `.md`
    if len(parts) == 1:
        return FileName(parts[0], None)
    if len(parts) == 2:
        return FileName(parts[0], parts[1])
    return None


@dataclass(frozen=True)
class FileOutcome:
    """What checking one file on its own found: a pure function of the file, the taxonomy and
    the date, so it can be cached by the file's content (see pipeline/check_cache.py)."""

    path: str
    incident_id: str | None  # None when the file name is unusable
    lang: str | None  # a translation's language (from its name); None for an original
    meta: IncidentMeta | None = None
    text: CaseText | None = None
    problems: tuple[Diagnostic, ...] = ()
    unreadable: bool = False  # the file could not even be read (its problems say why)
    # A translation's sections that are missing, as (key, line): an error unless the original
    # lists them in not_in_sources, which only the checks across files can see.
    missing_sections: tuple[tuple[str, int], ...] = ()
    identity: Identity | None = None  # an original's marks for "is it the same incident?"
    marks: Marks | None = None  # what comparing it with the other language needs (review.py)

    @property
    def is_translation(self) -> bool:
        return self.lang is not None

    def summary(self) -> FileOutcome:
        """The same outcome with only what the checks across files need: small to store, fast
        to load (a cache of summaries lets `incidents check` skip unchanged files cheaply).
        A summary is its own summary (a worker sends one back, and the cache keeps it)."""
        if isinstance(self.meta, MetaSummary | None) and isinstance(self.text, TextSummary | None):
            return self
        meta = self.meta and MetaSummary(
            self.meta.id,
            self.meta.lang,
            self.meta.occurred,
            tuple(SourceSummary(s.url) for s in self.meta.sources),
            self.meta.not_in_sources,
        )
        text = self.text and TextSummary(self.text.lang)
        return replace(self, meta=meta, text=text)


@dataclass(frozen=True)
class SourceSummary:
    url: str


@dataclass(frozen=True)
class MetaSummary:
    """The fields of IncidentMeta that the checks across files read."""

    id: str
    lang: str
    occurred: str
    sources: tuple[SourceSummary, ...]
    not_in_sources: tuple[str, ...] = ()


@dataclass(frozen=True)
class Identity:
    """What tells whether two incidents are one event reported twice, and where each mark is
    written in the file (so a warning points at the field that matches)."""

    byline: tuple[str, ...]  # the byline facet's terms (who had it)
    byline_facet: str
    occurred: str
    published: str
    occurred_at: tuple[int, int]  # line, column
    sources: tuple[tuple[str, int, int], ...]  # (url, line, column)
    distinct_from: tuple[tuple[str, int, int], ...]  # (id, line, column)


@dataclass(frozen=True)
class TextSummary:
    lang: str


def check_file(file: MarkdownFile, taxonomy: Taxonomy, today: date) -> FileOutcome:
    """Every check that needs only this file (and the taxonomy)."""
    base = file.path.rsplit("/", 1)[-1]
    name = parse_file_name(base)
    if name is None:
        message = "file name must be '<id>.md' or '<id>.<ko|en>.md'"
        return FileOutcome(
            file.path, None, None, problems=(Diagnostic(file.path, 1, 1, "", message),)
        )
    if name.lang is not None:
        text, found, missing = _check_translation(file, name.lang, taxonomy)
        marks = None
        if text is not None:
            marks, reviewed = review_file(file, text)
            found.extend(reviewed)
        return FileOutcome(
            file.path,
            name.incident_id,
            name.lang,
            None,
            text,
            tuple(found),
            missing_sections=missing,
            marks=marks,
        )
    problems: list[Diagnostic] = []
    file_id: str | None = name.incident_id
    if name.incident_id in RESERVED_INCIDENT_IDS:
        message = f"'{name.incident_id}' is the name of a page of the site; choose another id"
        problems.append(Diagnostic(file.path, 1, 1, "", message))
        file_id = None
    elif not re.match(SLUG_PATTERN, name.incident_id) or len(name.incident_id) > 80:
        message = (
            f"file name '{shorten(base)}' is not '<id>.md': an id is lowercase words joined "
            "by hyphens, at most 80 characters"
        )
        problems.append(Diagnostic(file.path, 1, 1, "", message, "error", _slugify(base)))
        file_id = None
    meta, text, found = _check_original(file, file_id, taxonomy, today)
    problems.extend(found)
    if file_id is None:
        meta, text = None, None  # not published under a name that is not its id
    identity = _identity(meta, file.front_matter, taxonomy) if meta is not None else None
    marks = None
    if text is not None:
        marks, reviewed = review_file(file, text, taxonomy)
        problems.extend(reviewed)
    return FileOutcome(
        file.path,
        name.incident_id,
        None,
        meta,
        text,
        tuple(problems),
        identity=identity,
        marks=marks,
    )


def _identity(meta: IncidentMeta, doc: YamlDocument, taxonomy: Taxonomy) -> Identity:
    byline = taxonomy.byline
    terms = getattr(meta, byline.id) if byline is not None else ()
    occurred = doc.position(("occurred",))
    sources = tuple((s.url, *_at(doc, ("sources", i, "url"))) for i, s in enumerate(meta.sources))
    return Identity(
        byline=(terms,) if isinstance(terms, str) else tuple(terms or ()),
        byline_facet=byline.id if byline is not None else "",
        occurred=meta.occurred,
        published=meta.published,
        occurred_at=(occurred.line, occurred.col),
        sources=sources,
        distinct_from=tuple(
            (other, *_at(doc, ("distinct_from", i))) for i, other in enumerate(meta.distinct_from)
        ),
    )


def _at(doc: YamlDocument, loc: tuple) -> tuple[int, int]:
    pos = doc.position(loc)
    return pos.line, pos.col


def combine(
    outcomes: list[FileOutcome], unreadable: frozenset[str] = frozenset()
) -> ValidationResult:
    """The checks across files: duplicate ids, pairing translations with their originals, and
    incidents that look like the same event.

    `unreadable` names incidents whose files could not be read at all (already reported), so
    their translations are not reported again as orphans.
    """
    problems: list[Diagnostic] = []
    originals: dict[str, FileOutcome] = {}
    translations: dict[str, list[FileOutcome]] = defaultdict(list)
    unreadable = set(unreadable)
    for outcome in outcomes:
        if outcome.unreadable:
            problems.extend(outcome.problems)
            unreadable.add(outcome.incident_id or "")
        elif outcome.incident_id is None:
            problems.extend(outcome.problems)
        elif outcome.is_translation:
            translations[outcome.incident_id].append(outcome)
        elif outcome.incident_id in originals:
            first = originals[outcome.incident_id].path
            message = f"duplicate id '{outcome.incident_id}' (also {first})"
            problems.append(Diagnostic(outcome.path, 1, 1, "id", message))
        else:
            problems.extend(outcome.problems)
            originals[outcome.incident_id] = outcome

    incidents: list[Incident] = []
    for incident_id, original in sorted(originals.items()):
        meta, text = original.meta, original.text
        texts = [text] if text else []
        attempted = {t.lang for t in translations.get(incident_id, [])}
        for translation in sorted(translations.pop(incident_id, []), key=lambda t: t.path):
            problems.extend(translation.problems)
            excused = set(meta.not_in_sources) if meta is not None else set(SECTIONS)
            lang_of = translation.lang if translation.lang in SECTION_HEADINGS else "en"
            # A section the original writes is to be translated, not declared uncovered (which
            # the original's own section would then contradict).
            written = {k: line for k, _, line in original.marks.lists} if original.marks else {}
            for key, line in translation.missing_sections:
                if key in written and meta is not None:
                    problems.append(
                        _untranslated_section(
                            translation.path,
                            line,
                            lang_of,
                            key,
                            original.path,
                            meta.lang,
                            written[key],
                        )
                    )
                elif key not in excused:
                    problems.append(_missing_section(translation.path, line, lang_of, key))
            if meta is not None and meta.lang == translation.lang:
                message = (
                    f"the original is already {in_english(meta.lang)}; "
                    "a translation must be in the other language"
                )
                problems.append(Diagnostic(translation.path, 1, 1, "", message))
                continue
            if translation.text and text and translation.text.lang != text.lang:
                texts.append(translation.text)
                if original.marks is not None and translation.marks is not None:
                    problems.extend(
                        compare(original.marks, original.path, translation.marks, translation.path)
                    )
        if meta is None or text is None:
            continue
        for lang in LANGS:
            if lang not in attempted and not any(t.lang == lang for t in texts):
                message = (
                    f"no {in_english(lang)} translation: add {_sibling(original.path, lang)}; "
                    "the site shows the original with a notice until then"
                )
                problems.append(Diagnostic(original.path, 1, 1, "translation", message, "warning"))
        incidents.append(Incident(meta, original.path, tuple(texts)))

    for incident_id, orphans in sorted(translations.items()):
        for orphan in orphans:
            problems.extend(orphan.problems)
            if incident_id in unreadable:
                continue
            suggestion = closest(incident_id, originals)
            message = f"translation of '{incident_id}', but there is no {incident_id}.md"
            problems.append(
                Diagnostic(orphan.path, 1, 1, "", message, "error", suggestion and f"{suggestion}")
            )
    problems.extend(_possible_duplicates(list(originals.values())))
    return ValidationResult(tuple(incidents), ordered(_one_per_place(problems)), len(originals))


_PLACEHOLDER_MESSAGE = "placeholder 'TODO' is still here; fill it in"


def _one_per_place(problems: list[Diagnostic]) -> list[Diagnostic]:
    """A value that is both a placeholder and invalid ('TODO' as a date) is reported once, by
    what is wrong with it."""
    taken = {
        (d.path, d.line, d.col, d.field) for d in problems if d.message != _PLACEHOLDER_MESSAGE
    }
    return [
        d
        for d in problems
        if d.message != _PLACEHOLDER_MESSAGE or (d.path, d.line, d.col, d.field) not in taken
    ]


def _slugify(name: str) -> str | None:
    """`Acme GPU outage.md` -> `acme-gpu-outage.md`, or None when nothing usable is left."""
    stem = name[: -len(".md")] if name.endswith(".md") else name
    slug = "-".join(re.findall(r"[a-z0-9]+", stem.lower()))[:80].strip("-")
    return f"{slug}.md" if slug else None


def _sibling(path: str, lang: str) -> str:
    return path[: -len(".md")] + f".{lang}.md"


def _check_original(
    file: MarkdownFile, file_id: str | None, taxonomy: Taxonomy, today: date
) -> tuple[IncidentMeta | None, CaseText | None, list[Diagnostic]]:
    """`file_id` is the id the file name gives, or None when the name is not a valid id."""
    doc = file.front_matter
    problems: list[Diagnostic] = []
    if not isinstance(doc.data, dict):
        pos = doc.position(())
        return None, None, [Diagnostic(file.path, pos.line, pos.col, "", NOT_A_MAPPING)]
    model = incident_model(taxonomy)
    try:
        meta = model.model_validate(doc.data)
    except ValidationError as exc:
        found = from_validation_error(
            exc, file.path, doc.position, lambda loc: _known_incident_fields(model, loc)
        )
        # An invalid id: the file name says what it should be.
        problems.extend(
            replace(d, suggestion=file_id)
            if d.field == "id" and file_id and d.message != MISSING
            else d
            for d in found
        )
        meta = None
    problems.extend(_check_terms(doc, file.path, taxonomy))
    problems.extend(_check_dates(doc, file.path, today))
    problems.extend(_check_placeholders(file, taxonomy))
    problems.extend(placeholder_sources(doc, file.path))
    lang = doc.data.get("lang")
    known_lang = isinstance(lang, str) and lang in SECTION_HEADINGS
    uncovered = _not_in_sources(doc) or frozenset()
    sections, found, _ = _check_sections(file, lang if known_lang else None, uncovered)
    problems.extend(_one_language_error(found, doc, file.path, lang if known_lang else None))
    problems.extend(_check_uncovered(doc, file.path, sections))
    problems.extend(_check_summary_only(doc, file.path))
    if meta is None:
        return None, None, problems
    if file_id is not None:
        problems.extend(_check_identity(meta, file_id, doc, file.path))
    text = CaseText(meta.lang, meta.title, meta.summary, sections, file.path)
    return (meta, text, problems) if not _has_error(problems) else (None, None, problems)


_PLACEHOLDER = re.compile(r"\bTODO\b")


def _check_placeholders(file: MarkdownFile, taxonomy: Taxonomy | None = None) -> list[Diagnostic]:
    """`incidents new` leaves TODO in every field and section; none may reach the site."""
    problems: list[Diagnostic] = []
    doc = file.front_matter
    for loc, pos in sorted(doc.values.items(), key=lambda item: (item[1].line, item[1].col)):
        if loc and taxonomy is not None and taxonomy.has_facet(str(loc[0])):
            continue  # reported as an unknown term, with a suggestion
        value = _value_at(doc.data, loc)
        if isinstance(value, str) and "TODO" in value and _PLACEHOLDER.search(value):
            message = _PLACEHOLDER_MESSAGE
            problems.append(Diagnostic(file.path, pos.line, pos.col, field_name(loc), message))
    if "TODO" not in file.body:
        return problems
    for offset, line in enumerate(file.body.split("\n")):
        match = _PLACEHOLDER.search(line)
        if match:
            message = _PLACEHOLDER_MESSAGE
            problems.append(
                Diagnostic(file.path, file.body_line + offset, match.start() + 1, "body", message)
            )
    return problems


def _value_at(data: object, loc: tuple) -> object:
    for part in loc:
        try:
            data = data[part]  # type: ignore[index]
        except (KeyError, IndexError, TypeError):
            return None
    return data


def _has_error(problems: list[Diagnostic]) -> bool:
    return any(p.severity == "error" for p in problems)


def _check_identity(
    meta: IncidentMeta, file_id: str, doc: YamlDocument, path: str
) -> list[Diagnostic]:
    if meta.id == file_id:
        return []
    pos = doc.position(("id",))
    message = f"id '{meta.id}' differs from the file name; rename the file or set id: {file_id}"
    return [Diagnostic(path, pos.line, pos.col, "id", message)]


def _check_terms(doc: YamlDocument, path: str, taxonomy: Taxonomy) -> list[Diagnostic]:
    problems: list[Diagnostic] = []
    for declared in taxonomy.facets:
        facet = declared.id
        value = doc.data.get(facet)
        if value is None:
            continue
        if declared.single:
            items = [((facet,), value)] if isinstance(value, str) else []
        elif isinstance(value, list):
            items = [
                ((facet, i), v)
                for i, v in enumerate(value[:MAX_TERMS_CHECKED])
                if isinstance(v, str)
            ]
        else:
            items = []
        seen: set[str] = set()
        for loc, term_id in items:
            pos = doc.position(loc)
            if term_id in seen:
                problems.append(
                    Diagnostic(
                        path,
                        pos.line,
                        pos.col,
                        field_name(loc),
                        f"'{shorten(term_id)}' is listed twice",
                    )
                )
                continue
            seen.add(term_id)
            if taxonomy.term(facet, term_id) is None:
                suggestion = taxonomy.suggest(facet, term_id)
                message = f"unknown {facet} term '{shorten(term_id)}'"
                elsewhere = [f.id for f in taxonomy.facets if taxonomy.term(f.id, term_id)]
                if elsewhere:
                    # A term of another facet: proposing it again would make a duplicate.
                    where = " and ".join(f"'{f}'" for f in elsewhere)
                    message += f"; it is a term of {where}: list it there"
                    suggestion = None
                elif suggestion is None:
                    message += "; terms are reviewed vocabulary: propose it in taxonomy.yml"
                problems.append(
                    Diagnostic(
                        path, pos.line, pos.col, field_name(loc), message, "error", suggestion
                    )
                )
    return problems


def _check_dates(doc: YamlDocument, path: str, today: date) -> list[Diagnostic]:
    """Dates in the future or in an impossible order; judged on the raw values that parse, so
    these are reported even when another field of the file is wrong."""
    problems: list[Diagnostic] = []
    now = today.isoformat()
    data = doc.data

    def report(loc: tuple, message: str) -> None:
        pos = doc.position(loc)
        problems.append(Diagnostic(path, pos.line, pos.col, field_name(loc), message))

    dated: dict[tuple, str] = {}
    candidates = [(("occurred",), data.get("occurred")), (("published",), data.get("published"))]
    candidates.append((("ended",), data.get("ended")))
    sources = data.get("sources")
    if isinstance(sources, list):
        for i, source in enumerate(sources):
            if isinstance(source, dict):
                candidates.append((("sources", i, "date"), source.get("date")))
    for loc, raw in candidates:
        value = parse_partial_date(raw)
        if value is not None:
            dated[loc] = value
            if date_before(now, value):
                report(loc, f"{value} is in the future")
    occurred = dated.get(("occurred",))
    ended, published = dated.get(("ended",)), dated.get(("published",))
    if occurred and ended and date_before(ended, occurred):
        report(("ended",), f"{ended} is before the incident occurred ({occurred})")
    if occurred and published and date_before(published, occurred):
        report(("published",), f"{published} is before the incident occurred ({occurred})")
    return problems


def _not_in_sources(doc: YamlDocument) -> frozenset[str] | None:
    """The sections the front matter says no source covers; None when that is not a list of
    section names (the model reports it)."""
    value = doc.data.get("not_in_sources", [])
    if not isinstance(value, list) or not all(isinstance(v, str) for v in value):
        return None
    return frozenset(value) & frozenset(SECTIONS)


def _check_uncovered(
    doc: YamlDocument, path: str, sections: tuple[Section, ...]
) -> list[Diagnostic]:
    """A section listed in not_in_sources has no text, and Symptoms is never listed."""
    problems = []
    value = doc.data.get("not_in_sources")
    if not isinstance(value, list):
        return problems
    written = {s.key: s for s in sections}
    for index, key in enumerate(value):
        if not isinstance(key, str):
            continue  # the model reports what is not a section name
        pos = doc.position(("not_in_sources", index))
        field = f"not_in_sources[{index}]"
        if key == "symptoms":
            message = "every case describes its symptoms; 'symptoms' cannot be listed here"
            problems.append(Diagnostic(path, pos.line, pos.col, field, message))
        elif key in written:
            message = (
                f"'{key}' is listed as not covered by the sources, but the body has a "
                f"'{written[key].key}' section (line {written[key].line}); remove one of them"
            )
            problems.append(Diagnostic(path, pos.line, pos.col, field, message))
    return problems


def _check_summary_only(doc: YamlDocument, path: str) -> list[Diagnostic]:
    """A section read only through a summary is written, so it cannot also be one the case does
    not record; and each is named once."""
    problems = []
    value = doc.data.get("summary_only")
    if not isinstance(value, list):
        return problems
    unrecorded = _not_in_sources(doc) or frozenset()
    seen: set[str] = set()
    for index, key in enumerate(value):
        if not isinstance(key, str):
            continue  # the model reports what is not a section name
        pos = doc.position(("summary_only", index))
        field = f"summary_only[{index}]"
        if key in unrecorded:
            message = (
                f"'{key}' is also in not_in_sources: a section the case does not record has no "
                "facts to come from a summary; remove it from one of the two"
            )
            problems.append(Diagnostic(path, pos.line, pos.col, field, message))
        elif key in seen:
            problems.append(Diagnostic(path, pos.line, pos.col, field, f"'{key}' is listed twice"))
        seen.add(key)
    return problems


def _one_language_error(
    found: list[Diagnostic], doc: YamlDocument, path: str, lang: str | None
) -> list[Diagnostic]:
    """When every heading is in the other language, `lang` is what is wrong: one error on it
    instead of one per heading (and none for the sections they were taken as missing)."""
    wrong = [d for d in found if d.message.startswith("heading is in the wrong language")]
    matched_headings = [d for d in found if d.field.startswith("section '")]
    if lang is None or len(wrong) < 2 or len(wrong) != len(matched_headings):
        return found
    other = "en" if lang == "ko" else "ko"
    pos = doc.position(("lang",))
    message = (
        f"lang is '{lang}', but the body's section headings are {in_english(other)} "
        f"(## {SECTION_HEADINGS[other][SECTIONS[0]]} …): set lang: {other}, or write the "
        f"{in_english(lang)} headings"
    )
    rest = [d for d in found if d not in wrong and "is missing" not in d.message]
    return [Diagnostic(path, pos.line, pos.col, "lang", message, "error", other), *rest]


def _check_sections(
    file: MarkdownFile, lang: str | None, uncovered: frozenset[str] | None = frozenset()
) -> tuple[tuple[Section, ...], list[Diagnostic], tuple[str, ...]]:
    """The sections of a body, the problems found, and the keys of the sections that are
    missing but may be excused by the original's `not_in_sources` (a translation's check
    passes `uncovered=None`: those are judged once the original is known)."""
    if lang is None:
        return (), [], ()
    headings = SECTION_HEADINGS[lang]
    other = SECTION_HEADINGS["en" if lang == "ko" else "ko"]
    by_text = {text: key for key, text in headings.items()}
    other_by_text = {text: key for key, text in other.items()}
    preamble, parts = split_sections(file.body, file.body_line)
    problems: list[Diagnostic] = []
    first = headings[SECTIONS[0]]
    if preamble:
        message = f"text before the first section; the body starts with '## {first}'"
        problems.append(Diagnostic(file.path, file.body_line, 1, "body", message))
    found: list[Section] = []
    misspelled: set[str] = set()  # sections whose heading was reported as a likely typo
    unknown = 0
    last_index = -1
    for heading, text in parts:
        field = f"section '{shorten(heading.text)}'"
        key = by_text.get(heading.text)
        if key is None:
            if heading.text in other_by_text:
                right = headings[other_by_text[heading.text]]
                misspelled.add(other_by_text[heading.text])
                article = "an" if in_english(lang)[0] in "AEIOU" else "a"
                message = f"heading is in the wrong language for {article} {in_english(lang)} body"
                problems.append(
                    Diagnostic(file.path, heading.line, 1, field, message, "error", right)
                )
            else:
                message = "unknown section; sections are " + ", ".join(headings.values())
                unknown += 1
                # Past a few hundred, nobody reads the suggestions; skip their cost.
                suggestion = closest(heading.text, headings.values()) if unknown <= 200 else None
                if suggestion:
                    misspelled.add(by_text[suggestion])
                problems.append(
                    Diagnostic(file.path, heading.line, 1, field, message, "error", suggestion)
                )
            continue
        if any(s.key == key for s in found):
            problems.append(Diagnostic(file.path, heading.line, 1, field, "section appears twice"))
            continue
        index = SECTIONS.index(key)
        if index < last_index:
            after = headings[SECTIONS[last_index]]
            message = f"out of order: '{heading.text}' must come before '{after}'"
            problems.append(Diagnostic(file.path, heading.line, 1, field, message))
        last_index = max(last_index, index)
        if not text:
            problems.append(Diagnostic(file.path, heading.line, 1, field, "section is empty"))
        elif len(text) > MAX_SECTION_CHARS or text.count("\n") >= MAX_SECTION_LINES:
            # Markdown's work grows faster than the text on some inputs; a case section is a
            # few paragraphs or a list, far below these bounds.
            message = (
                f"section is too long ({len(text):,} characters in {text.count(chr(10)) + 1:,} "
                f"line(s); at most {MAX_SECTION_CHARS:,} characters and {MAX_SECTION_LINES} "
                "lines): shorten it"
            )
            problems.append(Diagnostic(file.path, heading.line, 1, field, message))
        else:
            problems.extend(_check_prose(file, heading.line, field, text))
        found.append(Section(key, text, heading.line))
    present = {s.key for s in found}
    end_line = file.body_line + file.body.count("\n")
    deferred = []
    for key in SECTIONS:
        excused = uncovered is not None and key in uncovered and key != "symptoms"
        if key in present or key in misspelled or excused:
            continue
        if uncovered is None and key != "symptoms":
            deferred.append(key)
            continue
        problems.append(_missing_section(file.path, end_line, lang, key))
    ordered = tuple(sorted(found, key=lambda s: SECTIONS.index(s.key)))
    return ordered, problems, tuple(deferred)


# Prose may link only to http(s) and mailto addresses and shows no images: the site fetches
# nothing from elsewhere, and the Markdown exports (read by language models, whose chat windows
# fetch images) must carry no request either. cmark's output says what a reader would get.
_SAFE_HREF = re.compile(r'<a href="(?:https?://|mailto:)')
_ANY_HREF = re.compile(r'<a href="')
_IMAGE_SYNTAX = re.compile(r"!\[")
_LINK_SYNTAX = re.compile(
    r"\]\(\s*<?\s*(?!https?://|mailto:)[A-Za-z]|\]:\s*<?\s*(?!https?://|mailto:)"
    r"[A-Za-z][A-Za-z0-9+.-]*:|<(?!https?://|mailto:)[A-Za-z][A-Za-z0-9+.-]{1,31}:"
)


def _check_prose(file: MarkdownFile, heading_line: int, field: str, text: str) -> list[Diagnostic]:
    """Images and links to anything but http(s) or mailto, at the line that writes them."""
    if "](" not in text and "]:" not in text and "<" not in text:
        return []
    html = cmarkgfm.markdown_to_html(text)
    problems = []
    if "<img " in html:
        line = _line_of(_IMAGE_SYNTAX, file, heading_line)
        message = "images are not shown (the site fetches nothing from elsewhere): describe it"
        problems.append(Diagnostic(file.path, line, 1, field, message))
    if len(_ANY_HREF.findall(html)) > len(_SAFE_HREF.findall(html)):
        line = _line_of(_LINK_SYNTAX, file, heading_line)
        message = "links may only go to http(s) or mailto addresses"
        problems.append(Diagnostic(file.path, line, 1, field, message))
    return problems


def _line_of(pattern: re.Pattern, file: MarkdownFile, heading_line: int) -> int:
    """The file line, after a section's heading, of the first match of `pattern` (the heading's
    line when the syntax spans lines)."""
    lines = file.body.split("\n")
    for n in range(max(heading_line - file.body_line + 1, 0), len(lines)):
        if lines[n].startswith("## "):
            break
        if pattern.search(lines[n]):
            return file.body_line + n
    return heading_line


def _missing_section(path: str, line: int, lang: str, key: str) -> Diagnostic:
    message = f"section '## {SECTION_HEADINGS[lang][key]}' is missing"
    if key != "symptoms":
        message += f"; if no public source covers it, add {key} to not_in_sources"
    return Diagnostic(path, line, 1, "body", message)


def _untranslated_section(
    path: str, line: int, lang: str, key: str, original: str, original_lang: str, at: int
) -> Diagnostic:
    theirs = SECTION_HEADINGS.get(original_lang, SECTION_HEADINGS["en"])[key]
    message = (
        f"section '## {SECTION_HEADINGS[lang][key]}' is missing; the original has "
        f"'## {theirs}' ({original.rsplit('/', 1)[-1]}:{at}): translate it here"
    )
    return Diagnostic(path, line, 1, "body", message)


def _check_translation(
    file: MarkdownFile, lang: str, taxonomy: Taxonomy
) -> tuple[CaseText | None, list[Diagnostic], tuple[tuple[str, int], ...]]:
    """The translation's text, its problems, and the sections it lacks that only the
    original's `not_in_sources` can excuse, as (key, line)."""
    doc = file.front_matter
    if lang not in SECTION_HEADINGS:
        message = f"unknown language '{lang}' in the file name; use .ko.md or .en.md"
        return (
            None,
            [Diagnostic(file.path, 1, 1, "", message, "error", closest(str(lang), ["ko", "en"]))],
            (),
        )
    problems: list[Diagnostic] = []
    if not isinstance(doc.data, dict):
        pos = doc.position(())
        problems.append(Diagnostic(file.path, pos.line, pos.col, "", NOT_A_MAPPING))
        return None, problems, ()
    original_fields = incident_model(taxonomy).model_fields
    for key in sorted(set(doc.data) - set(TranslationMeta.model_fields)):
        pos = doc.position((key,), key=True)
        if key in original_fields:
            message = (
                "belongs only in the original file; a translation holds only title and summary"
            )
            problems.append(Diagnostic(file.path, pos.line, pos.col, key, message))
    try:
        meta = TranslationMeta.model_validate(
            {
                k: v
                for k, v in doc.data.items()
                if k not in original_fields or k in TranslationMeta.model_fields
            }
        )
    except ValidationError as exc:
        problems.extend(
            from_validation_error(
                exc, file.path, doc.position, lambda loc: list(TranslationMeta.model_fields)
            )
        )
        meta = None
    sections, found, deferred = _check_sections(file, lang, None)
    problems.extend(found)
    problems.extend(_check_placeholders(file))
    end_line = file.body_line + file.body.count("\n")
    missing = tuple((key, end_line) for key in deferred)
    if meta is None or _has_error(problems):
        return None, problems, missing
    return CaseText(lang, meta.title, meta.summary, sections, file.path), problems, missing


def _possible_duplicates(outcomes: list[FileOutcome]) -> list[Diagnostic]:
    """Warn when two incidents look like the same event reported twice: the same byline and
    day, or a shared source. Each of the two files gets the warning, at its own field that
    matches: nothing in a copy tells which file is the new one, and a check of either file
    alone (`check <path>`, `--changed`, the pre-commit hook) must show what a check of the
    whole library shows. Two different incidents say so with `distinct_from` (in either file)
    and the warnings go."""
    problems: list[Diagnostic] = []
    known = [o for o in outcomes if o.identity is not None and o.incident_id]
    ids = {o.incident_id for o in known}
    by_day: dict[tuple[tuple[str, ...], str], FileOutcome] = {}
    by_url: dict[str, tuple[FileOutcome, int]] = {}

    def distinct(a: FileOutcome, b: FileOutcome) -> bool:
        named = {d[0] for d in a.identity.distinct_from} | {d[0] for d in b.identity.distinct_from}
        return a.incident_id in named or b.incident_id in named

    def hint(other: FileOutcome) -> str:
        return (
            f"is it the same incident? If they are different incidents, add "
            f"distinct_from: [{other.incident_id}]"
        )

    def same_day(mine: FileOutcome, other: FileOutcome) -> Diagnostic:
        mark = mine.identity
        who = f"{mark.byline_facet} ({', '.join(mark.byline)})"
        message = f"same {who} and day as '{other.incident_id}' ({other.path}); {hint(other)}"
        line, col = mark.occurred_at
        return Diagnostic(mine.path, line, col, "occurred", message, "warning")

    def shared(mine: FileOutcome, index: int, other: FileOutcome) -> Diagnostic:
        _, line, col = mine.identity.sources[index]
        message = f"also cited by '{other.incident_id}' ({other.path}); {hint(other)}"
        return Diagnostic(mine.path, line, col, f"sources[{index}].url", message, "warning")

    for outcome in sorted(known, key=lambda o: (date_key(o.identity.published), o.incident_id)):
        mark = outcome.identity
        # Only a day-precise date says "same event"; one organization has many incidents a year.
        key = (mark.byline, mark.occurred)
        other = by_day.get(key)
        if other is not None and mark.occurred.count("-") == 2 and not distinct(outcome, other):
            problems += [same_day(outcome, other), same_day(other, outcome)]
        by_day.setdefault(key, outcome)
        for index, (url, _, _) in enumerate(mark.sources):
            normal = url.rstrip("/")
            first = by_url.get(normal)
            other = first[0] if first is not None else outcome
            if other.incident_id != outcome.incident_id and not distinct(outcome, other):
                problems += [shared(outcome, index, other), shared(*first, outcome)]
            by_url.setdefault(normal, (outcome, index))
        for index, (other_id, line, col) in enumerate(mark.distinct_from):
            if other_id not in ids:
                message = f"'{other_id}' is not an incident"
                field = f"distinct_from[{index}]"
                suggestion = closest(other_id, ids)
                problems.append(
                    Diagnostic(outcome.path, line, col, field, message, "warning", suggestion)
                )
    return problems


def _known_incident_fields(model: type[IncidentMeta], loc: tuple) -> list[str]:
    tail = [p for p in loc if isinstance(p, str)]
    if not tail:
        return list(model.model_fields)
    if tail == ["sources"]:
        return list(Source.model_fields)
    if tail == ["scale"]:
        return list(Scale.model_fields)
    return []
