"""What an agent can ask of the library (generator/agent/catalogue.py), on the repository's own
library: the site's search (same cases, same order as generator/search on the site's corpus),
cases in full, terms, related cases, recurring components, and a clear error with suggestions
for every bad argument. Also: the library read back from its JSON exports is the same library."""

from __future__ import annotations

import json

import pytest
from conftest import SEARCH_QUERIES

from generator.agent.catalogue import Catalogue, CatalogueError
from generator.load.export import ExportError, library_from_export
from generator.load.project import ProjectPaths
from generator.model.incident import SECTIONS
from generator.model.library import build_library
from generator.outputs.exports import api_files
from generator.pipeline.check import check_project
from generator.search.corpus import build_corpus
from generator.search.engine import search

QUERIES = SEARCH_QUERIES
IMBUE = "imbue-h100-cluster-bring-up"


@pytest.fixture(scope="module")
def library(repository_library):
    return repository_library


@pytest.fixture(scope="module")
def catalogue(library):
    return Catalogue(library, "https://incidents.example.org/")


@pytest.mark.parametrize("lang", ["ko", "en"])
def test_search_gives_the_sites_cases_in_the_sites_order(catalogue, library, lang):
    corpus = build_corpus(library, lang).corpus
    for case in QUERIES[lang]:
        found = catalogue.search(case["query"], None, lang, 50)
        expected = search(corpus, case["query"]).ids[:50]
        assert [hit.id for hit in found.results] == list(expected), case["query"]


def test_a_korean_search_with_particles(catalogue):
    found = catalogue.search("인피니밴드 배선이", None, "ko", 3)
    assert found.results[0].id == IMBUE and found.results[0].full_match
    assert found.results[0].url == f"https://incidents.example.org/ko/cases/{IMBUE}.html"
    assert found.results[0].markdown_url.endswith(f"/ko/cases/{IMBUE}.md")
    passage = found.results[0].passage
    assert passage is not None and "**" in passage.marked
    assert passage.marked.replace("**", "") == passage.text


def test_filters_by_id_label_or_alias_or_within_a_facet_and_across(catalogue, library):
    fabric = {
        i.id for i in library.cases_with(library.taxonomy.term("component", "infiniband-fabric"))
    }
    by_id = catalogue.search("", {"component": ["infiniband-fabric"]}, "en", 50)
    by_alias = catalogue.search("", {"component": ["인피니밴드"]}, "en", 50)
    assert {h.id for h in by_id.results} == {h.id for h in by_alias.results} == fabric
    assert by_id.filters == {"component": ["infiniband-fabric"]}
    two = catalogue.search("", {"organization": ["openai", "meta"]}, "ko", 50)
    assert {h.terms["organization"][0].id for h in two.results} == {"openai", "meta"}
    both = catalogue.search("", {"organization": ["openai"], "domain": ["ai-infra"]}, "ko", 50)
    assert all(any(t.id == "ai-infra" for t in h.terms["domain"]) for h in both.results)
    assert 0 < both.total < two.total


def test_get_an_incident_in_each_language(catalogue):
    for lang in ("ko", "en"):
        case = catalogue.get(IMBUE, lang)
        assert list(case.sections) == list(SECTIONS) and case.sources
        assert case.markdown.startswith(f"# {case.title}\n")
        assert case.terms["organization"][0].id == "imbue"
    assert catalogue.get(IMBUE, "ko").title != catalogue.get(IMBUE, "en").title


def test_terms_related_and_top_components(catalogue, library):
    causes = catalogue.terms("cause", "en")
    assert [t.id for t in causes.terms] == [t.id for t in library.taxonomy.facet("cause").terms]
    assert all(t.description and t.url.endswith(".html") for t in causes.terms)
    related = catalogue.related(IMBUE, "ko", 3)
    assert [r.id for r in related.related] == [
        r.incident.id for r in library.related(library.incident(IMBUE))
    ][:3]
    assert all(r.shared for r in related.related)
    top = catalogue.top_components({"domain": ["ai-infra"]}, "", "en", 3)
    assert top.facet == "component" and len(top.components) == 3
    counts = [c.cases for c in top.components]
    assert counts == sorted(counts, reverse=True) and all(
        len(c.incidents) == c.cases for c in top.components
    )


