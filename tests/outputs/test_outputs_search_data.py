"""The library page's data (generator/outputs/search_data.py): `terms_payload` (facets with their
descriptive, byline and checklist flags, terms with every name and count, the interface
strings), `cases_payload` (every case in library order with its text for offline search) and
`as_script`, which can never close the script element it is loaded in. Incidents in memory."""

from __future__ import annotations

import json

from conftest import TAXONOMY

from generator.load.front_matter import parse_yaml
from generator.load.taxonomy import build_taxonomy
from generator.model.incident import SECTIONS, CaseText, Incident, Section, incident_model
from generator.model.library import build_library, order_key
from generator.outputs.search_data import as_script, cases_payload, plain_text, terms_payload
from generator.render.strings import strings_for

TAX = build_taxonomy(parse_yaml(TAXONOMY, "taxonomy.yml"), "taxonomy.yml")[0]
MODEL = incident_model(TAX)


def make(incident_id: str, occurred: str, *, langs=("en", "ko"), **terms) -> Incident:
    values = {
        "organization": "acme",
        "domain": ("ai-infra",),
        "symptom": ("training-job-failure",),
        "cause": ("gpu-failure",),
        "component": ("gpu-driver",),
    } | terms
    meta = MODEL.model_validate(
        {
            "id": incident_id,
            "title": f"Title of {incident_id}",
            "summary": "Summary.",
            "lang": langs[0],
            "occurred": occurred,
            "published": "2024-04-02",
            "sources": [
                {"url": "https://example.com/r", "title": "R", "publisher": "P", "date": "2024"}
            ],
            **values,
        }
    )
    texts = tuple(
        CaseText(
            lang,
            f"{incident_id} title {lang}",
            f"{incident_id} summary {lang}",
            tuple(
                Section(key, f"**{key}** see [the report](https://example.com/x) `code`", n)
                for n, key in enumerate(SECTIONS)
            ),
            f"incidents/{incident_id}.md",
        )
        for lang in langs
    )
    return Incident(meta, f"incidents/{incident_id}.md", texts)


LIBRARY = build_library(
    TAX,
    [
        make("a", "2024-01", component=("gpu-driver", "infiniband-fabric")),
        make("b", "2024-02", langs=("en",), organization="globex", cause=("faulty-change",)),
    ],
)


class TestTermsPayload:
    def test_top_level(self):
        payload = terms_payload(LIBRARY, "en")
        assert list(payload) == ["lang", "total", "graph", "facets", "strings"]
        assert (payload["lang"], payload["total"]) == ("en", 2)
        assert payload["graph"] == ["cause", "component", "symptom", "contributing_factor"]
        assert payload["strings"] == strings_for("en")
        assert terms_payload(LIBRARY, "ko")["strings"]["library"] == "사례 라이브러리"

    def test_facets_with_their_flags(self):
        facets = terms_payload(LIBRARY, "en")["facets"]
        flags = {f["id"]: (f["descriptive"], f["byline"], f["checklist"]) for f in facets}
        assert flags == {
            "domain": (False, False, False),
            "organization": (False, True, False),
            "symptom": (True, False, False),
            "cause": (True, False, False),
            "component": (True, False, True),
            "contributing_factor": (True, False, False),
        }
        assert [f["id"] for f in facets] == list(TAX.ids)
        assert facets[3]["label"] == "Cause"
        assert terms_payload(LIBRARY, "ko")["facets"][3]["label"] == "원인"

    def test_terms_with_names_counts_and_urls(self):
        facets = {f["id"]: f for f in terms_payload(LIBRARY, "ko")["facets"]}
        infiniband = next(t for t in facets["component"]["terms"] if t["id"] == "infiniband-fabric")
        assert infiniband == {
            "id": "infiniband-fabric",
            "label": "InfiniBand 패브릭",
            "names": [
                "IB",
                "InfiniBand fabric",
                "InfiniBand 패브릭",
                "infiniband-fabric",
                "인피니밴드",
            ],
            "count": 1,
            "url": "component/infiniband-fabric.html",  # relative to the language's folder
        }
        counts = {t["id"]: t["count"] for t in facets["cause"]["terms"]}
        assert counts == {"hardware-failure": 0, "gpu-failure": 1, "faulty-change": 1}
        assert [t["id"] for t in facets["cause"]["terms"]] == [
            t.id for t in TAX.facet("cause").terms
        ]

    def test_names_are_sorted_without_case_and_without_repeats(self):
        etcd = next(
            t
            for f in terms_payload(LIBRARY, "en")["facets"]
            if f["id"] == "component"
            for t in f["terms"]
            if t["id"] == "etcd"
        )
        assert etcd["names"] == ["etcd"]  # id and both labels are the same word
        for facet in terms_payload(LIBRARY, "en")["facets"]:
            for term in facet["terms"]:
                names = term["names"]
                assert names == sorted(set(names), key=lambda n: (n.casefold(), n))


