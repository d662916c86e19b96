"""The library (generator/model/library.py): its order (`newest_first`), the indexes by term
(`cases_with`, `count`, `terms_of`, `byline`, `used_terms`), related cases (shared descriptive terms, ties by rarity then recency, five at
most), co-occurring terms, term pairs, and that nothing in it can be written once it is built.
Incidents are made in memory under the test taxonomy."""

from __future__ import annotations

import dataclasses
import random
from dataclasses import replace
from types import MappingProxyType

import pytest
from conftest import TAXONOMY, TODAY

from generator.load.front_matter import parse_yaml
from generator.load.project import ProjectPaths
from generator.load.taxonomy import build_taxonomy
from generator.model.incident import SECTIONS, CaseText, Incident, Section, incident_model
from generator.model.library import (
    COOCCURRING_LIMIT,
    RELATED_LIMIT,
    build_library,
    newest_first,
)
from generator.model.taxonomy import Taxonomy
from generator.pipeline.check import check_project

TAX = build_taxonomy(parse_yaml(TAXONOMY, "taxonomy.yml"), "taxonomy.yml")[0]
MODEL = incident_model(TAX)


def make(
    incident_id: str,
    occurred: str = "2024-03-01",
    published: str = "2024-04-02",
    *,
    organization: str = "acme",
    domain: tuple[str, ...] = ("ai-infra",),
    symptom: tuple[str, ...] = ("training-job-failure",),
    cause: tuple[str, ...] = ("gpu-failure",),
    component: tuple[str, ...] = ("gpu-driver",),
    contributing_factor: tuple[str, ...] = (),
) -> Incident:
    meta = MODEL.model_validate(
        {
            "id": incident_id,
            "title": f"Title of {incident_id}",
            "summary": "What happened.",
            "lang": "en",
            "occurred": occurred,
            "published": published,
            "organization": organization,
            "domain": domain,
            "symptom": symptom,
            "cause": cause,
            "component": component,
            "contributing_factor": contributing_factor,
            "sources": [
                {
                    "url": "https://reports.acme.dev/r",
                    "title": "R",
                    "publisher": "P",
                    "date": published,
                }
            ],
        }
    )
    sections = tuple(Section(key, key, n) for n, key in enumerate(SECTIONS))
    text = CaseText("en", meta.title, meta.summary, sections, f"incidents/{incident_id}.md")
    return Incident(meta, f"incidents/{incident_id}.md", (text,))


def term(facet: str, term_id: str):
    found = TAX.term(facet, term_id)
    assert found is not None
    return found


def ids(incidents) -> list[str]:
    return [i.id for i in incidents]


class TestOrder:
    def test_newest_occurrence_then_newest_publication_then_id(self):
        incidents = [
            make("old", "2022-05-01"),
            make("b-same-day", "2024-03-01", "2024-04-02"),
            make("a-same-day", "2024-03-01", "2024-04-02"),
            make("published-later", "2024-03-01", "2024-06"),
            make("newest", "2025-01"),
        ]
        library = build_library(TAX, incidents)
        assert ids(library.incidents) == [
            "newest",
            "published-later",
            "a-same-day",
            "b-same-day",
            "old",
        ]
        assert ids(sorted(incidents, key=newest_first)) == ids(library.incidents)
        assert [library.rank(i) for i in ids(library.incidents)] == [0, 1, 2, 3, 4]

    def test_a_missing_month_or_day_sorts_as_the_earliest(self):
        library = build_library(
            TAX, [make("year", "2024"), make("month", "2024-03"), make("day", "2024-03-09")]
        )
        assert ids(library.incidents) == ["day", "month", "year"]

    def test_a_case_with_no_date_is_placed_by_its_publication(self):
        """`occurred: unknown` takes the publication date's place: after a case that occurred
        later, before one that occurred earlier, and after a dated case of the same day."""
        incidents = [
            make("undated", "unknown", "2021-02-22"),
            make("later", "2021-06"),
            make("same-day", "2021-02-22", "2021-03"),
            make("earlier", "2020-11"),
        ]
        library = build_library(TAX, incidents)
        assert ids(library.incidents) == ["later", "same-day", "undated", "earlier"]

    def test_the_input_order_does_not_matter(self):
        incidents = [make(f"case-{n}", f"2024-0{n % 9 + 1}") for n in range(12)]
        shuffled = incidents[:]
        random.Random(7).shuffle(shuffled)
        assert build_library(TAX, shuffled).incidents == build_library(TAX, incidents).incidents