@pytest.mark.parametrize(
    ("call", "message", "suggestion"),
    [
        (lambda c: c.search("", None), "give a query, filters, or both", None),
        (lambda c: c.search("the of", None), "has no word to search for", None),
        (lambda c: c.search("gpu", {"componnt": ["gpu"]}), "unknown facet 'componnt'", "component"),
        (lambda c: c.search("gpu", {"component": ["gpuu"]}), "'gpuu' is not a term", "gpu"),
        (lambda c: c.search("gpu", None, "jp"), "unknown language 'jp'", None),
        (lambda c: c.search("gpu", None, "ko", 0), "limit must be between 1 and 50", None),
        (lambda c: c.get("imbue-h100"), "no incident has the id 'imbue-h100'", IMBUE),
        (lambda c: c.related("nope"), "no incident has the id 'nope'", None),
        (lambda c: c.terms("causes"), "unknown facet 'causes'", "cause"),
    ],
)
def test_bad_arguments_are_clear_errors(catalogue, call, message, suggestion):
    with pytest.raises(CatalogueError) as error:
        call(catalogue)
    assert message in str(error.value)
    if suggestion:
        assert suggestion in error.value.suggestions


def test_the_exports_give_back_the_same_library(library, tmp_path):
    for path, data in api_files(library).items():
        (tmp_path / path).parent.mkdir(parents=True, exist_ok=True)
        (tmp_path / path).write_bytes(data)
    again = library_from_export(tmp_path / "api")
    assert again.taxonomy.facets == library.taxonomy.facets
    assert [i.meta for i in again.incidents] == [i.meta for i in library.incidents]

    def texts(lib):
        return [
            [
                (t.lang, t.title, t.summary, [(s.key, s.markdown) for s in t.sections])
                for t in i.texts
            ]
            for i in lib.incidents
        ]

    assert texts(again) == texts(library)
    catalogue = Catalogue(again)
    assert (
        catalogue.search("NCCL timeout", None, "en", 5).results[0].id
        == Catalogue(library).search("NCCL timeout", None, "en", 5).results[0].id
    )


def test_broken_exports_are_one_clear_error(tmp_path):
    with pytest.raises(ExportError, match="no such file"):
        library_from_export(tmp_path)
    (tmp_path / "incidents.json").write_text("{", encoding="utf-8")
    (tmp_path / "taxonomy.json").write_text("{}", encoding="utf-8")
    with pytest.raises(ExportError, match=r"incidents.json:1:2: not JSON"):
        library_from_export(tmp_path)
    (tmp_path / "incidents.json").write_text(json.dumps({"incidents": []}), encoding="utf-8")
    with pytest.raises(ExportError, match="not a taxonomy export"):
        library_from_export(tmp_path / "incidents.json")


def test_korean_written_decomposed_is_found_like_any_other(project):
    """A file saved in NFD (macOS file names and some editors) is read as NFC, so its words are
    found by a query typed either way (the hardening issue, item 7)."""
    import unicodedata

    from conftest import TODAY, translation_text

    project.add_incident()
    decomposed = unicodedata.normalize("NFD", translation_text())
    assert decomposed != translation_text()
    project.write("incidents/acme-gpu-outage.ko.md", decomposed)
    checked = check_project(ProjectPaths.at(project.root), TODAY)
    assert checked.diagnostics == ()
    found = Catalogue(build_library(checked.taxonomy, checked.result.incidents))
    for query in ("번인 테스트", unicodedata.normalize("NFD", "번인 테스트")):
        assert [hit.id for hit in found.search(query, None, "ko").results] == ["acme-gpu-outage"]


