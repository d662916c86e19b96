"""`incidents mcp`: the library as a Model Context Protocol server over stdio (an adapter).

Built on the official SDK (`mcp` on PyPI). Every tool is a method of the Catalogue
(generator/agent/catalogue.py) with its arguments and results typed, so the SDK publishes a JSON
Schema for both; the facets, languages and sections an agent may name are enums there, made from
the taxonomy. A bad argument becomes a tool error with the catalogue's message and suggestions,
never a crash. Nothing is hosted: the server reads the repository (checked as `incidents check`
does) or a site's `api/` exports, on the reader's machine, on a thread of its own
(agent/loading.py), so the handshake is answered at once.

Tools come in sets (`TOOL_SETS`): a function that registers its tools on the server, given the
library's source. A new set of tools is a new function in that list.
"""

# No `from __future__ import annotations`: the SDK reads the tools' annotations, some of which
# are made inside the functions that register them (the enums of the taxonomy's facets).
import json
from collections.abc import Callable
from importlib import metadata
from pathlib import Path
from typing import Annotated, Any, Literal

import yaml
from pydantic import BaseModel, Field, WithJsonSchema

from ..agent.answers import (
    ANSWER_LIMIT,
    IncidentDetail,
    RelatedResult,
    SearchResult,
    TermList,
    TopComponents,
)
from ..agent.arguments import (
    FACET_ALIASES,
    MAX_LIMIT,
    MAX_TERMS,
    CatalogueError,
    facet_names,
    lang_of,
)
from ..agent.audit import AuditResult, audit_paths
from ..agent.catalogue import Catalogue
from ..agent.loading import LibrarySource
from ..languages import DEFAULT, LANGS
from ..model.incident import SECTIONS
from ..model.shorten import shorten
from ..model.text import DATE_PATTERN

INSTRUCTIONS = f"""\
The Incident Library: public Kubernetes and AI-infrastructure (GPU, training, inference)
incidents taken from postmortems and papers, in Korean and English, each classified by facets
(the enums of the `filters` and `facet` arguments). Use search_incidents to answer "has anyone
seen this before?" (a symptom, an error string, a component, in either language) or, with no
query, to list cases by facets, dates or original language, a page at a time, with counts per
facet; get_incident to read a case; list_terms for a facet's terms and their counts;
related_incidents for cases that share terms; top_components for the components to check in
one's own cluster; audit_manifests to check the user's Kubernetes manifests (read-only) against
checks drawn from these cases. Without `lang`, answers are in the query's language (Korean when
there is no query). Every answer about the library stays under {ANSWER_LIMIT:,} characters of
JSON; give `next_offset` back as `offset` for more. Cite the case URLs you use. If some of the
library's files have errors, the incidents they describe are left out: the resource
library://problems lists them."""

# The spec of the handshake versions up to 2025-11-25 names -32002 for a resource that does
# not exist; from 2026-07-28 (SEP-2164) it is Invalid Params.
RESOURCE_NOT_FOUND_BEFORE_2026 = -32002
INVALID_PARAMS = -32602
_RETIRED_CODE_VERSIONS = frozenset({"2024-11-05", "2025-03-26", "2025-06-18", "2025-11-25"})


def version() -> str:
    """The installed package's version, which the server gives as `serverInfo.version`."""
    try:
        return metadata.version("incident-library")
    except metadata.PackageNotFoundError:
        return "0"


def not_found_code(protocol_version: str | None) -> int:
    """The JSON-RPC code of a resource that does not exist, as the negotiated version of the
    protocol specifies it."""
    return (
        RESOURCE_NOT_FOUND_BEFORE_2026
        if protocol_version in _RETIRED_CODE_VERSIONS
        else INVALID_PARAMS
    )


# ---- Arguments: the enums an agent can see ----------------------------------------------------


def _nullable(schema: dict, description: str) -> Any:
    return WithJsonSchema({"anyOf": [schema, {"type": "null"}], "description": description})


def _lang(what: str = "the answer") -> Any:
    return Annotated[
        str | None,
        WithJsonSchema(
            {
                "enum": [*LANGS, None],
                "description": f"Language of {what}: {' or '.join(LANGS)}. Left out: the "
                "language of the query's words (Hangul: ko, otherwise en), and "
                f"'{DEFAULT}' when there is no query.",
            }
        ),
    ]