class TestFromFiles:
    def test_a_library_of_checked_files(self, project):
        """The same library from files on disk, through the check stage."""
        project.add_incident("acme-old", occurred="2023-05-01")
        project.add_incident("acme-new", occurred="2024-03-20", cause="[faulty-change]")
        project.add_incident(
            "globex-etcd", occurred="2024-01-01", organization="globex", translate=False
        )
        checked = check_project(ProjectPaths.at(project.root), TODAY)
        assert checked.result.errors == ()
        library = build_library(checked.taxonomy, checked.result.incidents)
        assert ids(library.incidents) == ["acme-new", "globex-etcd", "acme-old"]
        assert [
            i.id for i in library.cases_with(checked.taxonomy.term("cause", "gpu-failure"))
        ] == [
            "globex-etcd",
            "acme-old",
        ]
        old = library.incident("acme-old")
        assert [t.lang for t in old.texts] == ["en", "ko"]
        assert [r.incident.id for r in library.related(old)][0] == "globex-etcd"
        assert [t.label_en for t in library.byline(library.incident("globex-etcd"))] == ["Globex"]


class TestIndexes:
    @pytest.fixture(scope="class")
    @classmethod
    def library(cls):
        return build_library(
            TAX,
            [
                make("a", "2024-01", component=("infiniband-fabric", "gpu-driver")),
                make("b", "2024-02", cause=("faulty-change",), component=("etcd",)),
                make(
                    "c",
                    "2024-03",
                    organization="globex",
                    contributing_factor=("missing-safeguard",),
                ),
            ],
        )

    def test_cases_with_a_term_newest_first(self, library):
        assert ids(library.cases_with(term("component", "gpu-driver"))) == ["c", "a"]
        assert ids(library.cases_with(term("organization", "acme"))) == ["b", "a"]
        assert library.cases_with(term("cause", "hardware-failure")) == ()

    def test_a_parent_term_does_not_count_its_children(self, library):
        assert library.count(term("cause", "gpu-failure")) == 2
        assert library.count(term("cause", "hardware-failure")) == 0

    def test_count(self, library):
        assert library.count(term("domain", "ai-infra")) == 3
        assert library.count(term("contributing_factor", "missing-safeguard")) == 1
        assert library.count(term("domain", "kubernetes")) == 0

    def test_terms_of_in_the_order_the_case_names_them(self, library):
        a = library.incident("a")
        assert [t.id for t in library.terms_of(a, "component")] == [
            "infiniband-fabric",
            "gpu-driver",
        ]
        assert library.terms_of(a, "contributing_factor") == ()
        assert [t.id for t in library.terms_of(a, "organization")] == ["acme"]

    def test_descriptive_terms_in_facet_order(self, library):
        c = library.incident("c")
        assert [t.key for t in library.descriptive_terms(c)] == [
            ("symptom", "training-job-failure"),
            ("cause", "gpu-failure"),
            ("component", "gpu-driver"),
            ("contributing_factor", "missing-safeguard"),
        ]

    def test_byline(self, library):
        assert [t.label_en for t in library.byline(library.incident("c"))] == ["Globex"]
        without_byline = dataclasses.replace(TAX.facet("organization"), byline=False)
        facets = tuple(without_byline if f.id == "organization" else f for f in TAX.facets)
        plain = build_library(Taxonomy(facets, TAX.matrices, TAX.graph), [make("a")])
        assert plain.byline(plain.incident("a")) == ()

    def test_used_terms_in_declared_order(self, library):
        assert [t.id for t in library.used_terms("component")] == [
            "gpu-driver",
            "infiniband-fabric",
            "etcd",
        ]
        assert [t.id for t in library.used_terms("cause")] == ["gpu-failure", "faulty-change"]
        assert library.used_terms("contributing_factor") == (
            term("contributing_factor", "missing-safeguard"),
        )

    def test_lookup_by_id(self, library):
        assert library.has_incident("b")
        assert not library.has_incident("d")
        assert library.incident("b").id == "b"
        with pytest.raises(KeyError):
            library.incident("d")

    def test_an_empty_library(self):
        library = build_library(TAX, [])
        assert library.incidents == ()
        assert library.pairs() == {}
        assert library.used_terms("cause") == ()


