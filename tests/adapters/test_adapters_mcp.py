"""`incidents mcp` driven by the official SDK's own client over stdio, as a coding agent drives
it: the tools and their schemas, each tool on the repository's library in both languages, a
Korean search with particles, filters, every kind of bad argument, resources and the prompt, the
same cases in the same order as the site's search, and serving a site's exports (`--from`)."""

from __future__ import annotations

import asyncio
import json
import subprocess
import sys
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

import pytest
from conftest import REPO, SEARCH_QUERIES

from generator.outputs.exports import api_files
from generator.search.corpus import build_corpus
from generator.search.engine import search

INCIDENTS = str(Path(sys.executable).parent / "incidents")
QUERIES = SEARCH_QUERIES
IMBUE = "imbue-h100-cluster-bring-up"
TOOLS = {
    "search_incidents",
    "get_incident",
    "list_terms",
    "related_incidents",
    "top_components",
    "audit_manifests",
}


def session(args: list[str], body):
    """Run `body(client)` against `incidents mcp ARGS` and return what it returns."""
    from mcp import ClientSession
    from mcp.client.stdio import StdioServerParameters, stdio_client

    async def run():
        params = StdioServerParameters(command=INCIDENTS, args=["mcp", *args])
        async with stdio_client(params) as (read, write), ClientSession(read, write) as client:
            await client.initialize()
            return await body(client)

    # On a thread of its own: once a browser test has run in this process, Playwright's event
    # loop counts as running on the main thread, and asyncio.run() refuses to start there.
    with ThreadPoolExecutor(1) as pool:
        return pool.submit(asyncio.run, asyncio.wait_for(run(), timeout=240)).result()


@pytest.fixture(scope="module")
def library(repository_library):
    return repository_library


async def missing(client, uri: str) -> tuple[int, str] | None:
    """The code and message of the error a resource that does not exist is answered with."""
    from mcp.shared.exceptions import MCPError

    try:
        await client.read_resource(uri)
    except MCPError as exc:
        return exc.error.code, exc.error.message
    return None


REPO_ARGS = ["--root", str(REPO), "--site-url", "https://incidents.example.org/"]


