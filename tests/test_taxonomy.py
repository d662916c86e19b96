"""The vocabulary: structure, labels, parents, and the repository's own taxonomy.yml."""

from __future__ import annotations

from conftest import REPO, TAXONOMY, TODAY, Project

from generator.load import LoadError, parse_yaml
from generator.project import ProjectPaths, check_project, load_taxonomy
from generator.taxonomy import FACETS, build_taxonomy


def taxonomy_errors(text: str) -> list[str]:
    try:
        build_taxonomy(parse_yaml(text, "taxonomy.yml"), "taxonomy.yml")
    except LoadError as exc:
        return [d.format() for d in exc.diagnostics]
    return []


def test_fixture_taxonomy_is_valid():
    taxonomy = build_taxonomy(parse_yaml(TAXONOMY, "taxonomy.yml"), "taxonomy.yml")
    assert [f.id for f in taxonomy.facets] == list(FACETS)
    gpu = taxonomy.term("cause", "gpu-failure")
    assert gpu.parent == "hardware-failure"
    assert gpu.label("ko") == "GPU 고장"
    assert taxonomy.suggest("component", "IB") == "infiniband-fabric"
    assert taxonomy.suggest("component", "인피니밴드") == "infiniband-fabric"


def test_unknown_facet_and_missing_facet():
    text = TAXONOMY.replace("  - id: contributing_factor", "  - id: contributing_factors")
    assert taxonomy_errors(text) == [
        "taxonomy.yml:2:3: facets: facet 'contributing_factor' is missing",
        "taxonomy.yml:62:9: facets[5].id: unknown facet 'contributing_factors' "
        "(did you mean 'contributing_factor'?)",
    ]


def test_duplicate_term_and_bad_parent():
    text = TAXONOMY.replace("      - id: faulty-change", "      - id: gpu-failure").replace(
        "parent: hardware-failure", "parent: hardware-fail"
    )
    assert taxonomy_errors(text) == [
        "taxonomy.yml:41:17: facets[3].terms[1].parent: parent 'hardware-fail' is not a term of 'cause' "
        "(did you mean 'hardware-failure'?)",
        "taxonomy.yml:44:13: facets[3].terms[2].id: term 'gpu-failure' is defined twice in facet 'cause'",
    ]


def test_missing_label_language_and_unknown_field():
    text = TAXONOMY.replace(
        "label: {ko: GPU 드라이버, en: GPU driver}", "label: {ko: GPU 드라이버}"
    ).replace(
        "description: {ko: IB 네트워크., en: The IB network.}",
        "descripton: {ko: IB 네트워크., en: The IB network.}",
    )
    assert taxonomy_errors(text) == [
        "taxonomy.yml:52:16: facets[4].terms[0].label.en: required field is missing",
        "taxonomy.yml:55:9: facets[4].terms[1].description: required field is missing",
        "taxonomy.yml:57:9: facets[4].terms[1].descripton: unknown field (did you mean 'description'?)",
    ]


def test_taxonomy_error_stops_the_check(project: Project):
    project.write("taxonomy.yml", "facets: [\n")
    checked = check_project(ProjectPaths.at(project.root), TODAY)
    assert checked.taxonomy is None
    assert [d.format()[:22] for d in checked.diagnostics] == ["taxonomy.yml:2:1: inva"]


def test_repository_taxonomy_labels_every_term_in_both_languages():
    taxonomy = load_taxonomy(ProjectPaths.at(REPO))
    for term in taxonomy.terms():
        assert term.label_ko and term.label_en and term.description_ko and term.description_en, (
            term.id
        )
    labels = [(t.facet, t.label_en.casefold()) for t in taxonomy.terms()]
    assert len(labels) == len(set(labels)), "two terms of a facet share an English label"


def test_every_repository_term_has_at_least_one_case():
    checked = check_project(ProjectPaths.at(REPO), TODAY)
    used = {
        (facet, term_id)
        for i in checked.result.incidents
        for facet in FACETS
        for term_id in i.term_ids(facet)
    }
    unused = [t.key for t in checked.taxonomy.terms() if t.key not in used]
    assert unused == []
