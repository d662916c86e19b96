"""The core's build, with no shell: the golden library's whole output, what an edit changes,
and a facet declared only in taxonomy.yml appearing everywhere a facet appears."""

from __future__ import annotations

import json
import shutil
import sys

import pytest
from conftest import REPO, TODAY, Project, incident_text, translation_text
from selectolax.lexbor import LexborHTMLParser as HTMLParser
from sitebuild import write_fixture_library

from generator.load.project import ProjectPaths
from generator.outputs.schema import incident_schema
from generator.pages.kinds import CasePage, FacetPage, HomePage, MatrixPage, TermPage
from generator.pipeline.site import BuildError, build
from generator.render.renderer import Renderer

sys.path.insert(0, str(REPO / "tests" / "golden"))
import golden  # noqa: E402


def test_the_golden_library_builds_to_the_expected_folder_file_by_file():
    """Update with `.venv/bin/python tests/golden/golden.py` after an intended change."""
    built, expected = golden.build_files(), golden.expected_files()
    assert sorted(built) == sorted(expected), "files added or removed: run tests/golden/golden.py"
    differing = [path for path in built if built[path] != expected[path]]
    assert differing == [], f"{len(differing)} files differ, first {differing[:5]}"


def test_the_site_has_every_kind_of_page_in_both_languages(tmp_path):
    project = Project(tmp_path / "project")
    write_fixture_library(project)
    site = build(ProjectPaths.at(project.root), today=TODAY)
    kinds = {}
    for page in site.pages:
        kinds.setdefault((page.kind, page.lang), []).append(page.url)
    assert len(kinds[("CasePage", "ko")]) == len(kinds[("CasePage", "en")]) == 23
    assert kinds[("HomePage", "en")] == ["en/index.html", "en/page/2.html"]
    assert len(kinds[("FacetPage", "ko")]) == 6
    assert len(kinds[("MatrixPage", "ko")]) == 5
    assert [s.urls for s in site.nav if s.lang == "en"] == [
        (
            "en/index.html",
            "en/domain/index.html",
            "en/organization/index.html",
            "en/symptom/index.html",
            "en/cause/index.html",
            "en/component/index.html",
            "en/contributing-factor/index.html",
            "en/matrix/cause-x-component.html",
        )
    ]
    case = HTMLParser(site.content("ko/cases/acme-gpu-outage-01.html"))
    assert [h.text() for h in case.css("article h2")][:3] == ["증상", "촉발", "원인"]
    assert site.files["assets/facets.css"].count(b"--il-facet:") == 6
    assert b'"checklist":true' in site.files["ko/search/terms.js"]
    # One search index, read the same way over http and from disk: no Pagefind documents.
    assert not hasattr(site, "search_documents")
    assert site.corpora["ko"].corpus is site.corpora["en"].corpus
    assert "ko/search/index.js" in site.files and "en/search/index.js" in site.files


def fixture_project(tmp_path) -> tuple[Project, ProjectPaths]:
    project = Project(tmp_path / "project")
    write_fixture_library(project)
    return project, ProjectPaths.at(project.root)


def edit_globex(project: Project, old: str, new: str) -> None:
    """Rewrite the fixture's one Globex case, as a contributor saving it in a preview."""
    path = project.incidents / "globex-etcd-outage.md"
    path.write_text(path.read_text(encoding="utf-8").replace(old, new, 1), encoding="utf-8")


def test_an_edit_changes_its_case_and_the_pages_that_show_it(tmp_path):
    """What a preview writes again: pages whose content differs, worked out from the pages
    themselves (no list of page kinds kept by hand)."""
    project, paths = fixture_project(tmp_path)
    before = build(paths, today=TODAY)
    edit_globex(project, "Globex: etcd loses quorum", "Globex: edited")
    after = build(paths, today=TODAY, previous=before)
    changed = after.changed_since(before)
    assert {"en/cases/globex-etcd-outage.html", "ko/cases/globex-etcd-outage.html"} <= changed
    assert {"en/index.html", "ko/index.html", "en/organization/globex.html"} <= changed
    unchanged = {
        "en/organization/acme.html",
        "en/cause/index.html",
        "ko/matrix/symptom-x-cause.html",
    }
    assert not (unchanged & changed)
    kinds = {after.page(url).kind for url in changed}
    assert kinds <= {"CasePage", "HomePage", "TermPage"}
    assert after.changed_since(after) == frozenset()
    assert after.changed_since(None) == frozenset(after.contents)
    # and the other files: the edited case's card in both languages, not another case's
    files = after.files_changed_since(before)
    position = [i.id for i in after.library.incidents].index("globex-etcd-outage")
    assert {f"en/search/text/{position}.js", f"ko/search/text/{position}.js"} <= files
    assert "en/search/cards/acme-gpu-outage-01.js" not in files
    assert files < frozenset(after.files)
    assert after.files_changed_since(None) == frozenset(after.files)