def test_a_whole_session_on_the_repository(library):
    async def body(client):
        out = {"tools": (await client.list_tools()).tools}
        call = client.call_tool
        out["ko"] = await call(
            "search_incidents", {"query": "인피니밴드 배선이", "lang": "ko", "limit": 3}
        )
        out["en"] = await call(
            "search_incidents",
            {
                "query": "",
                "filters": {"component": ["infiniband-fabric"]},
                "lang": "en",
                "limit": 50,
            },
        )
        out["get_ko"] = await call("get_incident", {"id": IMBUE, "lang": "ko"})
        out["get_en"] = await call("get_incident", {"id": IMBUE, "lang": "en"})
        out["terms"] = await call("list_terms", {"facet": "component", "lang": "en"})
        out["related"] = await call("related_incidents", {"id": IMBUE, "lang": "ko", "limit": 3})
        out["top"] = await call(
            "top_components", {"filters": {"domain": ["ai-infra"]}, "lang": "en"}
        )
        out["bad"] = {
            name: await call(tool, arguments)
            for name, (tool, arguments) in {
                "no word": ("search_incidents", {"query": "the of"}),
                "unknown facet": (
                    "search_incidents",
                    {"query": "gpu", "filters": {"componnt": ["gpu"]}},
                ),
                "unknown term": (
                    "search_incidents",
                    {"query": "gpu", "filters": {"component": ["gpuu"]}},
                ),
                "unknown id": ("get_incident", {"id": "imbue-h100"}),
                "unknown language": ("get_incident", {"id": IMBUE, "lang": "jp"}),
                "limit out of range": ("search_incidents", {"query": "gpu", "limit": 0}),
                "missing argument": ("get_incident", {}),
            }.items()
        }
        out["resource_ko"] = await client.read_resource(f"incident://{IMBUE}?lang=ko")
        out["resource_en"] = await client.read_resource(f"incident://{IMBUE}?lang=en")
        out["taxonomy"] = await client.read_resource("taxonomy://facets")
        out["component"] = await client.read_resource("taxonomy://facets/component")
        out["problems"] = await client.read_resource("library://problems")
        out["templates"] = (await client.list_resource_templates()).resource_templates
        out["prompts"] = (await client.list_prompts()).prompts
        out["prompt"] = await client.get_prompt(
            "find_similar_incidents", {"symptom": "NCCL 타임아웃으로 학습이 멈춤", "lang": "ko"}
        )
        out["missing_resource"] = await missing(client, "incident://no-such-case")
        out["missing_facet"] = await missing(client, "taxonomy://facets/causes")
        return out

    out = session(REPO_ARGS, body)

    tools = {t.name: t for t in out["tools"]}
    assert set(tools) == TOOLS
    for tool in tools.values():
        assert tool.description and tool.input_schema["type"] == "object"
        assert tool.output_schema is not None and tool.annotations.read_only_hint
    search_schema = tools["search_incidents"].input_schema["properties"]
    assert set(search_schema) == {
        "query",
        "filters",
        "lang",
        "limit",
        "offset",
        "occurred_from",
        "occurred_to",
        "original_language",
    }
    assert search_schema["limit"]["maximum"] == 50
    assert tools["get_incident"].input_schema["required"] == ["id"]

    ko = out["ko"].structured_content
    assert not out["ko"].is_error and ko["results"][0]["id"] == IMBUE
    assert ko["results"][0]["url"] == f"https://incidents.example.org/ko/cases/{IMBUE}.html"
    assert "**" in ko["results"][0]["passage"]["marked"]
    fabric = {
        i.id for i in library.cases_with(library.taxonomy.term("component", "infiniband-fabric"))
    }
    assert {r["id"] for r in out["en"].structured_content["results"]} == fabric

    ko_case, en_case = out["get_ko"].structured_content, out["get_en"].structured_content
    assert ko_case["title"] != en_case["title"] and ko_case["id"] == en_case["id"] == IMBUE
    assert ko_case["sources"] and set(ko_case["sections"]) >= {"symptoms", "lessons"}
    assert any(t["id"] == "infiniband-fabric" for t in out["terms"].structured_content["terms"])
    assert len(out["related"].structured_content["related"]) == 3
    assert out["top"].structured_content["components"][0]["cases"] > 0

    messages = {name: result.content[0].text for name, result in out["bad"].items()}
    assert all(result.is_error for result in out["bad"].values()), messages
    assert "has no word to search for" in messages["no word"]
    assert "(did you mean 'component'?)" in messages["unknown facet"]
    assert "(did you mean 'gpu'?)" in messages["unknown term"]
    assert IMBUE in messages["unknown id"]
    assert "unknown language 'jp'" in messages["unknown language"]
    assert "limit" in messages["limit out of range"] and "id" in messages["missing argument"]

    assert out["resource_ko"].contents[0].text.startswith(f"# {ko_case['title']}")
    assert out["resource_en"].contents[0].text.startswith(f"# {en_case['title']}")
    taxonomy = json.loads(out["taxonomy"].contents[0].text)
    assert [f["id"] for f in taxonomy["facets"]] == [f.id for f in library.taxonomy.facets]
    assert [f["term_count"] for f in taxonomy["facets"]] == [
        len(f.terms) for f in library.taxonomy.facets
    ]
    component = json.loads(out["component"].contents[0].text)
    assert [t["id"] for t in component["terms"]] == [
        t.id for t in library.taxonomy.facet("component").terms
    ]
    assert [t.uri_template for t in out["templates"]] == [
        "incident://{id}{?lang}",
        "taxonomy://facets/{id}",
    ]
    assert [p.name for p in out["prompts"]] == ["find_similar_incidents"]
    assert "NCCL 타임아웃으로 학습이 멈춤" in out["prompt"].messages[0].content.text
    # The handshake's protocol (2025-11-25) names -32002 for a resource that does not exist.
    assert out["missing_resource"] == (-32002, "no incident has the id 'no-such-case'")
    assert out["missing_facet"][0] == -32002 and "unknown facet 'causes'" in out["missing_facet"][1]
    assert out["problems"].contents[0].text == ""