class TestRelated:
    def test_ranked_by_shared_descriptive_terms(self):
        x = make(
            "x",
            "2020-01",
            symptom=("service-outage",),
            cause=("faulty-change",),
            component=("etcd",),
        )
        three = make(
            "three",
            "2019",
            symptom=("service-outage",),
            cause=("faulty-change",),
            component=("etcd",),
        )
        two = make("two", "2019", symptom=("service-outage",), cause=("faulty-change",))
        one = make("one", "2024", symptom=("service-outage",))
        none = make("none", "2025", symptom=("training-job-failure",))
        library = build_library(TAX, [x, three, two, one, none])
        related = library.related(library.incident("x"))
        assert [r.incident.id for r in related] == ["three", "two", "one"]
        assert [[t.id for t in r.shared] for r in related] == [
            ["service-outage", "faulty-change", "etcd"],
            ["service-outage", "faulty-change"],
            ["service-outage"],
        ]

    def test_context_terms_do_not_make_cases_related(self):
        x = make("x", symptom=("service-outage",), cause=("faulty-change",), component=("etcd",))
        same_org_only = make("y", organization="acme", domain=("ai-infra",))
        library = build_library(TAX, [x, same_org_only])
        assert library.related(library.incident("x")) == ()

    def test_ties_go_to_the_newest(self):
        cases = [make(f"case-{n}", f"2024-01-{n + 10:02d}") for n in range(4)]
        library = build_library(TAX, cases)
        related = library.related(library.incident("case-0"))
        assert [r.incident.id for r in related] == ["case-3", "case-2", "case-1"]
        assert all(len(r.shared) == 3 for r in related)

    def test_between_equal_counts_a_rarer_term_ranks_first(self):
        x = make("x", "2020", component=("gpu-driver", "etcd"))
        rare = make(
            "rare",
            "2019",
            symptom=("service-outage",),
            cause=("faulty-change",),
            component=("etcd",),
        )
        common = [
            make(
                f"common-{n}",
                f"2024-0{n + 1}",
                symptom=("service-outage",),
                cause=("faulty-change",),
            )
            for n in range(3)
        ]
        library = build_library(TAX, [x, rare, *common])
        related = library.related(library.incident("x"))
        assert related[0].incident.id == "rare"  # shares etcd (used twice) rather than gpu-driver
        assert [r.incident.id for r in related[1:]] == ["common-2", "common-1", "common-0"]

    def test_five_at_most_never_itself(self):
        cases = [make(f"case-{n:02d}", f"2024-01-{n + 1:02d}") for n in range(12)]
        library = build_library(TAX, cases)
        for incident in library.incidents:
            related = library.related(incident)
            assert len(related) == RELATED_LIMIT == 5
            assert incident.id not in [r.incident.id for r in related]
        newest_others = [i.id for i in library.incidents if i.id != "case-00"][:5]
        assert [
            r.incident.id for r in library.related(library.incident("case-00"))
        ] == newest_others

    def test_an_executor_ranks_the_same(self):
        calls: list[int] = []

        class Recording:
            name, forked = "recording", 0

            def map(self, job, count):
                calls.append(count)
                return [job(n) for n in reversed(range(count))][::-1]  # any order of work

        cases = [
            make(
                f"case-{n:02d}",
                f"2024-01-{n + 1:02d}",
                cause=(("gpu-failure", "faulty-change")[n % 2],),
            )
            for n in range(9)
        ]
        plain = build_library(TAX, cases)
        mapped = build_library(TAX, cases, executor=Recording())
        assert calls == [9]  # one job per case, all in one call
        for incident in plain.incidents:
            assert plain.related(incident) == mapped.related(mapped.incident(incident.id))

    def test_a_preview_keeps_the_ranking_while_terms_and_order_stay(self):
        """A preview rebuilds after every save; an edit of a case's text leaves its ranking as it
        was (nothing is ranked), one of its terms ranks everything again."""
        calls: list[int] = []

        class Recording:
            name, forked = "recording", 0

            def map(self, job, count):
                calls.append(count)
                return [job(n) for n in range(count)]

        def cases(cause_of_3: str = "gpu-failure"):
            return [
                make(
                    f"case-{n}",
                    f"2024-01-{n + 1:02d}",
                    cause=((cause_of_3 if n == 3 else ("gpu-failure", "faulty-change")[n % 2]),),
                )
                for n in range(8)
            ]

        first = build_library(TAX, cases(), Recording())
        edited = [replace(c, path=c.path + "#edited") for c in cases()]  # same terms, new text
        again = build_library(TAX, edited, Recording(), previous=first)
        assert calls == [8]  # the second build ranked nothing
        for incident in again.incidents:
            related = again.related(incident)
            assert [r.incident.id for r in related] == [
                r.incident.id for r in first.related(first.incident(incident.id))
            ]
            assert all(r.incident.path.endswith("#edited") for r in related)  # the new cases
        retagged = build_library(TAX, cases("faulty-change"), Recording(), previous=first)
        assert calls == [8, 8]
        fresh = build_library(TAX, cases("faulty-change"))
        for incident in fresh.incidents:
            assert retagged.related(retagged.incident(incident.id)) == fresh.related(incident)

    def test_a_preview_keeps_the_pairs_and_companions_while_every_facet_stays(self, monkeypatch):
        """Pairs and the terms seen together read every facet's terms: an edit of a case's text
        keeps them (nothing is counted); a case's organization (a context facet) counts again,
        and equals a fresh build's."""
        import generator.model.library as library_module

        def cases(organization_of_2: str = "acme"):
            return [
                make(
                    f"case-{n}",
                    f"2024-01-{n + 1:02d}",
                    organization=organization_of_2 if n == 2 else "acme",
                    cause=(("gpu-failure", "faulty-change")[n % 2],),
                )
                for n in range(6)
            ]

        def same(a, b) -> None:
            assert dict(a.pairs()) == dict(b.pairs())
            for facet in TAX.facets:
                for term in facet.terms:
                    assert a.cooccurring(term) == b.cooccurring(term)

        first = build_library(TAX, cases())
        counted = library_module._pairs_and_cooccurring
        calls: list[int] = []

        def counting(*args):
            calls.append(1)
            return counted(*args)

        monkeypatch.setattr(library_module, "_pairs_and_cooccurring", counting)
        edited = [replace(c, path=c.path + "#edited") for c in cases()]
        same(build_library(TAX, edited, previous=first), first)
        assert calls == []
        moved = build_library(TAX, cases("globex"), previous=first)
        assert calls == [1]
        same(moved, build_library(TAX, cases("globex")))


