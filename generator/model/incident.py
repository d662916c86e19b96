"""An incident as contributors write it: front matter models and the body's fixed sections."""

from __future__ import annotations

import re
from dataclasses import dataclass
from functools import lru_cache
from typing import Annotated, Literal
from urllib.parse import urlsplit

from pydantic import (
    AfterValidator,
    BaseModel,
    ConfigDict,
    Field,
    StringConstraints,
    create_model,
)

from ..languages import Language
from .taxonomy import Taxonomy
from .text import Line, OccurredDate, PartialDate, PlainLine, Slug, shorten


def _http_url(value: str) -> str:
    # No quotes or angle brackets: an address with them is broken, and they mean something in
    # the HTML and XML that cite it.
    if not re.match(r"^https?://[^\s/$.?#\"'<>`][^\s\"'<>`]*$", value, re.IGNORECASE):
        raise ValueError(f"'{shorten(value)}' is not an http(s) URL")
    problem = public_host_problem(value)
    if problem:
        raise ValueError(f"'{shorten(value)}': {problem}")
    return value


# A public report lives at a public domain name. A name of this form ends in a top-level domain
# of letters; local names end in one of these.
_DOMAIN = re.compile(
    r"^(?:[a-z0-9](?:[a-z0-9-]{0,61}[a-z0-9])?\.)+(?:[a-z]{2,63}|xn--[a-z0-9-]{1,59})$"
)
_LOCAL_SUFFIXES = (".localhost", ".local", ".internal", ".intranet", ".lan", ".home.arpa", ".arpa")


def public_host_problem(url: str) -> str | None:
    """Why `url` does not name a public host by its domain name, or None. Loopback, private and
    link-local addresses (a cloud's metadata service at 169.254.169.254 among them), IP
    addresses in any spelling (2130706433 is 127.0.0.1), names that only resolve inside a network,
    credentials and backslashes (which browsers read as slashes, hiding the real host) are refused:
    `incidents links` asks for every source, and must never be pointed at the machine it runs on."""
    if "\\" in url:
        return "a backslash is not allowed in an address"
    parts = urlsplit(url)
    if "@" in parts.netloc:
        return "an address with a user name or password is not a public report's"
    host = (parts.hostname or "").rstrip(".")
    try:
        host = host.encode("idna").decode("ascii")  # a name in another script, as DNS has it
    except UnicodeError:
        return "the host name is not a valid domain name"
    if not _DOMAIN.match(host):
        return "cite the report by its public domain name, not an IP address or local name"
    if host == "localhost" or host.endswith(_LOCAL_SUFFIXES):
        return f"{host} is a local name, not a public one"
    return None


HttpUrl = Annotated[Line, AfterValidator(_http_url)]


class _Strict(BaseModel):
    model_config = ConfigDict(extra="forbid", frozen=True)


class Source(_Strict):
    url: HttpUrl = Field(description="Address of the public report (http or https).")
    title: PlainLine = Field(description="Title of the report as published.")
    publisher: PlainLine = Field(description="Who published it: company, conference, author.")
    date: PartialDate = Field(description="When the report was published.")


# A count as written: a whole number above zero, in decimal digits (the loader keeps 0x10 or 1:30
# as text), and below a bound no real cluster comes near. `yes` (which YAML reads as true) is no
# count.
MAX_COUNT = 10_000_000
Count = Annotated[int, Field(gt=0, le=MAX_COUNT, strict=True)]


class Scale(_Strict):
    gpus: Count | None = Field(default=None, description="Number of GPUs involved.")
    hosts: Count | None = Field(default=None, description="Number of physical hosts.")
    nodes: Count | None = Field(default=None, description="Number of Kubernetes nodes.")
    clusters: Count | None = Field(default=None, description="Number of clusters.")


def _no_empty_scale(scale: Scale | None) -> Scale | None:
    """`scale: {}` (what `incidents new` writes) states nothing: it is the same as no scale."""
    if scale is None or all(getattr(scale, f) is None for f in Scale.model_fields):
        return None
    return scale


# The body's sections, in order; their headings in each language are below.
SectionKey = Literal["symptoms", "trigger", "detection", "actions", "follow_ups", "lessons"]

