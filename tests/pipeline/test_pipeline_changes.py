"""What a rebuild keeps from the last site (generator/pipeline/changes.py). Each edit below must
undo at least one decision to keep something; a preview's rebuild after it is held to a fresh
build of the edited library, so a decision that keeps too much fails here."""

from __future__ import annotations

import pytest
from conftest import TODAY, Project
from sitebuild import write_fixture_library

from generator.load.project import ProjectPaths
from generator.pipeline.changes import Changes
from generator.pipeline.site import Site, build

GLOBEX = "incidents/globex-etcd-outage.md"
ACME_01 = "incidents/acme-gpu-outage-01.md"  # ties with others of its terms go to the newer


def fixture(tmp_path) -> tuple[Project, ProjectPaths]:
    project = Project(tmp_path / "project")
    write_fixture_library(project)
    return project, ProjectPaths.at(project.root)


def edit(project: Project, path: str, old: str, new: str) -> None:
    file = project.root / path
    text = file.read_text(encoding="utf-8")
    assert old in text, (path, old)
    file.write_text(text.replace(old, new, 1), encoding="utf-8")


def add_case(project: Project) -> None:
    project.add_incident("initech-new-case", occurred="2023-06-15", organization="globex")


def remove_globex(project: Project) -> None:
    (project.root / GLOBEX).unlink()


# An edit, and which facts it changes: (same taxonomy, same order, same terms).
EDITS = {
    "a case's title (everything else is kept)": (
        lambda p: edit(p, GLOBEX, "Globex: etcd loses quorum", "Globex: etcd loses its quorum"),
        (True, True, True),
    ),
    "a sentence of a case (its quoted sentences are read again)": (
        lambda p: edit(p, GLOBEX, "Health checks failed on", "Health checks failed twice on"),
        (True, True, True),
    ),
    "a case's cause (pairs, companions, layout and ranking are counted again)": (
        lambda p: edit(p, GLOBEX, "cause: [faulty-change]", "cause: [gpu-failure]"),
        (True, True, False),
    ),
    "a case's organization, a context facet (companions are counted again)": (
        lambda p: edit(p, GLOBEX, "organization: globex", "organization: acme"),
        (True, True, False),
    ),
    "a date that moves a case (the ranking and the search positions are worked out again)": (
        lambda p: edit(p, ACME_01, "occurred: 2023-02-01", "occurred: 2023-12-31"),
        (True, False, True),
    ),
    "a term's label (every case's words are analysed again)": (
        lambda p: edit(p, "taxonomy.yml", "en: Faulty change}", "en: Faulty rollout}"),
        (False, True, False),
    ),
    "a new case": (add_case, (True, False, False)),
    "a case removed": (remove_globex, (True, False, False)),
}


def assert_as_fresh(rebuilt: Site, fresh: Site) -> None:
    """Everything a site holds, its reusable parts included, is the fresh build's."""
    assert dict(rebuilt.contents) == dict(fresh.contents)
    assert dict(rebuilt.sections) == dict(fresh.sections)
    differing = [f for f in fresh.files if rebuilt.files.get(f) != fresh.files[f]]
    assert sorted(rebuilt.files) == sorted(fresh.files) and differing == []
    assert rebuilt.layout == fresh.layout
    library, other = rebuilt.library, fresh.library
    assert [i.id for i in library.incidents] == [i.id for i in other.incidents]
    for incident in library.incidents:
        mine, theirs = library.related(incident), other.related(other.incident(incident.id))
        assert mine == theirs, incident.id
        assert all(r.incident is library.incident(r.incident.id) for r in mine)
    assert dict(library.pairs()) == dict(other.pairs())
    for facet in library.taxonomy.facets:
        for term in facet.terms:
            assert library.cooccurring(term) == other.cooccurring(term), term.key
    for lang, search in fresh.corpora.items():
        assert rebuilt.corpora[lang].corpus.documents == search.corpus.documents
        assert rebuilt.corpora[lang].corpus.shown == search.corpus.shown
        assert dict(rebuilt.corpora[lang].sentences) == dict(search.sentences)
    assert dict(rebuilt.analysed) == dict(fresh.analysed)


@pytest.mark.parametrize("name", EDITS)
def test_a_rebuild_after_an_edit_is_a_fresh_build(tmp_path, name):
    project, paths = fixture(tmp_path)
    last = build(paths, today=TODAY, preview=True)
    change, facts = EDITS[name]
    change(project)
    rebuilt = build(paths, today=TODAY, previous=last, preview=True)
    fresh = build(paths, today=TODAY, preview=True)
    assert_as_fresh(rebuilt, fresh)


@pytest.mark.parametrize("name", EDITS)
def test_what_an_edit_changed_is_worked_out_once_for_every_stage(tmp_path, name):
    """The facts each decision reads, and what each stage is then handed."""
    project, paths = fixture(tmp_path)
    last = build(paths, today=TODAY, preview=True)
    change, facts = EDITS[name]
    change(project)
    site = build(paths, today=TODAY, preview=True)
    changes = Changes.since(last, site.library.taxonomy, site.library.incidents)
    assert (changes.same_taxonomy, changes.same_order, changes.same_terms) == facts
    same_taxonomy, same_order, same_terms = facts
    assert (changes.ranked() is last.library) == (same_terms and same_order)
    assert (changes.counted() is last.library) == same_terms
    assert (changes.layout() is last.layout) == same_terms
    kept = changes.analysed()
    assert set(kept) == (set(last.analysed) - changes.edited if same_taxonomy else set())
    for lang, search in last.corpora.items():
        assert set(changes.sentences(lang)) == set(search.sentences) - changes.edited
    search = changes.search(site.library)
    assert (search is not None) == (same_taxonomy and same_order)
    if search is not None:
        edited = {site.library.incidents[at].id for at in search.edited}
        assert edited == changes.edited & {i.id for i in site.library.incidents}


def test_only_the_edited_cases_count_as_edited(tmp_path):
    project, paths = fixture(tmp_path)
    last = build(paths, today=TODAY, preview=True)
    edit(project, GLOBEX, "Globex: etcd loses quorum", "Globex: etcd loses its quorum")
    site = build(paths, today=TODAY, preview=True)
    changes = Changes.since(last, site.library.taxonomy, site.library.incidents)
    assert changes.edited == {"globex-etcd-outage"}
    page = site.page("en/cases/acme-gpu-outage-01.html")
    assert changes.rendered(page) == (
        last.contents[page.url],
        last.sections.get(page.url),
        last.files["en/search/cards/acme-gpu-outage-01.js"],
    )
    assert changes.rendered(site.page("en/cases/globex-etcd-outage.html")) is None
    fresh = Changes.since(None, site.library.taxonomy, site.library.incidents)
    assert fresh.edited == {i.id for i in site.library.incidents}
    assert (fresh.ranked(), fresh.counted(), fresh.layout(), fresh.search(site.library)) == (
        (None,) * 4
    )
    assert fresh.analysed() == {} and fresh.sentences("en") == {} and fresh.rendered(page) is None


def test_a_last_site_that_was_not_a_preview_keeps_no_analysis(tmp_path):
    """A build keeps no case's analysis (it would cost memory for every case): a rebuild from
    it analyses every case, and is still a fresh build."""
    project, paths = fixture(tmp_path)
    last = build(paths, today=TODAY)
    assert last.analysed == {}
    edit(project, GLOBEX, "Globex: etcd loses quorum", "Globex: etcd loses its quorum")
    rebuilt = build(paths, today=TODAY, previous=last, preview=True)
    assert_as_fresh(rebuilt, build(paths, today=TODAY, preview=True))
