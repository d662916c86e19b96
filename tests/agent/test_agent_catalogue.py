"""What an agent can ask of the library (generator/agent/catalogue.py), on the repository's own
library: the site's search (same cases, same order as generator/search on the site's corpus),
cases in full, terms, related cases, recurring components, and a clear error with suggestions
for every bad argument. Also: the library read back from its JSON exports is the same library."""

from __future__ import annotations

import json

import pytest
from conftest import SEARCH_QUERIES

from generator.agent.answers import ANSWER_LIMIT, MAX_IDS
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


def every_page(catalogue, *args, **kwargs):
    """The ids of every page of a search, and the pages' answers."""
    ids, answers, offset = [], [], 0
    while offset is not None:
        answer = catalogue.search(*args, offset=offset, **kwargs)
        assert answer.offset == offset and answer.results
        ids += [hit.id for hit in answer.results]
        answers.append(answer)
        offset = answer.next_offset
    return ids, answers


@pytest.mark.parametrize("lang", ["ko", "en"])
def test_search_gives_the_sites_cases_in_the_sites_order(catalogue, library, lang):
    corpus = build_corpus(library, lang).corpus
    for case in QUERIES[lang]:
        expected = search(corpus, case["query"])
        ids, answers = every_page(catalogue, case["query"], None, lang, 50)
        assert ids == list(expected.ids), case["query"]
        assert {a.total for a in answers} == {expected.total}
        full = [hit.full_match for a in answers for hit in a.results]
        assert full == [n < expected.exact for n in range(expected.total)]


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
        assert catalogue.markdown(IMBUE, lang).startswith(f"# {case.title}\n")
        assert case.markdown_url.endswith(f"/{lang}/cases/{IMBUE}.md") and not case.cut
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
    assert counts == sorted(counts, reverse=True)
    for component in top.components:
        term = library.taxonomy.term("component", component.id)
        newest = [i.id for i in library.cases_with(term) if "ai-infra" in i.term_ids("domain")]
        assert component.cases == len(newest) and component.incidents == newest[:MAX_IDS]