# Term ids are checked against the taxonomy (with suggestions), not against a pattern here.
TermId = Annotated[str, StringConstraints(min_length=1, max_length=80)]
TermList = Annotated[tuple[TermId, ...], Field(max_length=20)]


class IncidentMeta(_Strict):
    """The canonical file's front matter: every structured field, exactly once.

    This is the part every library shares; `incident_model` adds one field per facet of the
    taxonomy, so the fields follow `taxonomy.yml` and nothing else names them."""

    id: Slug = Field(description="Equals the file name without `.md`.")
    title: PlainLine = Field(description="Short, specific title in the body's language.")
    summary: PlainLine = Field(description="One sentence: what happened and why it matters.")
    lang: Language = Field(description="Language of this file's body.")
    occurred: OccurredDate
    ended: PartialDate | None = Field(default=None, description="When it ended, if known.")
    published: PartialDate = Field(description="When the first public report appeared.")
    scale: Annotated[Scale | None, AfterValidator(_no_empty_scale)] = Field(
        default=None, description="Scale facts the sources state."
    )
    not_in_sources: tuple[SectionKey, ...] = Field(
        default=(),
        description=(
            "Sections the case does not record: no public source covers them (for example "
            "follow_ups when the report names no lasting change), or no readable copy of the "
            "part that does. They are left out of the body in every language and the page says "
            "that the case does not record them."
        ),
    )
    summary_only: tuple[SectionKey, ...] = Field(
        default=(),
        description=(
            "Sections with facts that come only from a secondary summary of the source (a "
            "review, a reading note), not from the source itself, because no readable copy of "
            "that part of the source was found. They are written as usual; the page says where "
            "their facts come from."
        ),
    )
    sources: tuple[Source, ...] = Field(
        min_length=1, max_length=30, description="Public reports this case is written from."
    )
    distinct_from: tuple[Slug, ...] = Field(
        default=(),
        max_length=20,
        description=(
            "Other cases that share a source, or the organization and day, with this one but are "
            "different incidents (silences the 'is it the same incident?' warning)."
        ),
    )

    def __reduce__(self):
        # The class is made per taxonomy (`incident_model`), so pickle (a forked worker sending
        # its results back) cannot find it by name: it is rebuilt from the facets' shape.
        return (_restore, (facet_shape_of(type(self)), dict(self.__dict__)))


def _restore(shape: FacetShape, values: dict) -> IncidentMeta:
    return _model(shape).model_construct(**values)


def facet_shape_of(model: type[IncidentMeta]) -> FacetShape:
    return _SHAPES.get(model, ())


FacetShape = tuple[tuple[str, bool, bool], ...]  # (facet id, single, required) of each facet


def facet_shape(taxonomy: Taxonomy) -> FacetShape:
    return tuple((f.id, f.single, f.required) for f in taxonomy.facets)


def incident_model(taxonomy: Taxonomy) -> type[IncidentMeta]:
    """The front matter model of incidents under `taxonomy`: IncidentMeta plus a field per facet
    (a term id, or a list of them), named, typed and required as the facet declares."""
    return _model(facet_shape(taxonomy))


@lru_cache(maxsize=16)  # one per distinct set of facet declarations; pure
def _model(shape: FacetShape) -> type[IncidentMeta]:
    fields: dict = {}
    for facet_id, single, required in shape:
        if single:
            description = f"Term id from the {facet_id} facet."
            fields[facet_id] = (
                TermId if required else TermId | None,
                Field(... if required else None, description=description),
            )
        else:
            description = f"Term ids from the {facet_id} facet."
            limits = {"min_length": 1} if required else {}
            fields[facet_id] = (
                TermList,
                Field(... if required else (), description=description, **limits),
            )
    doc = "The canonical file's front matter: every structured field, exactly once."
    model = create_model("IncidentMeta", __base__=IncidentMeta, __doc__=doc, **fields)
    _SHAPES[model] = shape
    return model


# Each model made by `_model`, and the shape it was made from (filled only through `_model`,
# whose cache it mirrors; it holds classes, never data).
_SHAPES: dict[type, FacetShape] = {}


class TranslationMeta(_Strict):
    """A translation's front matter: only translated text; every fact lives in the original."""

    title: PlainLine = Field(description="The title, translated.")
    summary: PlainLine = Field(description="The summary, translated.")