class TestCasesPayload:
    def test_every_case_in_library_order(self):
        cases = cases_payload(LIBRARY, "en")
        assert [c["id"] for c in cases] == ["b", "a"]
        assert [c["sort"] for c in cases] == [order_key(i) for i in LIBRARY.incidents]

    def test_a_case(self):
        a = cases_payload(LIBRARY, "ko")[1]
        assert {k: v for k, v in a.items() if k != "text"} == {
            "id": "a",
            "url": "cases/a.html",
            "title": "a title ko",
            "summary": "a summary ko",
            "lang": "ko",
            "date": "2024-01",
            "sort": order_key(LIBRARY.incident("a")),
            "org": "애크미",
            "terms": {
                "domain": ["ai-infra"],
                "organization": ["acme"],
                "symptom": ["training-job-failure"],
                "cause": ["gpu-failure"],
                "component": ["gpu-driver", "infiniband-fabric"],
                "contributing_factor": [],
            },
        }

    def test_the_text_has_words_not_markup(self):
        text = cases_payload(LIBRARY, "en")[1]["text"]
        assert text.startswith("a title en a summary en symptoms see the report code trigger")
        assert "**" not in text and "https://" not in text and "`" not in text and "[" not in text
        for name in ("인피니밴드", "IB", "NVIDIA driver", "애크미", "gpu-failure"):
            assert name in text

    def test_an_untranslated_case_in_its_original(self):
        b = cases_payload(LIBRARY, "ko")[0]
        assert (b["lang"], b["title"], b["org"]) == ("en", "b title en", "글로벡스")

    def test_plain_text(self):
        assert plain_text("## Heading\n\n> **bold** [link](https://x.org/a) `code`") == (
            "Heading bold link code"
        )


class TestAsScript:
    def test_sets_the_variable(self):
        script = as_script("terms", {"a": 1})
        assert script == (
            "window.IncidentLibraryData=window.IncidentLibraryData||{};"
            'window.IncidentLibraryData.terms={"a":1};\n'
        )

    def test_escapes_closing_tags(self):
        payload = {"title": "</script><script>alert(1)</script>", "x": "a</b"}
        script = as_script("cases", payload)
        assert "</" not in script
        assert "<\\/script>" in script
        data = script.split("window.IncidentLibraryData.cases=", 1)[1].rstrip(";\n")
        assert json.loads(data) == payload  # "\/" is still "/" to a JSON or JS reader

    def test_unicode_is_written_as_is(self):
        script = as_script("t", {"ko": "한국어"})
        assert "한국어" in script
        data = script.split("window.IncidentLibraryData.t=", 1)[1].rstrip(";\n")
        assert json.loads(data) == {"ko": "한국어"}

    def test_the_payloads_survive(self):
        for lang in ("ko", "en"):
            for name, payload in (
                ("terms", terms_payload(LIBRARY, lang)),
                ("cases", cases_payload(LIBRARY, lang)),
            ):
                script = as_script(name, payload)
                data = script.split(f"window.IncidentLibraryData.{name}=", 1)[1].rstrip(";\n")
                assert json.loads(data) == payload
