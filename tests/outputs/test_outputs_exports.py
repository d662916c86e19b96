"""The machine-readable outputs (generator/outputs/exports.py): the /api/ JSON files validate
against the schemas published beside them, list incidents newest first with their terms, texts
and pages; the Atom feeds parse as XML, name the byline facet's terms as authors, and come out
the same for the same library. Incidents are made in memory."""

from __future__ import annotations

import json
import random
import xml.etree.ElementTree as ET

import jsonschema
import pytest
from conftest import TAXONOMY

from generator.load.front_matter import parse_yaml
from generator.load.taxonomy import build_taxonomy
from generator.model.incident import SECTIONS, CaseText, Incident, Section, incident_model
from generator.model.library import build_library
from generator.outputs.exports import FEED_SIZE, api_files, atom_feed

TAX = build_taxonomy(parse_yaml(TAXONOMY, "taxonomy.yml"), "taxonomy.yml")[0]
MODEL = incident_model(TAX)
ATOM = "{http://www.w3.org/2005/Atom}"


def make(
    incident_id: str,
    occurred: str = "2024-03-01",
    published: str = "2024-04-02",
    *,
    langs: tuple[str, ...] = ("en", "ko"),
    title: str | None = None,
    **terms,
) -> Incident:
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
            "published": published,
            "scale": {"gpus": 8},
            "sources": [
                {
                    "url": f"https://reports.acme.dev/{incident_id}",
                    "title": "Postmortem",
                    "publisher": "Acme",
                    "date": published,
                }
            ],
            **values,
        }
    )
    texts = tuple(
        CaseText(
            lang,
            title or f"{incident_id} in {lang}",
            f"Summary of {incident_id} in {lang}.",
            tuple(Section(key, f"{key} of {incident_id}", n) for n, key in enumerate(SECTIONS)),
            f"incidents/{incident_id}.md",
        )
        for lang in langs
    )
    return Incident(meta, f"incidents/{incident_id}.md", texts)


INCIDENTS = [
    make("a", "2024-01", "2024-02", component=("gpu-driver", "infiniband-fabric")),
    make(
        "b",
        "2024-02",
        "2024-05",
        langs=("en",),
        organization="globex",
        cause=("faulty-change",),
        contributing_factor=("missing-safeguard",),
    ),
    make("c", "2024-03", "2024-03-20", langs=("ko", "en")),
]
LIBRARY = build_library(TAX, INCIDENTS)
FILES = api_files(LIBRARY)


def loaded(name: str):
    return json.loads(FILES[f"api/{name}"])