def _filters(taxonomy) -> Any:
    names = facet_names(taxonomy)
    aliases = ", ".join(f"{a} for {f}" for a, f in FACET_ALIASES.items() if a in names)
    terms = {"type": "array", "items": {"type": "string"}}
    schema = {
        "type": "object",
        "properties": {
            f.id: {**terms, "description": f"{f.label('en')} ({f.label('ko')})"}
            for f in taxonomy.facets
        },
        "propertyNames": {"enum": list(names)},
        "additionalProperties": terms,
    }
    return Annotated[
        dict[str, list[str] | str] | None,
        _nullable(
            schema,
            'Facet -> terms, e.g. {"component": ["infiniband-fabric"], "domain": ["ai-infra"]}. '
            "Terms by id, label or alias (list_terms shows them); several terms of a facet match "
            "any of them, several facets must all match."
            + (f" Also accepted: {aliases}." if aliases else ""),
        ),
    ]


def _facet(taxonomy) -> Any:
    return Annotated[
        str,
        WithJsonSchema(
            {
                "enum": list(facet_names(taxonomy)),
                "description": "The facet: "
                + "; ".join(f"{f.id} ({f.label('en')}, {f.label('ko')})" for f in taxonomy.facets)
                + ".",
            }
        ),
    ]


def _date(bound: str) -> Any:
    return Annotated[
        str | None,
        _nullable(
            {"type": "string", "pattern": DATE_PATTERN},
            f"Only cases that occurred {bound} this date (included): YYYY, YYYY-MM or "
            "YYYY-MM-DD, compared at the precision both dates have.",
        ),
    ]


Query = Annotated[
    str,
    Field(
        description="What to look for, as a reader would type it: symptoms, error strings, "
        "components, in Korean or English (e.g. 'NCCL timeout', '인피니밴드 배선'). Empty: "
        "the cases of the filters and dates, newest first (every case without them)."
    ),
]
Limit = Annotated[int, Field(ge=1, le=MAX_LIMIT, description="How many at most in this page.")]
Offset = Annotated[int, Field(ge=0, description="Where the page starts: a next_offset given.")]
OriginalLanguage = Annotated[
    str | None,
    WithJsonSchema(
        {"enum": [*LANGS, None], "description": "Only cases first written in this language."}
    ),
]
Sections = Annotated[
    list[str] | None,
    _nullable(
        {"type": "array", "items": {"enum": list(SECTIONS)}},
        "Only these sections (all when left out); one section always comes whole.",
    ),
]
CaseId = Annotated[str, Field(description="The case id, e.g. 'imbue-h100-cluster-bring-up'.")]


# ---- The server -------------------------------------------------------------------------------


def _answer(source: LibrarySource, operation: Callable[[Catalogue], BaseModel]):
    """The catalogue's answer, as structured content and as the same JSON in one text block
    (compact, so that the bound holds on the wire too); a CatalogueError as a tool error."""
    from mcp.server.mcpserver.exceptions import ToolError
    from mcp_types import CallToolResult, TextContent

    try:
        result = operation(source.catalogue())
    except CatalogueError as exc:
        raise ToolError(shorten(str(exc), 300)) from None
    data = result.model_dump(mode="json")
    text = json.dumps(data, ensure_ascii=False, separators=(",", ":"))
    return CallToolResult(content=[TextContent(type="text", text=text)], structured_content=data)


def read_only_tool(server):
    """A decorator that registers a function as a read-only tool; its docstring, unwrapped, is
    what the agent reads."""

    def tool(fn):
        description = " ".join((fn.__doc__ or "").split())
        server.add_tool(fn, description=description, annotations=_read_only())
        return fn

    return tool


