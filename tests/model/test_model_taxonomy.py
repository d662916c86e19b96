"""The taxonomy as values (generator/model/taxonomy.py): looking facets and terms up, the facet
groups the rest of the program asks for (descriptive, context, graphed, checklist, byline), the
suggestions behind "did you mean …?", `Term.names` and `Facet.slug`. Built from the test taxonomy
in memory, no files."""

from __future__ import annotations

import dataclasses

import pytest
from conftest import TAXONOMY

from generator.load.front_matter import parse_yaml
from generator.load.taxonomy import build_taxonomy
from generator.model.taxonomy import Facet, Taxonomy, Term

TAX = build_taxonomy(parse_yaml(TAXONOMY, "taxonomy.yml"), "taxonomy.yml")[0]


def ids(facets) -> list[str]:
    return [f.id for f in facets]


class TestLookups:
    def test_facets_in_declared_order(self):
        assert TAX.ids == (
            "domain",
            "organization",
            "symptom",
            "cause",
            "component",
            "contributing_factor",
        )
        assert [f.position for f in TAX.facets] == [0, 1, 2, 3, 4, 5]

    def test_facet(self):
        cause = TAX.facet("cause")
        assert cause.label("en") == "Cause"
        assert cause.label("ko") == "원인"
        assert cause.description("en") == "Root cause."
        assert [t.id for t in cause.terms] == ["hardware-failure", "gpu-failure", "faulty-change"]
        with pytest.raises(KeyError):
            TAX.facet("causes")

    def test_has_facet(self):
        assert TAX.has_facet("contributing_factor")
        assert not TAX.has_facet("contributing-factor")  # the slug is not the id
        assert not TAX.has_facet("id")

    def test_term(self):
        term = TAX.term("cause", "gpu-failure")
        assert term is not None
        assert (term.facet, term.id, term.parent) == ("cause", "gpu-failure", "hardware-failure")
        assert term.label("ko") == "GPU 고장"
        assert term.description("en") == "A GPU failed."
        assert term.key == ("cause", "gpu-failure")

    def test_term_of_another_facet_or_unknown_is_none(self):
        assert TAX.term("cause", "etcd") is None  # etcd is a component
        assert TAX.term("component", "etcd") is not None
        assert TAX.term("cause", "nope") is None
        assert TAX.term("nope", "etcd") is None

    def test_terms_in_facet_then_declared_order(self):
        terms = list(TAX.terms())
        assert len(terms) == 14
        assert [t.facet for t in terms[:3]] == ["domain", "domain", "organization"]
        assert terms[-1].key == ("contributing_factor", "missing-safeguard")

    def test_facet_of(self):
        assert ids(TAX.facet_of("etcd")) == ["component"]
        assert ids(TAX.facet_of("acme")) == ["organization"]
        assert TAX.facet_of("cause") == ()  # a facet id, not a term id
        assert TAX.facet_of("nope") == ()


class TestFacetGroups:
    def test_descriptive_in_declared_order(self):
        assert ids(TAX.descriptive) == ["symptom", "cause", "component", "contributing_factor"]
        assert all(f.descriptive for f in TAX.descriptive)

    def test_context(self):
        assert ids(TAX.context) == ["domain", "organization"]
        assert not any(f.descriptive for f in TAX.context)

    def test_graphed_in_legend_order_not_declared_order(self):
        assert ids(TAX.graphed) == ["cause", "component", "symptom", "contributing_factor"]

    def test_checklist_and_byline(self):
        assert TAX.checklist is TAX.facet("component")
        assert TAX.byline is TAX.facet("organization")

    def test_a_taxonomy_without_them(self):
        plain = Taxonomy((TAX.facet("domain"), TAX.facet("cause")))
        assert plain.checklist is None
        assert plain.byline is None
        assert plain.graphed == ()
        assert ids(plain.descriptive) == ["cause"]
        assert plain.term("cause", "faulty-change") is TAX.term("cause", "faulty-change")
        assert plain.term("component", "etcd") is None

    def test_declared_properties_of_each_facet(self):
        organization, domain = TAX.facet("organization"), TAX.facet("domain")
        assert organization.single and not domain.single
        assert TAX.facet("symptom").case_section == "symptoms"
        assert TAX.facet("cause").case_section is None
        assert not TAX.facet("contributing_factor").required
        assert TAX.facet("cause").required
        assert TAX.facet("symptom").color == "#b3261e"