def test_an_edit_renders_again_only_its_own_full_cards(tmp_path, monkeypatch):
    """The full cards (`search/cards/<id>.js`, Markdown of every section in both languages) of
    the incidents an edit did not touch are kept from the previous site."""
    project, paths = fixture_project(tmp_path)
    before = build(paths, today=TODAY)
    rendered: list[tuple[str, str]] = []
    card_sections = Renderer.card_sections

    def counting(self, incident, lang):
        rendered.append((incident.id, lang))
        return card_sections(self, incident, lang)

    monkeypatch.setattr(Renderer, "card_sections", counting)
    edit_globex(project, "stopped.", "stopped at once.")
    after = build(paths, today=TODAY, previous=before)
    assert sorted(rendered) == [("globex-etcd-outage", "en"), ("globex-etcd-outage", "ko")]
    edited = "en/search/cards/globex-etcd-outage.js"
    assert after.files[edited] != before.files[edited]
    kept = "en/search/cards/acme-gpu-outage-01.js"
    assert after.files[kept] == before.files[kept]
    cards = {f for f in after.files if "/search/cards/" in f}
    assert cards == {f for f in before.files if "/search/cards/" in f}
    assert len(cards) == 2 * len(after.library.incidents)


def test_an_edit_analyses_again_only_its_own_search_words(tmp_path, monkeypatch):
    """A preview keeps the analysed words and sentences of the incidents an edit did not touch,
    and its search data are those of a fresh build, byte for byte."""
    from generator.search import corpus as corpus_module

    project, paths = fixture_project(tmp_path)
    before = build(paths, today=TODAY, preview=True)
    edit_globex(project, "stopped.", "stopped at once, quorum lost.")
    analysed: list[str] = []
    case_sentences = corpus_module.case_sentences

    def counting(incident, lang):
        analysed.append(incident.id)
        return case_sentences(incident, lang)

    monkeypatch.setattr(corpus_module, "case_sentences", counting)
    after = build(paths, today=TODAY, previous=before, preview=True)
    assert sorted(set(analysed)) == ["globex-etcd-outage"]
    monkeypatch.setattr(corpus_module, "case_sentences", case_sentences)
    fresh = build(paths, today=TODAY)
    search = [f for f in fresh.files if "/search/" in f and "/cards/" not in f]
    assert [after.files[f] for f in search] == [fresh.files[f] for f in search]
    assert any(after.files[f] != before.files[f] for f in search)
    for lang in ("ko", "en"):
        assert after.corpora[lang].corpus.documents == fresh.corpora[lang].corpus.documents
        assert dict(after.corpora[lang].sentences) == dict(fresh.corpora[lang].sentences)


def test_a_preview_works_out_how_only_the_edited_case_writes_its_words(tmp_path, monkeypatch):
    """How a correction is shown ("coredn" -> "coredns") is counted over every case's text; a
    preview keeps each case's count and reads only the edited case's text again, and the forms
    it shows are those of a fresh build."""
    from generator.search.analyzer import Analyzer

    project, paths = fixture_project(tmp_path)
    before = build(paths, today=TODAY, preview=True)
    edit_globex(project, "stopped.", "stopped, quorums lost twice.")
    read: list[str] = []
    reading = Analyzer.read  # every reading of a text goes through it (`document` too)

    def counting(self, text):
        read.append(text)
        return reading(self, text)

    monkeypatch.setattr(Analyzer, "read", counting)
    after = build(paths, today=TODAY, previous=before, preview=True)
    assert len(read) == 3 and "quorums lost twice" in read[1]  # the lead, the body, the titles
    monkeypatch.setattr(Analyzer, "read", reading)
    fresh = build(paths, today=TODAY)
    corpus = after.corpora["en"].corpus
    assert corpus.shown == fresh.corpora["en"].corpus.shown
    # the edit's "quorums" is the one form of the stem "quorum" not written as the stem itself
    assert "quorum" not in before.corpora["en"].corpus.shown
    assert corpus.shown["quorum"] == "quorums"
    assert fresh.analysed == {}  # a build keeps none
    assert set(after.analysed) == {i.id for i in after.library.incidents}


