"""taxonomy.yml -> Taxonomy: facet declarations, terms, labels, aliases, and the repository's own."""

from __future__ import annotations

import unicodedata

import pytest
from conftest import REPO, TAXONOMY, TODAY, Project

from generator.load.front_matter import LoadError, parse_yaml
from generator.load.project import ProjectPaths, load_taxonomy
from generator.load.taxonomy import build_taxonomy
from generator.pipeline.check import check_project


def problems(text: str) -> list[str]:
    """Errors (which stop the load) or warnings of a taxonomy, as contributors see them."""
    try:
        _, warnings = build_taxonomy(
            parse_yaml(text, "taxonomy.yml", max_values=None), "taxonomy.yml"
        )
    except LoadError as exc:
        return [d.format() for d in exc.diagnostics]
    return [d.format() for d in warnings]


def test_fixture_taxonomy_is_valid_and_keeps_its_declarations():
    taxonomy, warnings = build_taxonomy(parse_yaml(TAXONOMY, "taxonomy.yml"), "taxonomy.yml")
    assert warnings == ()
    assert taxonomy.ids == (
        "domain",
        "organization",
        "symptom",
        "cause",
        "component",
        "contributing_factor",
    )
    organization = taxonomy.facet("organization")
    assert (organization.single, organization.byline, organization.descriptive) == (
        True,
        True,
        False,
    )
    assert [f.id for f in taxonomy.descriptive] == [
        "symptom",
        "cause",
        "component",
        "contributing_factor",
    ]
    assert taxonomy.facet("symptom").case_section == "symptoms"
    assert taxonomy.checklist.id == "component"
    assert not taxonomy.facet("contributing_factor").required
    assert [f.id for f in taxonomy.graphed] == [
        "cause",
        "component",
        "symptom",
        "contributing_factor",
    ]
    assert taxonomy.matrices[0] == ("cause", "component")
    gpu = taxonomy.term("cause", "gpu-failure")
    assert gpu.parent == "hardware-failure"
    assert gpu.label("ko") == "GPU 고장"
    assert taxonomy.suggest("component", "IB") == "infiniband-fabric"
    assert taxonomy.suggest("component", "인피니밴드") == "infiniband-fabric"


@pytest.mark.parametrize(
    ("old", "new", "expected"),
    [
        (
            "    terms_per_case: one\n",
            "    terms_per_case: two\n",
            "taxonomy.yml:27:21: organization.terms_per_case: should be 'one' or 'many', "
            "got text 'two'",
        ),
        (
            '    color: "#b3261e"\n',
            "    color: red\n",
            "taxonomy.yml:45:12: symptom.color: should match pattern '^#[0-9a-fA-F]{6}$'",
        ),
        (
            "    case_section: symptoms\n",
            "    case_section: symptom\n",
            "taxonomy.yml:46:19: symptom.case_section: not a section of a case "
            "(did you mean 'symptoms'?)",
        ),
        (
            "  - id: domain\n",
            "  - id: sources\n",
            "taxonomy.yml:9:9: facets[0].id: 'sources' is a front matter field of every incident",
        ),
        (
            "  - id: domain\n",
            "  - id: cases\n",
            "taxonomy.yml:9:9: facets[0].id: 'cases' is the name of a folder of the site; "
            "choose another",
        ),
        (
            "  - [symptom, cause]\n",
            "  - [symptom, causes]\n",
            "taxonomy.yml:4:15: matrices[1][1]: unknown facet 'causes' (did you mean 'cause'?)",
        ),
        (
            "  - [symptom, cause]\n",
            "  - [cause, component]\n",
            "taxonomy.yml:4:5: matrices[1]: this matrix has the same page as matrices[0] "
            "(ko/matrix/cause-x-component.html); keep one",
        ),
        (
            "graph: [cause, component",
            "graph: [domain, component",
            "taxonomy.yml:1:9: graph[0]: 'domain' is not a descriptive facet",
        ),
    ],
)
def test_facet_declarations_are_checked(old, new, expected):
    assert old in TAXONOMY
    assert problems(TAXONOMY.replace(old, new, 1)) == [expected]


def test_duplicate_term_and_bad_parent():
    text = TAXONOMY.replace("      - id: faulty-change", "      - id: gpu-failure").replace(
        "parent: hardware-failure", "parent: hardware-fail"
    )
    assert problems(text) == [
        "taxonomy.yml:66:17: cause.gpu-failure.parent: parent 'hardware-fail' is not a term of "
        "'cause' (did you mean 'hardware-failure'?)",
        "taxonomy.yml:69:13: cause.terms[2].id: term 'gpu-failure' is defined twice in facet "
        "'cause'",
    ]


def test_a_term_id_that_is_a_page_of_the_site_is_refused():
    """A term `index` would overwrite its facet's page (cause/index.html)."""
    text = TAXONOMY.replace("      - id: faulty-change", "      - id: index")
    assert problems(text) == [
        "taxonomy.yml:69:13: cause.terms[2].id: 'index' is the name of the facet's own page "
        "(cause/index.html); choose another id"
    ]