class TestApiFiles:
    def test_the_files(self):
        assert sorted(FILES) == [
            "api/incident-front-matter.schema.json",
            "api/incidents.db",
            "api/incidents.json",
            "api/incidents.metadata.json",
            "api/incidents.schema.json",
            "api/taxonomy.json",
            "api/taxonomy.schema.json",
        ]
        texts = {path: data for path, data in FILES.items() if not path.endswith(".db")}
        assert all(data.endswith(b"\n") for data in texts.values())

    def test_incidents_json_has_a_line_per_incident(self):
        """The export is the model's dump, one incident per line (each written by pydantic's
        serializer; an indented json.dumps was half of the exports' time at 10,000 cases)."""
        from generator.outputs.exports import incidents_export

        text = FILES["api/incidents.json"].decode("utf-8")
        assert json.loads(text) == incidents_export(LIBRARY).model_dump(mode="json")
        lines = text.split("\n")
        rows = [line for line in lines if line.startswith('{"id":')]
        assert [json.loads(row.rstrip(","))["id"] for row in rows] == [
            i.id for i in LIBRARY.incidents
        ]
        assert lines[:4] == ["{", '"version":1,', '"site_url":null,', f'"count":{len(INCIDENTS)},']
        empty = api_files(build_library(TAX, []))["api/incidents.json"].decode("utf-8")
        assert json.loads(empty)["incidents"] == [] and '"incidents":[]' in empty

    @pytest.mark.parametrize("name", ["incidents", "taxonomy"])
    def test_each_export_validates_against_its_own_schema(self, name):
        schema = loaded(f"{name}.schema.json")
        jsonschema.Draft202012Validator.check_schema(schema)
        jsonschema.validate(loaded(f"{name}.json"), schema)

    def test_the_schema_refuses_what_it_does_not_describe(self):
        document = loaded("incidents.json")
        document["incidents"][0]["unexpected"] = 1
        with pytest.raises(jsonschema.ValidationError):
            jsonschema.validate(document, loaded("incidents.schema.json"))

    def test_front_matter_validates_against_the_front_matter_schema(self):
        schema = loaded("incident-front-matter.schema.json")
        for incident in INCIDENTS:
            jsonschema.validate(incident.meta.model_dump(mode="json", exclude_none=True), schema)
        wrong = INCIDENTS[0].meta.model_dump(mode="json", exclude_none=True) | {
            "cause": ["gpu-failur"]
        }
        with pytest.raises(jsonschema.ValidationError):
            jsonschema.validate(wrong, schema)

    def test_a_case_the_sources_do_not_date(self):
        """`occurred: unknown` is exported as written; the schema allows it and nothing else
        that is not a date."""
        files = api_files(build_library(TAX, [make("u", "unknown", "2021-02-22")]))
        document = json.loads(files["api/incidents.json"])
        assert document["incidents"][0]["occurred"] == "unknown"
        schema = json.loads(files["api/incidents.schema.json"])
        jsonschema.validate(document, schema)
        for wrong in ("Unknown", "sometime", "2021-2"):
            document["incidents"][0]["occurred"] = wrong
            with pytest.raises(jsonschema.ValidationError):
                jsonschema.validate(document, schema)

    def test_sections_read_only_through_a_summary(self):
        files = api_files(build_library(TAX, [make("s", summary_only=("trigger",)), make("t")]))
        document = json.loads(files["api/incidents.json"])
        assert {i["id"]: i["summary_only"] for i in document["incidents"]} == {
            "s": ["trigger"],
            "t": [],
        }
        jsonschema.validate(document, json.loads(files["api/incidents.schema.json"]))

    def test_incidents_newest_first(self):
        document = loaded("incidents.json")
        assert (document["version"], document["count"]) == (1, 3)
        assert [i["id"] for i in document["incidents"]] == ["c", "b", "a"]

    def test_an_incident(self):
        a = loaded("incidents.json")["incidents"][2]
        assert a["occurred"] == "2024-01" and a["published"] == "2024-02" and a["ended"] is None
        assert a["original_language"] == "en"
        assert a["terms"]["component"] == [
            {
                "facet": "component",
                "id": "gpu-driver",
                "label": {"ko": "GPU 드라이버", "en": "GPU driver"},
            },
            {
                "facet": "component",
                "id": "infiniband-fabric",
                "label": {"ko": "InfiniBand 패브릭", "en": "InfiniBand fabric"},
            },
        ]
        assert list(a["terms"]) == list(TAX.ids)
        assert a["terms"]["contributing_factor"] == []
        assert a["scale"] == {"gpus": 8}
        assert a["sources"] == [
            {
                "url": "https://reports.acme.dev/a",
                "title": "Postmortem",
                "publisher": "Acme",
                "date": "2024-02",
            }
        ]
        assert a["pages"] == {"ko": "ko/cases/a.html", "en": "en/cases/a.html"}

    def test_texts_where_they_exist(self):
        incidents = {i["id"]: i for i in loaded("incidents.json")["incidents"]}
        assert sorted(incidents["a"]["texts"]) == ["en", "ko"]
        assert list(incidents["b"]["texts"]) == ["en"]
        c = incidents["c"]["texts"]
        assert (c["ko"]["translated"], c["en"]["translated"]) == (False, True)
        assert list(c["en"]["sections"]) == list(SECTIONS)
        assert c["en"]["sections"]["trigger"] == "trigger of c"
        assert c["en"]["title"] == "c in en"

    def test_taxonomy_with_counts_and_pages(self):
        document = loaded("taxonomy.json")
        assert [f["id"] for f in document["facets"]] == list(TAX.ids)
        cause = {t["id"]: t for t in document["facets"][3]["terms"]}
        assert cause["gpu-failure"]["cases"] == 2
        assert cause["hardware-failure"]["cases"] == 0
        assert cause["gpu-failure"]["parent"] == "hardware-failure"
        assert cause["gpu-failure"]["pages"] == {
            "ko": "ko/cause/gpu-failure.html",
            "en": "en/cause/gpu-failure.html",
        }
        component = {t["id"]: t for t in document["facets"][4]["terms"]}
        assert component["infiniband-fabric"]["aliases"] == {"ko": ["인피니밴드"], "en": ["IB"]}

    def test_deterministic_whatever_the_input_order(self):
        shuffled = INCIDENTS[:]
        random.Random(3).shuffle(shuffled)
        assert api_files(build_library(TAX, shuffled)) == FILES
        assert api_files(LIBRARY) == FILES

    def test_unicode_is_written_as_is(self):
        assert "GPU 드라이버" in FILES["api/taxonomy.json"].decode("utf-8")
        assert "GPU 드라이버" in FILES["api/incidents.json"].decode("utf-8")