# The body's sections, in order, with their headings in each language.
SECTIONS: tuple[str, ...] = ("symptoms", "trigger", "detection", "actions", "follow_ups", "lessons")
SECTION_HEADINGS: dict[str, dict[str, str]] = {
    "ko": {
        "symptoms": "증상",
        "trigger": "촉발",
        "detection": "감지",
        "actions": "조치",
        "follow_ups": "후속 조치",
        "lessons": "교훈",
    },
    "en": {
        "symptoms": "Symptoms",
        "trigger": "Trigger",
        "detection": "Detection",
        "actions": "Actions",
        "follow_ups": "Follow-ups",
        "lessons": "Lessons",
    },
}


@dataclass(frozen=True)
class Section:
    key: str
    markdown: str
    line: int


@dataclass(frozen=True)
class Heading:
    text: str
    line: int


_FENCE = re.compile(r"^[ \t]{0,3}(```|~~~)")
_MAY_MARK = frozenset("#`~ \t")  # first characters of a fence or a heading line (not "")


@lru_cache(maxsize=4)  # a check reads each body twice: its sections, then its review
def body_lines(body: str, first_line: int) -> tuple[tuple[int, str, bool, str | None], ...]:
    """Each line of a body as (line number, text, inside a code fence, heading): `heading` is
    the text of a `## ` heading outside code fences, else None."""
    fence: str | None = None
    lines = []
    for offset, line in enumerate(body.split("\n"), first_line):
        if line[:1] not in _MAY_MARK:  # most lines: neither a fence nor a heading
            lines.append((offset, line, fence is not None, None))
            continue
        marker = _FENCE.match(line)
        if marker:
            fence = None if fence == marker.group(1) else (fence or marker.group(1))
        heading = None if fence or marker else _heading_text(line)
        lines.append((offset, line, fence is not None or marker is not None, heading))
    return tuple(lines)


def split_sections(body: str, first_line: int) -> tuple[str, list[tuple[Heading, str]]]:
    """Split a body at its `## ` headings (outside code fences): (preamble, [(heading, text)]).

    Headings are read without a regular expression: a pattern such as `^##[ \\t]+(.+?)[ \\t#]*$`
    backtracks quadratically on a long run of spaces, which a hostile file can use to stall a build.
    """
    preamble: list[str] = []
    parts: list[tuple[Heading, list[str]]] = []
    for number, line, _, heading in body_lines(body, first_line):
        if heading is not None:
            parts.append((Heading(heading, number), []))
        elif parts:
            parts[-1][1].append(line)
        else:
            preamble.append(line)
    return "\n".join(preamble).strip(), [(h, "\n".join(text).strip()) for h, text in parts]


def _heading_text(line: str) -> str | None:
    """The text of a `## ` heading line (trailing blanks and closing `#`s removed), else None."""
    if not line.startswith("##"):
        return None
    rest = line[2:]
    content = rest.lstrip(" \t")
    if len(content) == len(rest):
        return None  # "###" or "##text": not a level-two heading
    if not content:
        return "" if len(rest) >= 2 else None
    return (content.rstrip(" \t#") or content[0]).strip()


@dataclass(frozen=True)
class CaseText:
    """The prose of a case in one language, from the original file or its translation."""

    lang: str
    title: str
    summary: str
    sections: tuple[Section, ...]
    path: str

    def section(self, key: str) -> str:
        for section in self.sections:
            if section.key == key:
                return section.markdown
        return ""


@dataclass(frozen=True)
class Incident:
    """A validated incident: its structured fields and its text in every language it exists in."""

    meta: IncidentMeta
    path: str
    texts: tuple[CaseText, ...]  # the original first

    @property
    def id(self) -> str:
        return self.meta.id

    @property
    def original(self) -> CaseText:
        return self.texts[0]

    def has_language(self, lang: str) -> bool:
        return any(t.lang == lang for t in self.texts)

    def text(self, lang: str) -> CaseText:
        """The text in `lang`, or the original when there is no translation."""
        for text in self.texts:
            if text.lang == lang:
                return text
        return self.original

    def term_ids(self, facet: str) -> tuple[str, ...]:
        value = getattr(self.meta, facet, None)
        if value is None:
            return ()
        return (value,) if isinstance(value, str) else tuple(value)