def test_missing_label_language_and_unknown_field():
    text = TAXONOMY.replace(
        "label: {ko: GPU 드라이버, en: GPU driver}", "label: {ko: GPU 드라이버}"
    ).replace(
        "description: {ko: IB 네트워크., en: The IB network.}",
        "descripton: {ko: IB 네트워크., en: The IB network.}",
    )
    assert problems(text) == [
        "taxonomy.yml:82:16: component.gpu-driver.label.en: required field is missing",
        "taxonomy.yml:85:9: component.infiniband-fabric.description: required field is missing",
        "taxonomy.yml:87:9: component.infiniband-fabric.descripton: unknown field; the fields here are id, label, description, aliases, parent "
        "(did you mean 'description'?)",
    ]


def test_an_alias_that_names_another_term_is_an_error_in_its_facet_and_a_warning_across():
    """An alias names one term: search recommends the filter its name belongs to."""
    same_facet = TAXONOMY.replace(
        "aliases: {ko: [인피니밴드], en: [IB]}", "aliases: {ko: [인피니밴드], en: [IB, etcd]}"
    )
    assert problems(same_facet) == [
        "taxonomy.yml:88:41: component.infiniband-fabric.aliases.en[1]: alias 'etcd' is already a name of "
        "term 'etcd'"
    ]
    other_facet = TAXONOMY.replace(
        "aliases: {ko: [인피니밴드], en: [IB]}", "aliases: {ko: [인피니밴드], en: [IB, Globex]}"
    )
    assert problems(other_facet) == [
        "taxonomy.yml:88:41: warning: component.infiniband-fabric.aliases.en[1]: alias 'Globex' is already "
        "a name of term 'globex' in facet 'organization'"
    ]


def test_labels_that_only_look_different_are_the_same_label():
    """Decomposed Hangul (NFD), another script's lookalike letters or an invisible character
    do not make two labels distinct."""
    nfd = unicodedata.normalize("NFD", "잘못된 변경")
    decomposed = TAXONOMY.replace("label: {ko: 하드웨어 고장,", f"label: {{ko: {nfd},")
    assert problems(decomposed) == [
        "taxonomy.yml:70:21: cause.faulty-change.label.ko: label is the same as that of term "
        "'hardware-failure'"
    ]
    cyrillic = TAXONOMY.replace("en: Hardware failure}", "en: Fаulty change}")  # Cyrillic а
    assert problems(cyrillic) == [
        "taxonomy.yml:63:34: cause.hardware-failure.label.en: the word 'Fаulty' mixes letters of "
        "several scripts (Cyrillic, Latin); write it in one script"
    ]
    # A word wholly in another script still reads the same as a Latin label.
    greek = TAXONOMY.replace("en: Hardware failure}", "en: ΕΤCD}")
    assert problems(greek) == [
        "taxonomy.yml:63:34: cause.hardware-failure.label.en: the word 'ΕΤCD' mixes letters of "
        "several scripts (Greek, Latin); write it in one script"
    ]
    invisible = TAXONOMY.replace("en: Hardware failure}", "en: Hard\u200bware failure}")
    assert problems(invisible) == [
        "taxonomy.yml:63:34: cause.hardware-failure.label.en: contains the invisible character "
        "U+200B; delete it"
    ]


def test_a_large_taxonomy_is_not_held_to_the_front_matter_limit():
    terms = "".join(
        f"      - id: extra-{n}\n        label: {{ko: 추가 {n}, en: Extra {n}}}\n"
        f"        description: {{ko: 추가., en: Extra.}}\n"
        f"        aliases: {{ko: [별칭 {n}], en: [alias {n}]}}\n"
        for n in range(1100)
    )
    big = TAXONOMY + terms
    assert problems(big) == []


def test_taxonomy_error_stops_the_check(project: Project):
    project.write("taxonomy.yml", "facets: [\n")
    checked = check_project(ProjectPaths.at(project.root), TODAY)
    assert checked.taxonomy is None
    assert [d.format()[:22] for d in checked.diagnostics] == ["taxonomy.yml:2:1: inva"]


def test_repository_taxonomy_labels_every_term_in_both_languages():
    taxonomy, warnings = load_taxonomy(ProjectPaths.at(REPO))
    assert [w.format() for w in warnings] == []
    for term in taxonomy.terms():
        assert term.label_ko and term.label_en and term.description_ko and term.description_en, (
            term.id
        )


def test_every_repository_term_has_at_least_one_case():
    checked = check_project(ProjectPaths.at(REPO), TODAY)
    used = {
        (facet.id, term_id)
        for i in checked.result.incidents
        for facet in checked.taxonomy.facets
        for term_id in i.term_ids(facet.id)
    }
    unused = [t.key for t in checked.taxonomy.terms() if t.key not in used]
    assert unused == [], "terms no incident uses yet; drop them or add the incidents"


def test_an_unchanged_taxonomy_is_read_once_and_an_edited_one_again(project: Project):
    """A preview reads the taxonomy on every rebuild: the same bytes give the same objects (its
    pages then compare with the last rebuild's at once); any edit, or another project's file
    of the same bytes, is read anew."""
    project.write("taxonomy.yml", TAXONOMY)
    paths = ProjectPaths.at(project.root)
    first = load_taxonomy(paths)
    assert load_taxonomy(paths) is first
    project.write("taxonomy.yml", TAXONOMY.replace("en: GPU failure}", "en: GPU fault}"))
    edited = load_taxonomy(paths)
    assert edited is not first and edited[0] != first[0]
    project.write("taxonomy.yml", TAXONOMY)
    assert load_taxonomy(paths)[0] == first[0]
    project.write("taxonomy.yml", "facets: [\n")
    with pytest.raises(LoadError):
        load_taxonomy(paths)