def test_a_library_with_errors_is_refused_with_its_diagnostics(project: Project):
    project.add_incident(cause="[gpu-failur]")
    with pytest.raises(BuildError) as failure:
        build(ProjectPaths.at(project.root), today=TODAY)
    assert [d.format() for d in failure.value.diagnostics] == [
        "incidents/acme-gpu-outage.md:11:9: cause[0]: unknown cause term 'gpu-failur' "
        "(did you mean 'gpu-failure'?)"
    ]


ACCELERATOR = """\
  - id: accelerator
    label: {ko: 가속기, en: Accelerator}
    description: {ko: 쓰인 가속기., en: The accelerator involved.}
    terms_per_case: many
    required: false
    role: descriptive
    color: "#123456"
    terms:
      - id: h100
        label: {ko: H100, en: H100}
        description: {ko: NVIDIA H100., en: NVIDIA H100.}
        aliases: {ko: [호퍼], en: [Hopper]}
      - id: tpu-v4
        label: {ko: TPU v4, en: TPU v4}
        description: {ko: Google TPU v4., en: Google TPU v4.}
"""


def test_a_facet_declared_only_in_the_taxonomy_appears_everywhere(project: Project):
    """Adding a facet means editing taxonomy.yml and the incidents that use it, nothing else."""
    taxonomy = (project.root / "taxonomy.yml").read_text(encoding="utf-8")
    taxonomy = taxonomy.replace(
        "graph: [cause, component, symptom, contributing_factor]",
        "graph: [cause, component, symptom, contributing_factor, accelerator]",
    ).replace(
        "  - [component, contributing_factor]\n",
        "  - [component, contributing_factor]\n  - [accelerator, cause]\n",
    )
    project.write("taxonomy.yml", taxonomy + ACCELERATOR)
    text = incident_text(extra="accelerator: [h100]\n")
    project.write("incidents/acme-gpu-outage.md", text)
    project.write("incidents/acme-gpu-outage.ko.md", translation_text())
    site = build(ProjectPaths.at(project.root), today=TODAY)

    facet_page = site.page("en/accelerator/index.html")
    assert isinstance(facet_page, FacetPage) and facet_page.facet.color == "#123456"
    assert isinstance(site.page("ko/accelerator/h100.html"), TermPage)
    assert "ko/accelerator/index.html" in next(s.urls for s in site.nav if s.lang == "ko")
    matrix = site.page("en/matrix/accelerator-x-cause.html")
    assert isinstance(matrix, MatrixPage) and matrix.cells == {("h100", "gpu-failure"): 1}

    case = HTMLParser(site.content("en/cases/acme-gpu-outage.html"))
    assert case.css_first("#accelerator h2").text() == "Accelerator"
    assert [a.attributes["data-term"] for a in case.css("#accelerator .il-chip")] == ["h100"]
    home = site.page("en/index.html")
    assert isinstance(home, HomePage)
    home_html = HTMLParser(site.content("en/index.html"))
    assert home_html.css_first('.il-library__facets [data-facet="accelerator"] h2') is not None
    legend = [li.text(strip=True) for li in home_html.css(".il-graph__legend li")]
    assert "Accelerator" in legend

    terms = json.loads(site.files["en/search/terms.js"].decode().split("=", 2)[2].rstrip(";\n"))
    assert "accelerator" in [f["id"] for f in terms["facets"]]
    assert "accelerator" in terms["graph"]
    graph = site.files["en/search/graph.js"].decode()
    assert '"f":"accelerator","id":"h100"' in graph
    assert b".il-chip--accelerator" in site.files["assets/facets.css"]
    exported = json.loads(site.files["api/incidents.json"])
    assert exported["incidents"][0]["terms"]["accelerator"][0]["id"] == "h100"
    schema = incident_schema(site.library.taxonomy)
    assert schema["properties"]["accelerator"]["items"]["enum"] == ["h100", "tpu-v4"]
    assert "accelerator" not in schema["required"]
    assert isinstance(site.page("en/cases/acme-gpu-outage.html"), CasePage)


def test_the_repository_builds_without_a_shell(tmp_path):
    root = tmp_path / "repo"
    shutil.copytree(REPO / "incidents", root / "incidents")
    shutil.copy(REPO / "taxonomy.yml", root / "taxonomy.yml")
    site = build(ProjectPaths.at(root))
    assert len(site.library.incidents) == len(list((root / "incidents").glob("*.md"))) - sum(
        1 for p in (root / "incidents").glob("*.*.md")
    )
    assert all(site.content(p.url) for p in site.pages)