def test_search_over_stdio_gives_the_sites_order_for_every_query(library):
    corpora = {lang: build_corpus(library, lang).corpus for lang in ("ko", "en")}

    async def body(client):
        answers = {}
        for lang, cases in QUERIES.items():
            for case in cases:
                result = await client.call_tool(
                    "search_incidents", {"query": case["query"], "lang": lang, "limit": 20}
                )
                answers[lang, case["query"]] = [
                    r["id"] for r in result.structured_content["results"]
                ]
        return answers

    answers = session(REPO_ARGS, body)
    for (lang, query), ids in answers.items():
        assert ids and ids == list(search(corpora[lang], query).ids[: len(ids)]), (lang, query)


def test_serving_a_sites_exports(library, tmp_path):
    for path, data in api_files(library).items():
        (tmp_path / path).parent.mkdir(parents=True, exist_ok=True)
        (tmp_path / path).write_bytes(data)

    async def body(client):
        return await client.call_tool(
            "search_incidents", {"query": "xid 79", "lang": "en", "limit": 5}
        )

    from_exports = session(["--from", str(tmp_path / "api" / "incidents.json")], body)
    from_repo = session(REPO_ARGS, body)
    ids = lambda result: [r["id"] for r in result.structured_content["results"]]  # noqa: E731
    assert ids(from_exports) == ids(from_repo) and ids(from_repo)
    assert from_exports.structured_content["results"][0]["url"].startswith("en/cases/")


def test_a_library_with_a_broken_incident_serves_the_others_and_says_which(project):
    project.add_incident("acme-gpu-outage")
    project.add_incident("globex-etcd-outage", organization="globex", cause="[no-such-cause]")

    async def body(client):
        listed = await client.call_tool("search_incidents", {"lang": "en"})
        problems = await client.read_resource("library://problems")
        return listed.structured_content, problems.contents[0].text

    listed, problems = session(["--root", str(project.root)], body)
    assert [r["id"] for r in listed["results"]] == ["acme-gpu-outage"]
    assert "incidents/globex-etcd-outage.md:" in problems and "no-such-cause" in problems
    assert problems.endswith("left out: globex-etcd-outage\n")


def test_what_stops_the_server_from_starting_is_one_clear_error(project):
    def start(*args: str) -> subprocess.CompletedProcess:
        return subprocess.run(
            [INCIDENTS, "mcp", *args],
            capture_output=True,
            text=True,
            timeout=120,
            stdin=subprocess.DEVNULL,
        )

    project.write("taxonomy.yml", "facets: [")
    broken = start("--root", str(project.root))
    assert broken.returncode == 1 and broken.stdout == "" and "Traceback" not in broken.stderr
    assert broken.stderr.startswith("taxonomy.yml:") and "cannot start" in broken.stderr
    given = project.root / "nowhere" / "incidents.json"
    missing = start("--from", str(given))
    assert missing.returncode == 1 and missing.stdout == ""
    assert missing.stderr.startswith(f"{given}: no such file or folder\n")