@pytest.mark.parametrize(
    ("call", "message", "suggestion"),
    [
        (lambda c: c.search("the of", None), "has no word to search for", None),
        (lambda c: c.search("gpu", {"componnt": ["gpu"]}), "unknown facet 'componnt'", "component"),
        (lambda c: c.search("gpu", {"component": ["gpuu"]}), "'gpuu' is not a term", "gpu"),
        (lambda c: c.search("gpu", None, "jp"), "unknown language 'jp'", None),
        (lambda c: c.search("gpu", None, "ko", 0), "limit must be between 1 and 50", None),
        (lambda c: c.get("imbue-h100"), "no incident has the id 'imbue-h100'", IMBUE),
        (lambda c: c.related("nope"), "no incident has the id 'nope'", None),
        (lambda c: c.terms("causes"), "unknown facet 'causes'", "cause"),
        (lambda c: c.terms("root_causes"), "unknown facet 'root_causes'", "root_cause"),
        (lambda c: c.search("gpu", offset=-1), "offset must be 0 or more", None),
        (lambda c: c.search("gpu", occurred_from="2024-13"), "occurred_from '2024-13'", None),
        (lambda c: c.search("gpu", original_language="EN"), "original_language 'EN'", "en"),
        (lambda c: c.get(IMBUE, sections=["lesson"]), "unknown section 'lesson'", "lessons"),
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


def test_broken_exports_are_one_clear_error(library, tmp_path):
    given = tmp_path / "nowhere" / "incidents.json"
    with pytest.raises(ExportError, match=f"^{given}: no such file or folder$"):
        library_from_export(given)  # the path as given, not its folder
    with pytest.raises(ExportError, match=f"^{tmp_path / 'incidents.json'}: no such file"):
        library_from_export(tmp_path)
    (tmp_path / "notes.txt").write_text("", encoding="utf-8")
    with pytest.raises(ExportError, match="notes.txt: not an export"):
        library_from_export(tmp_path / "notes.txt")
    (tmp_path / "incidents.json").write_text("{", encoding="utf-8")
    (tmp_path / "taxonomy.json").write_text("{}", encoding="utf-8")
    with pytest.raises(ExportError, match="taxonomy.json: not a taxonomy export"):
        library_from_export(tmp_path)
    (tmp_path / "taxonomy.json").write_bytes(api_files(library)["api/taxonomy.json"])
    with pytest.raises(ExportError, match=r"incidents.json:1:2: not JSON"):
        library_from_export(tmp_path)
    (tmp_path / "incidents.json").write_text(json.dumps({"incidents": []}), encoding="utf-8")
    with pytest.raises(ExportError, match="incidents.json: no incidents"):
        library_from_export(tmp_path / "incidents.json")


def test_korean_written_decomposed_is_found_like_any_other(project):
    """A file saved in NFD (macOS file names and some editors) is read as NFC, so its words are
    found by a query typed either way."""
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
    markdown = Catalogue(again).markdown("acme-undated", "en")
    assert "- **Occurred**: Unknown (the sources give no date)" in markdown
    # In no date range, and listed in the library's order when nothing narrows the list.
    assert Catalogue(again).search("", None, "en", occurred_from="1900").total == 1
    assert [h.id for h in Catalogue(again).search("", None, "en").results] == [
        "acme-undated",
        "acme-dated",
    ]
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
    markdown = Catalogue(again).markdown("acme-gpu-outage", "ko")
    assert "> 이 부분의 사실 가운데 일부는 출처 원문이 아니라" in markdown


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


def test_listing_with_no_query_pages_through_every_case_newest_first(catalogue, library):
    ids, answers = every_page(catalogue, "", None, "en", 50)
    assert ids == [i.id for i in library.incidents]
    assert answers[-1].next_offset is None and all(h.passage is None for h in answers[0].results)


def test_listing_by_facets_dates_and_original_language(catalogue, library):
    expected = [
        i.id
        for i in library.incidents
        if "ai-infra" in i.term_ids("domain")
        and i.meta.lang == "en"
        and "2023" <= i.meta.occurred[:4] <= "2024"
    ]
    ids, answers = every_page(
        catalogue,
        "",
        {"domain": "ai-infra"},
        "en",
        7,
        occurred_from="2023",
        occurred_to="2024-12-31",
        original_language="en",
    )
    assert ids == expected and len(answers) > 1
    assert answers[0].occurred_from == "2023" and answers[0].original_language == "en"
    # A date range narrows a search as a facet does: the same cases, in the search's order.
    words = catalogue.search("GPU", None, "en", 50, occurred_from="2024", occurred_to="2024")
    every = every_page(catalogue, "GPU", None, "en", 50)[0]
    kept = {i.id for i in library.incidents if i.meta.occurred.startswith("2024")}
    assert [h.id for h in words.results] == [i for i in every if i in kept][: len(words.results)]


@pytest.mark.parametrize(
    ("occurred", "start", "end", "inside"),
    [
        ("2024-03", "2024", "2024", True),
        ("2024-03", "2024-03-15", None, True),  # same month: the precision both have
        ("2024-03", "2024-04", None, False),
        ("2024", None, "2023-12-31", False),
        ("2024-03-01", None, None, True),
        ("unknown", "2000", None, False),  # a case whose date is not known is in no range
    ],
)
def test_a_date_range_compares_at_the_precision_both_dates_have(occurred, start, end, inside):
    from generator.agent.arguments import in_range

    assert in_range(occurred, start, end) is inside


def test_the_reference_librarys_filter_names_are_the_facets_they_mean(catalogue, library):
    from generator.agent.arguments import FACET_ALIASES

    assert set(FACET_ALIASES.values()) <= {f.id for f in library.taxonomy.facets}
    by_alias = catalogue.search(
        "", {"root_cause": ["gpu-failure"], "organisation": ["meta"], "factor": []}, "en", 50
    )
    by_id = catalogue.search("", {"cause": ["gpu-failure"], "organization": ["meta"]}, "en", 50)
    assert by_alias.filters == by_id.filters == {"organization": ["meta"], "cause": ["gpu-failure"]}
    assert [h.id for h in by_alias.results] == [h.id for h in by_id.results] != []
    assert catalogue.terms("factor", "en").facet == "contributing_factor"


@pytest.mark.parametrize(
    ("query", "filters", "lang"),
    [
        ("NCCL timeout", None, "en"),
        ("인피니밴드 배선", None, "ko"),
        ("xid 79 GPU가 떨어짐", None, "ko"),
        ("", {"component": ["인피니밴드"]}, "ko"),  # a Korean label says Korean
        ("", {"component": ["infiniband-fabric"]}, "ko"),  # an id says nothing: the default
        ("79", None, "ko"),
    ],
)
def test_the_answers_language_is_the_querys_when_not_given(catalogue, query, filters, lang):
    found = catalogue.search(query, filters)
    assert found.lang == lang
    assert all(hit.url.split("/")[-3] == lang for hit in found.results)
    assert catalogue.search(query, filters, "en" if lang == "ko" else "ko").lang != lang


def test_counts_per_facet_are_the_engines(catalogue, library):
    from generator.agent.answers import FACET_TERMS

    corpus = build_corpus(library, "en").corpus
    for query, filters in [("GPU", None), ("", {"domain": ["ai-infra"]}), ("", None)]:
        answer = catalogue.search(query, filters, "en", 1)
        counts = search(corpus, query, filters or {}).counts
        for facet in answer.facets:
            listed = {t.id: t.cases for t in facet.terms}
            expected = {k: v for k, v in counts.get(facet.facet, {}).items() if v}
            assert len(listed) == min(FACET_TERMS, len(expected)) and facet.more == max(
                0, len(expected) - FACET_TERMS
            )
            assert all(expected[k] == v for k, v in listed.items())
            assert [t.cases for t in facet.terms] == sorted(listed.values(), reverse=True)
            assert min(listed.values(), default=0) >= max(
                (v for k, v in expected.items() if k not in listed), default=0
            )


def test_every_answer_stays_under_the_limit(catalogue, library):
    sizes = []
    for lang in ("ko", "en"):
        sizes += [len(a.model_dump_json()) for a in every_page(catalogue, "", None, lang, 50)[1]]
        for facet in library.taxonomy.facets:
            offset = 0
            while offset is not None:
                page = catalogue.terms(facet.id, lang, offset=offset)
                sizes.append(len(page.model_dump_json()))
                offset = page.next_offset
        sizes.append(len(catalogue.top_components(None, "", lang, 50).model_dump_json()))
        for incident in library.incidents:
            sizes.append(len(catalogue.get(incident.id, lang).model_dump_json()))
            sizes.append(len(catalogue.related(incident.id, lang, 50).model_dump_json()))
    assert max(sizes) <= ANSWER_LIMIT


def test_a_case_longer_than_an_answer_is_cut_and_any_section_can_be_read_whole(library):
    from generator.model.incident import CaseText, Incident, Section

    imbue = library.incident(IMBUE)
    long = 'A line of the report, "quoted", in full.\n' * 450  # ~19,000 characters
    texts = tuple(
        CaseText(t.lang, t.title, t.summary, tuple(Section(k, long, 0) for k in SECTIONS), t.path)
        for t in imbue.texts
    )
    built = build_library(library.taxonomy, [Incident(imbue.meta, imbue.path, texts)])
    catalogue = Catalogue(built, "https://incidents.example.org/")
    whole = catalogue.get(IMBUE, "en")
    assert len(whole.model_dump_json()) <= ANSWER_LIMIT
    assert whole.cut == list(SECTIONS) and all(s.endswith(" …") for s in whole.sections.values())
    one = catalogue.get(IMBUE, "en", ["lessons"])
    assert one.sections == {"lessons": long} and one.cut == []
    assert len(one.model_dump_json()) <= ANSWER_LIMIT
    two = catalogue.get(IMBUE, "en", ["lessons", "symptoms"])
    assert list(two.sections) == ["symptoms", "lessons"] and two.cut == ["symptoms", "lessons"]


def test_a_facets_terms_come_a_page_at_a_time(catalogue, library):
    facet = library.taxonomy.facet("organization")
    seen, offset = [], 0
    while offset is not None:
        page = catalogue.terms("organization", "en", 7, offset)
        assert page.total == len(facet.terms) and len(page.terms) <= 7
        seen += [t.id for t in page.terms]
        offset = page.next_offset
    assert seen == [t.id for t in facet.terms]