@pytest.mark.alone  # forks: in a process with no other thread (tests/conftest.py)
def test_the_corpus_is_made_while_the_workers_render_and_a_failure_stops_them(
    tmp_path, monkeypatch
):
    """The build hands the pages to forked workers and makes the search corpus meanwhile: the
    site is the serial build's, and a failure on this side stops the workers at once."""
    import threading

    from generator.pipeline import executor as executor_module
    from generator.pipeline import site as site_module
    from generator.pipeline.executor import ForkExecutor, can_fork, serial

    if not can_fork():
        pytest.skip("needs Linux, fork and two processors")
    _, paths = fixture_project(tmp_path)
    forked = build(paths, executor=ForkExecutor(minimum=1), today=TODAY)
    alone = build(paths, executor=serial, today=TODAY)
    assert dict(forked.contents) == dict(alone.contents)
    assert dict(forked.files) == dict(alone.files)
    assert dict(forked.sections) == dict(alone.sections)

    def failing(*args, **kwargs):
        raise RuntimeError("the corpus failed")

    monkeypatch.setattr(site_module, "index_cases", failing)
    executor = ForkExecutor(minimum=1)
    with pytest.raises(RuntimeError, match="the corpus failed"):
        build(paths, executor=executor, today=TODAY)
    assert executor.forked > 0
    assert executor_module._current == [] and threading.active_count() == 1


def test_a_build_collects_garbage_less_often_and_restores_the_collector(tmp_path, monkeypatch):
    """During a build the collector walks its millions of long-lived objects less often; after
    it, as after a failed one, the process's own thresholds are back."""
    import gc

    from generator.pipeline import executor as executor_module
    from generator.pipeline import site as site_module

    _, paths = fixture_project(tmp_path)
    usual = gc.get_threshold()
    seen = []
    check_project = site_module.check_project

    def checking(*args, **kwargs):
        seen.append(gc.get_threshold())
        return check_project(*args, **kwargs)

    monkeypatch.setattr(site_module, "check_project", checking)
    build(paths, today=TODAY)
    assert seen == [executor_module.BULK_THRESHOLDS] != [usual]
    assert gc.get_threshold() == usual
    monkeypatch.setattr(site_module, "build_pages", lambda *a, **k: 1 / 0)
    with pytest.raises(ZeroDivisionError):
        build(paths, today=TODAY)
    assert gc.get_threshold() == usual


def test_a_rebuild_encodes_again_only_the_search_files_an_edit_touched(tmp_path, monkeypatch):
    """A preview's search files are a fresh build's, byte for byte, after each of several
    edits (a title, a word moved into the titles or the lead, a word gone from the body, how a
    word is written, a term); the vocabulary
    parts none of whose words an edited case had or has, and the other cases' texts, are the
    last build's bytes, not encoded again."""
    from generator.outputs import search_data

    project, paths = fixture_project(tmp_path)
    site = build(paths, today=TODAY, preview=True)
    edits = [
        ("Globex: etcd loses quorum", "Globex: etcd loses quorum zyxwv"),
        ("quorum zyxwv", "quorum zyxwv GPUs"),  # a word its lead has, new in its titles
        ("left GPUs unusable.", "left GPUs unusable, drained."),  # its body's, new in its lead
        ("stopped.", "stopped, quorums lost."),
        ("quorums lost.", "quorum lost."),  # the same words, written otherwise
        ("stopped, quorum lost.", "stopped."),
        ("cause: [faulty-change]", "cause: [gpu-failure]"),
    ]
    encoded: list[str] = []
    keyed = search_data.as_keyed_script

    def counting(variable, key, payload):
        encoded.append(f"{variable}:{key}")
        return keyed(variable, key, payload)

    for old, new in edits:
        edit_globex(project, old, new)
        monkeypatch.setattr(search_data, "as_keyed_script", counting)
        encoded.clear()
        after = build(paths, today=TODAY, previous=site, preview=True)
        monkeypatch.setattr(search_data, "as_keyed_script", keyed)
        fresh = build(paths, today=TODAY, preview=True)
        search = sorted(f for f in fresh.files if "/search/" in f)
        assert sorted(f for f in after.files if "/search/" in f) == search, new
        assert [after.files[f] for f in search] == [fresh.files[f] for f in search], new
        texts = [e for e in encoded if e.startswith("text:")]
        position = str([i.id for i in after.library.incidents].index("globex-etcd-outage"))
        assert texts == [f"text:{position}"] * len(texts) and texts, new
        parts = sum(1 for f in search if f.startswith("en/search/words/"))
        assert 0 < sum(e.startswith("words:") for e in encoded) < parts, new
        if new.endswith("zyxwv"):  # one new word: its part alone
            assert [e for e in encoded if e.startswith("words:")] == ["words:zy"]
        assert after.corpora["en"].corpus.shown == fresh.corpora["en"].corpus.shown, new
        site = after