def test_the_audit_tool_checks_manifests_at_the_paths_given(tmp_path):
    """audit_manifests reads the files the agent names and answers with findings and the cases
    they come from; a path that is not there, or standard input, is a tool error."""
    fires = REPO / "checks" / "webhook-fail-closed-system-namespaces" / "fires.yaml"
    (tmp_path / "webhook.yaml").write_text(fires.read_text())

    async def body(client):
        tools = {t.name: t for t in (await client.list_tools()).tools}
        found = await client.call_tool(
            "audit_manifests", {"paths": [str(tmp_path)], "lang": "en", "checks": []}
        )
        missing = await client.call_tool("audit_manifests", {"paths": [str(tmp_path / "nope")]})
        stdin = await client.call_tool("audit_manifests", {"paths": ["-"]})
        return tools, found, missing, stdin

    tools, found, missing, stdin = session(REPO_ARGS, body)
    assert tools["audit_manifests"].annotations.read_only_hint is True
    result = found.structured_content
    checks = {f["check"] for f in result["findings"]}
    assert "webhook-fail-closed-system-namespaces" in checks
    finding = next(
        f for f in result["findings"] if f["check"] == "webhook-fail-closed-system-namespaces"
    )
    assert finding["file"] == str(tmp_path / "webhook.yaml") and finding["line"] == 7
    assert finding["cases"][0] == {
        "id": "jetstack-admission-webhook-gke-cluster-outage",
        "title": "Jetstack: unresponsive OPA webhook stalls a GKE master upgrade and traps nodes in a repair loop",
        "url": "https://incidents.example.org/en/cases/jetstack-admission-webhook-gke-cluster-outage.html",
    }
    assert missing.is_error and "no such file or folder" in missing.content[0].text
    assert stdin.is_error


def test_every_line_gets_an_answer_and_errors_stay_short(library, tmp_path):
    """Lines the SDK would drop without a word (not JSON, no `jsonrpc`, `params` not an object,
    a lone surrogate, an array) get JSON-RPC errors with their ids; a 100 KB argument is not
    quoted back on standard error, and a bad prompt argument writes no traceback."""
    for path, data in api_files(library).items():
        (tmp_path / path).parent.mkdir(parents=True, exist_ok=True)
        (tmp_path / path).write_bytes(data)
    init = {
        "protocolVersion": "2025-06-18",
        "capabilities": {},
        "clientInfo": {"name": "test", "version": "1"},
    }
    lines = [
        "this is not json",
        json.dumps({"jsonrpc": "2.0", "id": 1, "method": "initialize", "params": init}),
        json.dumps({"jsonrpc": "2.0", "method": "notifications/initialized"}),
        json.dumps({"id": 2, "method": "tools/list"}),
        json.dumps({"jsonrpc": "2.0", "id": 3, "method": "tools/list", "params": [1]}),
        '{"jsonrpc":"2.0","id":4,"method":"ping","params":{"x":"\\ud800"}}',
        "[1, 2]",
        json.dumps(
            {
                "jsonrpc": "2.0",
                "id": 5,
                "method": "tools/call",
                "params": {"name": "get_incident", "arguments": {"id": "y" * 100_000}},
            }
        ),
        json.dumps(
            {
                "jsonrpc": "2.0",
                "id": 6,
                "method": "prompts/get",
                "params": {
                    "name": "find_similar_incidents",
                    "arguments": {"symptom": "x", "lang": "xx"},
                },
            }
        ),
        json.dumps({"jsonrpc": "2.0", "id": 7, "method": "ping"}),
    ]
    server = subprocess.Popen(
        [INCIDENTS, "mcp", "--from", str(tmp_path / "api")],
        stdin=subprocess.PIPE,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
    )
    try:
        server.stdin.write("\n".join(lines) + "\n")
        server.stdin.flush()
        answers = []
        while len(answers) < 9:  # every line but the notification
            answers.append(json.loads(server.stdout.readline()))
    finally:
        server.stdin.close()
        server.wait(timeout=60)
    stderr = server.stderr.read()
    by_id = {a.get("id"): a for a in answers if a.get("id") is not None}
    errors = [a["error"]["code"] for a in answers if a.get("id") is None]
    assert sorted(errors) == [-32700, -32600]  # the line that is not JSON, the array
    assert by_id[2]["error"]["code"] == -32600
    assert by_id[3]["error"]["code"] == -32602
    assert by_id[4]["error"]["code"] == -32600
    assert by_id[5]["result"]["isError"] is True
    assert len(by_id[5]["result"]["content"][0]["text"]) < 400
    assert "error" in by_id[6]
    assert by_id[7]["result"] == {}
    assert "Traceback" not in stderr and len(stderr) < 2_000, stderr[:500]