def library_tools(server, source: LibrarySource) -> None:
    """The tools that read the library."""
    from mcp_types import CallToolResult

    taxonomy = source.taxonomy
    Filters, FacetName = _filters(taxonomy), _facet(taxonomy)
    From, To = _date("on or after"), _date("on or before")

    tool = read_only_tool(server)

    @tool
    def search_incidents(
        query: Query = "",
        filters: Filters = None,
        lang: _lang() = None,
        limit: Limit = 10,
        offset: Offset = 0,
        occurred_from: From = None,
        occurred_to: To = None,
        original_language: OriginalLanguage = None,
    ) -> Annotated[CallToolResult, SearchResult]:
        """Search the library as its site does (same words, synonyms, typo corrections and
        ranking): cases with every query word first, then those missing one; each with its
        terms, dates, URL and the passage that matched. With no query, lists the cases of the
        filters and dates, newest first. Answers a page (next_offset for the next) and how the
        cases found divide by each facet."""
        return _answer(
            source,
            lambda c: c.search(
                query, filters, lang, limit, offset, occurred_from, occurred_to, original_language
            ),
        )

    @tool
    def get_incident(
        id: CaseId, lang: _lang("the text") = None, sections: Sections = None
    ) -> Annotated[CallToolResult, IncidentDetail]:
        """One case in full: every section as Markdown, its terms with labels, dates, scale and
        sources (in the original language when it has no translation)."""
        return _answer(source, lambda c: c.get(id, lang, sections))

    @tool
    def list_terms(
        facet: FacetName,
        lang: _lang() = None,
        limit: Annotated[
            int | None,
            Field(ge=1, le=MAX_TERMS, description="How many terms at most (as many as fit)."),
        ] = None,
        offset: Offset = 0,
    ) -> Annotated[CallToolResult, TermList]:
        """The terms of one facet, in the taxonomy's order: each term's label, description,
        aliases and how many cases use it. A page at a time (next_offset for the next)."""
        return _answer(source, lambda c: c.terms(facet, lang, limit, offset))

    @tool
    def related_incidents(
        id: CaseId,
        lang: _lang() = None,
        limit: Annotated[int, Field(ge=1, le=MAX_LIMIT, description="How many at most.")] = 5,
    ) -> Annotated[CallToolResult, RelatedResult]:
        """Cases that share the most descriptive terms (symptom, cause, component,
        contributing factor) with a case, rarer shared terms first."""
        return _answer(source, lambda c: c.related(id, lang, limit))

    @tool
    def top_components(
        filters: Filters = None,
        query: Annotated[str, Field(description="Optional: limit the cases to a search.")] = "",
        lang: _lang() = None,
        limit: Annotated[int, Field(ge=1, le=MAX_LIMIT, description="How many components.")] = 5,
        offset: Offset = 0,
        occurred_from: From = None,
        occurred_to: To = None,
        original_language: OriginalLanguage = None,
    ) -> Annotated[CallToolResult, TopComponents]:
        """The components that recur in a set of cases (those search_incidents gives for the
        same arguments; every case when none narrows them), most frequent first, each with its
        count and newest cases: what to check in one's own cluster."""
        return _answer(
            source,
            lambda c: c.top_components(
                filters, query, lang, limit, offset, occurred_from, occurred_to, original_language
            ),
        )


def audit_tools(server, source: LibrarySource) -> None:
    """The checker of Kubernetes manifests, whose checks are the repository's (`--root`)."""
    from functools import cache

    from mcp_types import CallToolResult

    from ..audit.runner import AuditError, Checker

    @cache
    def checker() -> Checker:
        catalogue = source.catalogue()
        return Checker.of_library(source.root, catalogue.library, catalogue.site_url)

    def audit(catalogue: Catalogue, paths, lang, checks, whole_cluster) -> AuditResult:
        if source.root is None:
            raise CatalogueError(
                "auditing needs the repository's checks: start the server with "
                "'incidents mcp --root <repository>'"
            )
        try:
            loaded = checker()
        except AuditError as exc:
            raise CatalogueError(str(exc)) from None
        return audit_paths(loaded, paths, lang_of(lang), checks, whole_cluster)

    @read_only_tool(server)
    def audit_manifests(
        paths: Annotated[
            list[str],
            Field(
                description="Files or folders of Kubernetes manifests (YAML or JSON, `helm "
                "template` or `kubectl get -o yaml` output), absolute or relative to the server."
            ),
        ],
        lang: _lang() = None,
        checks: Annotated[
            list[str], Field(description="Only these check ids (all checks when empty).")
        ] = [],  # noqa: B006 - the SDK reads the default into the schema; never mutated
        whole_cluster: Annotated[
            bool,
            Field(
                description="The manifests are a whole cluster (a complete dump): also run the "
                "checks that look for something missing."
            ),
        ] = False,
    ) -> Annotated[CallToolResult, AuditResult]:
        """Check Kubernetes manifests, read-only, against checks drawn from the library's
        incidents (the same as `incidents audit`): each finding with its object, file and line,
        what to change, and the cases it comes from, with their URLs."""
        return _answer(source, lambda c: audit(c, paths, lang, checks, whole_cluster))