class TestAtomFeed:
    def feed(self, lang: str = "en", library=LIBRARY, site_url="https://example.org/"):
        return ET.fromstring(atom_feed(library, lang, site_url).encode("utf-8"))

    def test_parses_with_feed_metadata(self):
        root = self.feed("ko")
        assert root.tag == f"{ATOM}feed"
        assert root.get("{http://www.w3.org/XML/1998/namespace}lang") == "ko"
        assert root.findtext(f"{ATOM}title") == "Incident Library (한국어)"
        assert root.findtext(f"{ATOM}id") == "https://example.org/ko/feed.xml"
        assert root.findtext(f"{ATOM}updated") == "2024-05-01T00:00:00Z"
        links = {link.get("rel"): link.get("href") for link in root.findall(f"{ATOM}link")}
        assert links == {
            "self": "https://example.org/ko/feed.xml",
            "alternate": "https://example.org/ko/index.html",
        }

    def test_entries_newest_publication_first(self):
        entries = self.feed().findall(f"{ATOM}entry")
        assert [e.findtext(f"{ATOM}id") for e in entries] == [
            "https://example.org/en/cases/b.html",
            "https://example.org/en/cases/c.html",
            "https://example.org/en/cases/a.html",
        ]
        assert [e.findtext(f"{ATOM}published") for e in entries] == [
            "2024-05-01T00:00:00Z",
            "2024-03-20T00:00:00Z",
            "2024-02-01T00:00:00Z",
        ]

    def test_authors_from_the_byline_facet(self):
        entries = self.feed("ko").findall(f"{ATOM}entry")
        authors = [[a.findtext(f"{ATOM}name") for a in e.findall(f"{ATOM}author")] for e in entries]
        assert authors == [["글로벡스"], ["애크미"], ["애크미"]]

    def test_entry_text_and_categories(self):
        b = self.feed("ko").findall(f"{ATOM}entry")[0]
        assert b.findtext(f"{ATOM}title") == "b in en"  # no Korean text yet: the original
        assert b.findtext(f"{ATOM}summary") == "Summary of b in en."
        categories = [(c.get("term"), c.get("label")) for c in b.findall(f"{ATOM}category")]
        assert categories == [
            ("symptom:training-job-failure", "학습 작업 실패"),
            ("cause:faulty-change", "잘못된 변경"),
            ("component:gpu-driver", "GPU 드라이버"),
            ("contributing_factor:missing-safeguard", "안전장치 부재"),
        ]

    def test_at_most_feed_size_entries(self):
        many = build_library(
            TAX, [make(f"case-{n:02d}", published=f"2023-01-{n + 1:02d}") for n in range(25)]
        )
        entries = self.feed(library=many).findall(f"{ATOM}entry")
        assert len(entries) == FEED_SIZE == 20
        assert entries[0].findtext(f"{ATOM}id").endswith("/case-24.html")

    def test_markup_in_titles_is_escaped(self):
        odd = build_library(TAX, [make("odd", title='A & B <b>"quoted"</b>')])
        entry = self.feed(library=odd).find(f"{ATOM}entry")
        assert entry.findtext(f"{ATOM}title") == 'A & B <b>"quoted"</b>'
        assert list(entry.find(f"{ATOM}title")) == []

    def test_site_url_without_a_slash(self):
        root = self.feed(site_url="https://example.org/library")
        assert root.findtext(f"{ATOM}id") == "https://example.org/library/en/feed.xml"

    def test_an_empty_library(self):
        root = self.feed(library=build_library(TAX, []))
        assert root.findtext(f"{ATOM}updated") == "1970-01-01T00:00:00Z"
        assert root.findall(f"{ATOM}entry") == []

    def test_deterministic(self):
        shuffled = INCIDENTS[::-1]
        text = atom_feed(LIBRARY, "en", "https://example.org/")
        assert atom_feed(build_library(TAX, shuffled), "en", "https://example.org/") == text
        assert text.startswith('<?xml version="1.0" encoding="utf-8"?>\n')
