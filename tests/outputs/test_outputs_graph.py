"""The graph laid out at build time (generator/outputs/graph.py): `layout_terms` is deterministic,
reused when the previous layout has the same key, and keeps every node inside the canvas;
`graph_payload` lists the drawn facets' terms and, per case, `t` (indexes of its drawn terms)
and `f` (its terms of every other facet). Incidents are made in memory."""

from __future__ import annotations

import dataclasses
import random

from conftest import TAXONOMY

from generator.load.front_matter import parse_yaml
from generator.load.taxonomy import build_taxonomy
from generator.model.incident import SECTIONS, CaseText, Incident, Section, incident_model
from generator.model.library import build_library
from generator.model.taxonomy import Taxonomy
from generator.outputs.graph import HEIGHT, WIDTH, Layout, graph_payload, layout_terms

TAX = build_taxonomy(parse_yaml(TAXONOMY, "taxonomy.yml"), "taxonomy.yml")[0]


def make(incident_id: str, occurred: str = "2024-03-01", *, taxonomy=TAX, **terms) -> Incident:
    values = {
        "organization": "acme",
        "domain": ("ai-infra",),
        "symptom": ("training-job-failure",),
        "cause": ("gpu-failure",),
        "component": ("gpu-driver",),
    } | terms
    meta = incident_model(taxonomy).model_validate(
        {
            "id": incident_id,
            "title": f"Title of {incident_id}",
            "summary": "Summary.",
            "lang": "en",
            "occurred": occurred,
            "published": "2024-04-02",
            "sources": [
                {
                    "url": "https://reports.acme.dev/r",
                    "title": "R",
                    "publisher": "P",
                    "date": "2024",
                }
            ],
            **values,
        }
    )
    sections = tuple(Section(key, key, n) for n, key in enumerate(SECTIONS))
    texts = tuple(
        CaseText(lang, f"{incident_id} in {lang}", "S.", sections, "x.md") for lang in ("en", "ko")
    )
    return Incident(meta, f"incidents/{incident_id}.md", texts)


INCIDENTS = [
    make("a", "2024-01", component=("gpu-driver", "infiniband-fabric")),
    make(
        "b",
        "2024-02",
        organization="globex",
        domain=("kubernetes",),
        symptom=("service-outage",),
        cause=("faulty-change",),
        component=("etcd",),
        contributing_factor=("missing-safeguard",),
    ),
    make("c", "2024-03", contributing_factor=("unverified-assumption",)),
    make("d", "2023-12", cause=("gpu-failure", "hardware-failure")),
]
LIBRARY = build_library(TAX, INCIDENTS)
LAYOUT = layout_terms(LIBRARY)


class TestLayout:
    def test_the_used_terms_of_the_drawn_facets(self):
        assert sorted(LAYOUT.positions) == [
            ("cause", "faulty-change"),
            ("cause", "gpu-failure"),
            ("cause", "hardware-failure"),
            ("component", "etcd"),
            ("component", "gpu-driver"),
            ("component", "infiniband-fabric"),
            ("contributing_factor", "missing-safeguard"),
            ("contributing_factor", "unverified-assumption"),
            ("symptom", "service-outage"),
            ("symptom", "training-job-failure"),
        ]

    def test_deterministic(self):
        again = layout_terms(build_library(TAX, INCIDENTS[::-1]))
        assert again is not LAYOUT
        assert again == LAYOUT

    def test_inside_the_canvas_with_its_margin(self):
        for x, y in LAYOUT.positions.values():
            assert 70.0 <= x <= WIDTH - 70.0
            assert 70.0 <= y <= HEIGHT - 70.0
        xs = [x for x, _ in LAYOUT.positions.values()]
        ys = [y for _, y in LAYOUT.positions.values()]
        assert (min(xs), max(xs), min(ys), max(ys)) == (70.0, WIDTH - 70.0, 70.0, HEIGHT - 70.0)

    def test_terms_do_not_sit_on_each_other(self):
        points = list(LAYOUT.positions.values())
        assert len(set(points)) == len(points)

    def test_the_same_for_the_same_terms(self):
        """What a preview relies on to keep the layout while every case keeps its terms
        (pipeline/changes.py): the layout reads nothing else of a case."""
        edited = [dataclasses.replace(INCIDENTS[0], path="incidents/moved.md"), *INCIDENTS[1:]]
        assert layout_terms(build_library(TAX, edited)) == LAYOUT

    def test_a_new_term_or_weight_gives_a_new_layout(self):
        more = [*INCIDENTS, make("e", component=("etcd",))]  # etcd now pairs with gpu-failure
        changed = layout_terms(build_library(TAX, more))
        assert changed.positions != LAYOUT.positions

    def test_only_the_graphed_facets(self):
        graph_cause = Taxonomy(TAX.facets, TAX.matrices, ("cause",))
        layout = layout_terms(build_library(graph_cause, INCIDENTS))
        assert {facet for facet, _ in layout.positions} == {"cause"}

    def test_an_empty_library(self):
        layout = layout_terms(build_library(TAX, []))
        assert layout == Layout({}, {})

    def test_many_terms_stay_on_the_canvas(self):
        extra = "".join(
            f"      - id: part-{n}\n"
            f"        label: {{ko: 부품 {n}, en: Part {n}}}\n"
            f"        description: {{ko: 부품., en: A part.}}\n"
            for n in range(30)
        )
        text = TAXONOMY.replace(
            "  - id: contributing_factor", extra + "  - id: contributing_factor"
        )
        taxonomy = build_taxonomy(parse_yaml(text, "t.yml"), "t.yml")[0]
        rng = random.Random(5)
        incidents = [
            make(
                f"case-{n}",
                taxonomy=taxonomy,
                component=tuple(rng.sample([f"part-{i}" for i in range(30)], 3)),
            )
            for n in range(40)
        ]
        library = build_library(taxonomy, incidents)
        layout = layout_terms(library)
        assert len(layout.positions) == 32
        for x, y in layout.positions.values():
            assert 0 <= x <= WIDTH and 0 <= y <= HEIGHT
        payload = graph_payload(library, "en", layout)
        for case in payload["cases"]:
            assert 0 <= case["x"] <= WIDTH and 0 <= case["y"] <= HEIGHT