class TestCooccurrence:
    @pytest.fixture(scope="class")
    @classmethod
    def library(cls):
        return build_library(
            TAX,
            [
                make("a", component=("gpu-driver", "infiniband-fabric")),
                make(
                    "b", component=("gpu-driver",), contributing_factor=("unverified-assumption",)
                ),
                make(
                    "c", cause=("faulty-change",), component=("etcd",), symptom=("service-outage",)
                ),
                make("d", cause=("gpu-failure", "faulty-change"), component=("infiniband-fabric",)),
            ],
        )

    def counted(self, library, facet, term_id):
        return {
            facet_id: [(t.id, n) for t, n in terms]
            for facet_id, terms in library.cooccurring(term(facet, term_id))
        }

    def test_other_descriptive_facets_most_frequent_first(self, library):
        assert self.counted(library, "cause", "gpu-failure") == {
            "symptom": [("training-job-failure", 3)],
            "component": [("gpu-driver", 2), ("infiniband-fabric", 2)],  # a tie: term order
            "contributing_factor": [("unverified-assumption", 1)],
        }

    def test_own_facet_left_out(self, library):
        counted = self.counted(library, "component", "infiniband-fabric")
        assert "component" not in counted  # not with gpu-driver, its own facet
        assert counted["cause"] == [("gpu-failure", 2), ("faulty-change", 1)]
        assert list(counted) == ["symptom", "cause"]  # declared order; no contributing factor

    def test_context_terms_have_descriptive_cooccurrences(self, library):
        counted = self.counted(library, "organization", "acme")
        assert list(counted) == ["symptom", "cause", "component", "contributing_factor"]
        assert counted["component"] == [("gpu-driver", 2), ("infiniband-fabric", 2), ("etcd", 1)]

    def test_an_unused_term_has_none(self, library):
        assert library.cooccurring(term("cause", "hardware-failure")) == ()

    def test_at_most_five_per_facet(self):
        extra = "".join(
            f"      - id: part-{n}\n"
            f"        label: {{ko: 부품 {n}, en: Part {n}}}\n"
            f"        description: {{ko: 부품., en: A part.}}\n"
            for n in range(8)
        )
        text = TAXONOMY.replace(
            "  - id: contributing_factor", extra + "  - id: contributing_factor"
        )
        taxonomy = build_taxonomy(parse_yaml(text, "t.yml"), "t.yml")[0]
        model = incident_model(taxonomy)
        case = make("a", component=tuple(f"part-{n}" for n in range(8)))
        case = dataclasses.replace(case, meta=model.model_validate(case.meta.model_dump()))
        library = build_library(taxonomy, [case])
        (facet_id, counted), *_ = [
            item
            for item in library.cooccurring(taxonomy.term("cause", "gpu-failure"))
            if item[0] == "component"
        ]
        assert len(counted) == COOCCURRING_LIMIT == 5
        assert [t.id for t, _ in counted] == ["part-0", "part-1", "part-2", "part-3", "part-4"]

    def test_pairs_of_descriptive_terms_in_term_order(self, library):
        pairs = {(a.id, b.id): n for (a, b), n in library.pairs().items()}
        assert pairs[("gpu-failure", "gpu-driver")] == 2
        assert pairs[("gpu-driver", "infiniband-fabric")] == 1  # the same facet counts too
        assert pairs[("training-job-failure", "gpu-failure")] == 3
        assert ("acme", "gpu-driver") not in pairs  # context terms are not paired
        assert all(a < b for a, b in library.pairs())
        assert sum(1 for (a, b) in pairs if "service-outage" in (a, b)) == 2