def library_resources(server, source: LibrarySource) -> None:
    """Cases as Markdown, the taxonomy as JSON, and the problems that left incidents out."""
    from mcp.server.mcpserver import Context
    from mcp.shared.exceptions import MCPError

    from ..outputs.exports import taxonomy_export

    def not_found(exc: Exception, uri: str, ctx: Context) -> MCPError:
        return MCPError(not_found_code(ctx.protocol_version), str(exc), {"uri": uri})

    @server.resource(
        "incident://{id}{?lang}",
        name="incident",
        description="One case as Markdown; lang is ko or en (ko by default).",
        mime_type="text/markdown",
    )
    def incident_resource(id: str, ctx: Context, lang: str = DEFAULT) -> str:
        try:
            return source.catalogue().markdown(id, lang)
        except CatalogueError as exc:
            raise not_found(exc, f"incident://{id}?lang={lang}", ctx) from None

    def facets() -> list[dict]:
        return taxonomy_export(source.catalogue().library).model_dump(mode="json")["facets"]

    @server.resource(
        "taxonomy://facets",
        name="taxonomy",
        description="Every facet, with labels, descriptions and how many terms it has (JSON); "
        "taxonomy://facets/{id} has one facet's terms.",
        mime_type="application/json",
    )
    def taxonomy_resource() -> str:
        summary = [
            {k: v for k, v in f.items() if k != "terms"} | {"term_count": len(f["terms"])}
            for f in facets()
        ]
        return json.dumps({"facets": summary}, ensure_ascii=False)

    @server.resource(
        "taxonomy://facets/{id}",
        name="facet",
        description="One facet with every term: labels, descriptions, aliases, counts (JSON).",
        mime_type="application/json",
    )
    def facet_resource(id: str, ctx: Context) -> str:
        name = facet_names(taxonomy := source.taxonomy).get(id)
        if name is None:
            known = ", ".join(f.id for f in taxonomy.facets)
            raise not_found(
                CatalogueError(f"unknown facet '{id}'; the facets are {known}"),
                f"taxonomy://facets/{id}",
                ctx,
            )
        (found,) = [f for f in facets() if f["id"] == name]
        return json.dumps(found, ensure_ascii=False)

    @server.resource(
        "library://problems",
        name="problems",
        description="Errors in the library's files and the incidents left out for them (text; "
        "empty when every file is valid).",
        mime_type="text/plain",
    )
    def problems_resource() -> str:
        loaded = source.loaded()
        lines = list(loaded.problems)
        if loaded.left_out:
            lines.append(f"left out: {', '.join(loaded.left_out)}")
        return "\n".join(lines) + ("\n" if lines else "")


def library_prompts(server, source: LibrarySource) -> None:
    @server.prompt(
        name="find_similar_incidents",
        description="Find past public incidents like a symptom seen in one's own cluster.",
    )
    def find_similar_incidents(
        symptom: Annotated[str, Field(description="What is happening, in your own words.")],
        lang: Annotated[Literal["ko", "en"], Field(description="Language to answer in.")] = "ko",
    ) -> str:
        answer_in = "Korean" if lang == "ko" else "English"
        return (
            f"My infrastructure shows this problem: {symptom}\n\n"
            "Using the Incident Library tools: call search_incidents with the key symptoms, "
            "error strings and components (try Korean and English words, and a filter by "
            "component or symptom when one is obvious); read the two or three closest cases "
            "with get_incident; and call top_components on them. Then tell me which past "
            "incidents look like mine and why, what caused them, how they were detected and "
            "fixed, and which components I should check first. Cite each case by its URL. "
            f"Answer in {answer_in}."
        )


# What the server offers, each a function of (server, source) that registers its part.
TOOL_SETS: list[Callable[[Any, LibrarySource], None]] = [
    library_tools,
    audit_tools,
    library_resources,
    library_prompts,
]


def _load_after_the_first_message(source: LibrarySource):
    """Middleware that starts loading the library once the first message (the handshake) is
    answered: loading holds the interpreter most of the time, and the handshake would wait for
    its turn."""

    async def middleware(ctx, call_next):
        try:
            return await call_next(ctx)
        finally:
            source.start()

    return middleware


def build_server(source: LibrarySource):
    """The MCP server for a library's source (not yet running)."""
    from mcp.server.mcpserver import MCPServer

    server = MCPServer(
        "incident-library",
        instructions=INSTRUCTIONS,
        version=version(),
        middleware=[_load_after_the_first_message(source)],
    )
    for register in TOOL_SETS:
        register(server, source)
    return server


def _read_only():
    from mcp_types import ToolAnnotations

    return ToolAnnotations(read_only_hint=True, open_world_hint=False)


def site_url_of(root: Path) -> str:
    """The site's address as MkDocs reads it from mkdocs.yml (its `!ENV` tags resolved, so
    `site_url: !ENV [SITE_URL, ""]` gives SITE_URL), for the URLs the server gives; "" when
    the site's address is not known."""
    from mkdocs.utils.yaml import yaml_load

    try:
        with (root / "mkdocs.yml").open(encoding="utf-8") as file:
            config = yaml_load(file)
    except (OSError, ValueError, yaml.YAMLError):
        return ""
    value = config.get("site_url") if isinstance(config, dict) else None
    return value if isinstance(value, str) and value.startswith(("http://", "https://")) else ""


def run(source: LibrarySource) -> None:
    import anyio

    from .mcp_stdio import serve

    anyio.run(serve, build_server(source))