class TestPayload:
    def payload(self, lang: str = "en") -> dict:
        return graph_payload(LIBRARY, lang, LAYOUT)

    def test_canvas_and_terms(self):
        payload = self.payload()
        assert (payload["width"], payload["height"]) == (WIDTH, HEIGHT)
        terms = payload["terms"]
        assert [(t["f"], t["id"]) for t in terms] == sorted(LAYOUT.positions)
        gpu = next(t for t in terms if t["id"] == "gpu-failure")
        assert gpu["label"] == "GPU failure"
        assert (gpu["x"], gpu["y"]) == LAYOUT.positions[("cause", "gpu-failure")]
        assert (
            next(t for t in self.payload("ko")["terms"] if t["id"] == "gpu-failure")["label"]
            == "GPU 고장"
        )

    def test_cases_in_library_order_with_their_drawn_terms_by_index(self):
        payload = self.payload()
        keys = [(t["f"], t["id"]) for t in payload["terms"]]
        cases = {c["id"]: c for c in payload["cases"]}
        assert [c["id"] for c in payload["cases"]] == ["c", "b", "a", "d"]
        for incident in LIBRARY.incidents:
            drawn = [t.key for t in LIBRARY.descriptive_terms(incident)]
            assert [keys[i] for i in cases[incident.id]["t"]] == drawn
        assert [keys[i] for i in cases["a"]["t"]] == [
            ("symptom", "training-job-failure"),
            ("cause", "gpu-failure"),
            ("component", "gpu-driver"),
            ("component", "infiniband-fabric"),
        ]

    def test_other_facets_by_id_under_f(self):
        cases = {c["id"]: c for c in self.payload()["cases"]}
        assert cases["b"]["f"] == {"domain": ["kubernetes"], "organization": ["globex"]}
        assert cases["a"]["f"] == {"domain": ["ai-infra"], "organization": ["acme"]}

    def test_f_holds_descriptive_facets_the_graph_does_not_draw(self):
        graph = Taxonomy(TAX.facets, TAX.matrices, ("cause", "component"))
        library = build_library(graph, INCIDENTS)
        payload = graph_payload(library, "en", layout_terms(library))
        b = next(c for c in payload["cases"] if c["id"] == "b")
        assert b["f"] == {
            "domain": ["kubernetes"],
            "organization": ["globex"],
            "symptom": ["service-outage"],
            "contributing_factor": ["missing-safeguard"],
        }
        keys = [(t["f"], t["id"]) for t in payload["terms"]]
        assert [keys[i] for i in b["t"]] == [("cause", "faulty-change"), ("component", "etcd")]

    def test_cases_sit_on_the_canvas_near_their_terms_clear_of_them(self):
        payload = self.payload()
        for case in payload["cases"]:
            assert 0 <= case["x"] <= WIDTH and 0 <= case["y"] <= HEIGHT
            for x, y in LAYOUT.positions.values():
                assert ((case["x"] - x) ** 2 + (case["y"] - y) ** 2) ** 0.5 >= 25.9
        assert self.payload()["cases"][0]["title"] == "c in en"

    def test_deterministic(self):
        assert self.payload() == graph_payload(build_library(TAX, INCIDENTS[::-1]), "en", LAYOUT)


class TestCasePositions:
    def test_worked_out_once_per_case_with_the_layout_for_both_languages(self, monkeypatch):
        """A case's position is a function of its id, its drawn terms and the terms' places:
        worked out once, with the layout, and read by both languages' payloads."""
        import generator.outputs.graph as graph_module

        real = graph_module._clear_of_terms
        calls: list[int] = []

        def counting(*args, **kwargs):
            calls.append(1)
            return real(*args, **kwargs)

        monkeypatch.setattr(graph_module, "_clear_of_terms", counting)
        layout = layout_terms(LIBRARY)
        assert len(calls) == len(LIBRARY.incidents) and layout == LAYOUT
        for lang in ("en", "ko"):
            payload = graph_payload(LIBRARY, lang, layout)
            assert {c["id"]: (c["x"], c["y"]) for c in payload["cases"]} == layout.cases
        assert len(calls) == len(LIBRARY.incidents)