class TestSuggest:
    @pytest.mark.parametrize(
        ("facet", "word", "expected"),
        [
            ("cause", "gpu-failure", "gpu-failure"),  # an id
            ("cause", "GPU-Failure", "gpu-failure"),  # case does not matter
            ("cause", "gpu-failur", "gpu-failure"),  # a typo
            ("cause", "Hardware failure", "hardware-failure"),  # the English label
            ("cause", "잘못된 변경", "faulty-change"),  # the Korean label
            ("component", "IB", "infiniband-fabric"),  # an English alias
            ("component", "인피니밴드", "infiniband-fabric"),  # a Korean alias
            ("component", "nvidia driver", "gpu-driver"),
            ("domain", "k8s", "kubernetes"),
        ],
    )
    def test_the_term_meant(self, facet, word, expected):
        assert TAX.suggest(facet, word) == expected

    def test_nothing_close_enough(self):
        assert TAX.suggest("cause", "quantum entanglement") is None

    def test_only_within_the_facet(self):
        assert TAX.suggest("cause", "etcd") is None
        assert TAX.suggest("component", "etcd") == "etcd"

    def test_unknown_facet_raises(self):
        with pytest.raises(KeyError):
            TAX.suggest("causes", "gpu-failure")


class TestTermAndFacet:
    def test_names_in_both_languages(self):
        assert TAX.term("component", "gpu-driver").names() == (
            "gpu-driver",
            "GPU 드라이버",
            "GPU driver",
            "엔비디아 드라이버",
            "NVIDIA driver",
        )
        assert TAX.term("cause", "faulty-change").names() == (
            "faulty-change",
            "잘못된 변경",
            "Faulty change",
        )

    def test_aliases_by_language(self):
        term = TAX.term("domain", "kubernetes")
        assert term.aliases("ko") == ("쿠버네티스",)
        assert term.aliases("en") == ("k8s",)

    def test_slug(self):
        assert TAX.facet("contributing_factor").slug == "contributing-factor"
        assert TAX.facet("cause").slug == "cause"
        assert Facet("a_b_c", "", "", "", "", ()).slug == "a-b-c"

    def test_terms_order_by_facet_position_then_id(self):
        etcd = TAX.term("component", "etcd")
        acme = TAX.term("organization", "acme")
        faulty = TAX.term("cause", "faulty-change")
        gpu = TAX.term("cause", "gpu-failure")
        assert sorted([etcd, gpu, acme, faulty]) == [acme, faulty, gpu, etcd]

    def test_terms_are_frozen_and_hashable(self):
        term = TAX.term("cause", "gpu-failure")
        with pytest.raises(dataclasses.FrozenInstanceError):
            term.id = "other"  # type: ignore[misc]
        assert {term: 1}[TAX.term("cause", "gpu-failure")] == 1

    def test_equal_taxonomies_compare_equal(self):
        again = build_taxonomy(parse_yaml(TAXONOMY, "taxonomy.yml"), "taxonomy.yml")[0]
        assert again == TAX
        assert hash(again) == hash(TAX)

    def test_a_replaced_taxonomy_looks_up_its_own_facets(self):
        original = build_taxonomy(parse_yaml(TAXONOMY, "taxonomy.yml"), "taxonomy.yml")[0]
        smaller = dataclasses.replace(original, facets=original.facets[:2], graph=(), matrices=())
        assert smaller.ids == ("domain", "organization")
        assert not smaller.has_facet("cause")
        assert smaller.term("cause", "gpu-failure") is None

    def test_a_term_built_by_hand_is_found(self):
        term = Term(0, "x", "f", "엑스", "X", "설명", "Description", (), ("ex",), None)
        facet = Facet("f", "에프", "F", "", "", (term,), checklist=True)
        taxonomy = Taxonomy((facet,))
        assert taxonomy.term("f", "x") is term
        assert taxonomy.suggest("f", "EX") == "x"
        assert taxonomy.checklist is facet


def test_ancestors_walk_up_the_parents():
    assert TAX.ancestors("cause", "gpu-failure") == ("hardware-failure",)
    assert TAX.ancestors("cause", "hardware-failure") == ()
    assert TAX.ancestors("cause", "no-such-term") == ()