def test_a_case_the_sources_do_not_date_reaches_an_agent_through_the_exports(project, tmp_path):
    """`occurred: unknown` survives a site's exports read back (`incidents mcp --from`): the
    case keeps it, sits where its publication date puts it, and says why in its Markdown."""
    from conftest import TODAY

    project.add_incident("acme-undated", occurred="unknown")  # published 2024-04-02
    project.add_incident("acme-dated", occurred="2024-03-01", url="https://reports.acme.dev/other")
    checked = check_project(ProjectPaths.at(project.root), TODAY)
    assert checked.diagnostics == ()
    library = build_library(checked.taxonomy, checked.result.incidents)
    for path, data in api_files(library).items():
        (tmp_path / path).parent.mkdir(parents=True, exist_ok=True)
        (tmp_path / path).write_bytes(data)
    again = library_from_export(tmp_path / "api")
    assert [i.id for i in again.incidents] == ["acme-undated", "acme-dated"]
    case = Catalogue(again).get("acme-undated", "en")
    assert (case.occurred, case.published) == ("unknown", "2024-04-02")
    assert "- **Occurred**: Unknown (the sources give no date)" in case.markdown
    hit = Catalogue(again).search("burn-in", None, "en").results
    assert {h.id: h.occurred for h in hit}["acme-undated"] == "unknown"


def test_sections_read_only_through_a_summary_reach_an_agent_through_the_exports(project, tmp_path):
    from conftest import TODAY

    project.add_incident(extra="summary_only: [trigger]\n")
    checked = check_project(ProjectPaths.at(project.root), TODAY)
    assert checked.diagnostics == ()
    library = build_library(checked.taxonomy, checked.result.incidents)
    for path, data in api_files(library).items():
        (tmp_path / path).parent.mkdir(parents=True, exist_ok=True)
        (tmp_path / path).write_bytes(data)
    again = library_from_export(tmp_path / "api")
    assert again.incident("acme-gpu-outage").meta.summary_only == ("trigger",)
    case = Catalogue(again).get("acme-gpu-outage", "ko")
    assert case.summary_only == ["trigger"]
    assert "> 이 부분의 사실 가운데 일부는 출처 원문이 아니라" in case.markdown


def test_exports_carry_the_sites_address_when_the_build_knew_it(library, tmp_path):
    """URLs from `--from` exports are absolute when the build knew the site's address (or one is
    given), and relative, never invented, when neither is known."""
    for site_url, given, expected in [
        ("https://lib.example.org/", None, "https://lib.example.org/en/cases/"),
        ("https://lib.example.org/", "https://mirror.example.net/", "https://mirror.example.net/"),
        ("", None, "en/cases/"),
    ]:
        folder = tmp_path / (site_url.replace(":", "").replace("/", "_") or "none")
        for path, data in api_files(library, site_url).items():
            (folder / path).parent.mkdir(parents=True, exist_ok=True)
            (folder / path).write_bytes(data)
        found = Catalogue.from_export(folder / "api", given).search("xid 79", None, "en", 1)
        assert found.results[0].url.startswith(expected), (site_url, given)


@pytest.mark.parametrize(
    ("setting", "environment", "expected"),
    [
        ('site_url: !ENV [SITE_URL, ""]', {}, ""),
        ('site_url: !ENV [SITE_URL, ""]', {"SITE_URL": "https://a.example/"}, "https://a.example/"),
        ("site_url: https://b.example/lib/", {}, "https://b.example/lib/"),
        ("site_name: x", {}, ""),
        ("site_url: javascript:alert(1)", {}, ""),
    ],
)
def test_the_agent_server_reads_site_url_as_mkdocs_does(
    tmp_path, monkeypatch, setting, environment, expected
):
    from generator.adapters.mcp import site_url_of

    monkeypatch.delenv("SITE_URL", raising=False)
    for name, value in environment.items():
        monkeypatch.setenv(name, value)
    (tmp_path / "mkdocs.yml").write_text(f"site_name: Lib\n{setting}\n", encoding="utf-8")
    assert site_url_of(tmp_path) == expected
