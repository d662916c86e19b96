"""`incidents mcp`: the library as a Model Context Protocol server over stdio (an adapter).

Built on the official SDK (`mcp` on PyPI). Every tool is a method of the Catalogue
(generator/agent/catalogue.py) with its arguments and results typed, so the SDK publishes a JSON
Schema for both; a bad argument becomes a tool error with the catalogue's message and
suggestions, never a crash. Nothing is hosted: the server reads the repository (validated as
`incidents check` does) or a site's `api/` exports, on the reader's machine.
"""

# No `from __future__ import annotations`: the SDK reads the tools' annotations, some of which
# are made inside build_server (the facet list of list_terms).
import json
from collections.abc import Callable
from pathlib import Path
from typing import Annotated, Literal, TypeVar

import yaml
from pydantic import Field

from ..agent.audit import AuditResult, audit_paths
from ..agent.catalogue import (
    Catalogue,
    CatalogueError,
    IncidentDetail,
    RelatedResult,
    SearchResult,
    TermList,
    TopComponents,
)
from ..audit.runner import AuditError, Checker
from ..languages import LANGS
from ..model.shorten import shorten

Lang = Annotated[
    str, Field(description=f"Language of the answer: {' or '.join(LANGS)}. Korean is 'ko'.")
]
Filters = Annotated[
    dict[str, list[str]] | None,
    Field(
        description=(
            'Facet -> terms, e.g. {"component": ["infiniband-fabric"], "domain": '
            '["ai-infra"]}. Terms may be given by id, label or alias; several terms of one '
            "facet match any of them, several facets must all match. list_terms shows the terms."
        )
    ),
]
Limit = Annotated[int, Field(ge=1, le=50, description="How many cases to return at most.")]

INSTRUCTIONS = """\
The Incident Library: public Kubernetes and AI-infrastructure (GPU, training, inference)
incidents taken from postmortems and papers, in Korean and English, each classified by symptom,
cause, component, contributing factor, domain and organization. Use search_incidents to answer
"has anyone seen this before?" (a symptom, an error string, a component, in either language);
get_incident to read a case; list_terms for the vocabulary of a facet; related_incidents for
cases that share terms; top_components for the components to check in one's own cluster;
audit_manifests to check the user's Kubernetes manifests (read-only) against checks drawn from
these cases. Cite the case URLs you use."""

T = TypeVar("T")


def _call(operation: Callable[[], T]) -> T:
    from mcp.server.mcpserver.exceptions import ToolError

    try:
        return operation()
    except CatalogueError as exc:
        raise ToolError(shorten(str(exc), 300)) from None


def build_server(catalogue: Catalogue, checker: Callable[[], "Checker"] | None = None):
    """The MCP server for a catalogue (not yet running). `checker` gives the library's checks
    for the audit tool (read from the repository on first use); without one (a server of a
    site's exports) the tool says it needs the repository."""
    from mcp.server.mcpserver import MCPServer
    from mcp.server.mcpserver.exceptions import ResourceNotFoundError

    server = MCPServer("incident-library", instructions=INSTRUCTIONS)

    def tool(fn):
        # The docstring, unwrapped, is what the agent reads.
        server.add_tool(
            fn, description=" ".join((fn.__doc__ or "").split()), annotations=_read_only()
        )
        return fn

    @tool
    def search_incidents(
        query: Annotated[
            str,
            Field(
                description=(
                    "What to look for, as a reader would type it: symptoms, error strings, "
                    "components, in Korean or English (e.g. 'NCCL timeout', '인피니밴드 배선'). "
                    "May be empty when filters are given."
                )
            ),
        ] = "",
        filters: Filters = None,
        lang: Lang = "ko",
        limit: Limit = 10,
    ) -> SearchResult:
        """Search the library as its site does (same words, synonyms, typo corrections and
        ranking): cases with every query word first, then those missing one; each with its
        terms, dates, URL and the passage that matched."""
        return _call(lambda: catalogue.search(query, filters, lang, limit))

    @tool
    def get_incident(
        id: Annotated[str, Field(description="The case id, e.g. 'imbue-h100-cluster-bring-up'.")],
        lang: Lang = "ko",
    ) -> IncidentDetail:
        """One case in full: every section as Markdown, its terms with labels, dates, scale and
        sources (in the original language when it has no translation)."""
        return _call(lambda: catalogue.get(id, lang))

    @tool
    def list_terms(
        facet: Annotated[
            str,
            Field(
                description=(
                    "One of: " + ", ".join(f.id for f in catalogue.library.taxonomy.facets) + "."
                )
            ),
        ],
        lang: Lang = "ko",
    ) -> TermList:
        """The vocabulary of one facet: each term's label, description, aliases and how many
        cases use it."""
        return _call(lambda: catalogue.terms(facet, lang))

    @tool
    def related_incidents(
        id: Annotated[str, Field(description="The case id.")],
        lang: Lang = "ko",
        limit: Annotated[int, Field(ge=1, le=50, description="How many at most.")] = 5,
    ) -> RelatedResult:
        """Cases that share the most descriptive terms (symptom, cause, component,
        contributing factor) with a case, rarer shared terms first."""
        return _call(lambda: catalogue.related(id, lang, limit))

    @tool
    def top_components(
        filters: Filters = None,
        query: Annotated[str, Field(description="Optional: limit the cases to a search.")] = "",
        lang: Lang = "ko",
        limit: Annotated[int, Field(ge=1, le=50, description="How many components.")] = 5,
    ) -> TopComponents:
        """The components that recur in a set of cases (those matching the filters and query;
        all cases when both are empty), most frequent first, with the cases: what to check in
        one's own cluster."""
        return _call(lambda: catalogue.top_components(filters, query, lang, limit))

    @tool
    def audit_manifests(
        paths: Annotated[
            list[str],
            Field(
                description="Files or folders of Kubernetes manifests (YAML or JSON, `helm "
                "template` or `kubectl get -o yaml` output), absolute or relative to the server."
            ),
        ],
        lang: Lang = "ko",
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
    ) -> AuditResult:
        """Check Kubernetes manifests, read-only, against checks drawn from the library's
        incidents (the same as `incidents audit`): each finding with its object, file and line,
        what to change, and the cases it comes from, with their URLs."""

        def run() -> AuditResult:
            if checker is None:
                raise CatalogueError(
                    "auditing needs the repository's checks: start the server with "
                    "'incidents mcp --root <repository>'"
                )
            try:
                loaded = checker()
            except AuditError as exc:
                raise CatalogueError(str(exc)) from None
            return audit_paths(loaded, paths, lang, checks, whole_cluster)

        return _call(run)

    @server.resource(
        "incident://{id}{?lang}",
        name="incident",
        description="One case as Markdown; lang is ko or en (ko by default).",
        mime_type="text/markdown",
    )
    def incident_resource(id: str, lang: str = "ko") -> str:
        try:
            return catalogue.markdown(id, lang)
        except CatalogueError as exc:
            raise ResourceNotFoundError(str(exc)) from None

    @server.resource(
        "taxonomy://facets",
        name="taxonomy",
        description="Every facet and term, with labels, descriptions, aliases and counts (JSON).",
        mime_type="application/json",
    )
    def taxonomy_resource() -> str:
        from ..outputs.exports import taxonomy_export

        return json.dumps(
            taxonomy_export(catalogue.library).model_dump(mode="json"), ensure_ascii=False
        )

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


def run(catalogue: Catalogue, checker: Callable[[], Checker] | None = None) -> None:
    import anyio

    from .mcp_stdio import serve

    anyio.run(serve, build_server(catalogue, checker))