class TestFrozen:
    @pytest.fixture(scope="class")
    @classmethod
    def library(cls):
        return build_library(TAX, [make("a"), make("b", "2024-05")])

    def test_attributes_cannot_be_set(self, library):
        with pytest.raises(dataclasses.FrozenInstanceError):
            library.incidents = ()  # type: ignore[misc]
        with pytest.raises(dataclasses.FrozenInstanceError):
            library._related = {}  # type: ignore[misc]

    def test_every_mapping_is_read_only(self, library):
        mappings = [f.name for f in dataclasses.fields(library) if f.name.startswith("_")]
        assert mappings
        for name in mappings:
            value = getattr(library, name)
            assert isinstance(value, MappingProxyType), name
            with pytest.raises(TypeError):
                value["x"] = ()  # type: ignore[index]
        assert isinstance(library.pairs(), MappingProxyType)

    def test_what_lookups_return_is_immutable(self, library):
        a = library.incident("a")
        assert isinstance(library.incidents, tuple)
        assert isinstance(library.cases_with(term("cause", "gpu-failure")), tuple)
        assert isinstance(library.related(a), tuple)
        assert isinstance(library.terms_of(a, "cause"), tuple)
        assert isinstance(library.cooccurring(term("cause", "gpu-failure")), tuple)

    def test_nothing_reachable_from_the_library_is_writable(self, library):
        seen: set[int] = set()

        def walk(value, where: str) -> None:
            if id(value) in seen:
                return
            seen.add(id(value))
            assert not isinstance(value, dict | list | set | bytearray), where
            if dataclasses.is_dataclass(value) and not isinstance(value, type):
                assert type(value).__dataclass_params__.frozen, where
                for f in dataclasses.fields(value):
                    walk(getattr(value, f.name), f"{where}.{f.name}")
            elif isinstance(value, tuple | frozenset):
                for n, item in enumerate(value):
                    walk(item, f"{where}[{n}]")
            elif isinstance(value, MappingProxyType):
                for key, item in value.items():
                    walk(item, f"{where}[{key!r}]")

        walk(library, "library")
