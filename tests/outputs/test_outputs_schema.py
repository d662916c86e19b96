"""The JSON Schemas editors use (generator/outputs/schema.py): `incident_schema(taxonomy)` has
each facet's term ids as an enum with markdownEnumDescriptions, a required list that follows
each facet's `required`, and validates front matter as the model does; the translation schema;
`render_schemas` text, and the committed schema/ files are up to date with taxonomy.yml."""

from __future__ import annotations

import json

import jsonschema
import pytest
from conftest import REPO, TAXONOMY

from generator.load.front_matter import parse_yaml
from generator.load.project import ProjectPaths, load_taxonomy
from generator.load.taxonomy import build_taxonomy
from generator.model.taxonomy import Facet, Taxonomy, Term
from generator.outputs.schema import (
    BASE_URL,
    SCHEMA_FILES,
    incident_schema,
    render_schemas,
    translation_schema,
)

TAX = build_taxonomy(parse_yaml(TAXONOMY, "taxonomy.yml"), "taxonomy.yml")[0]
SCHEMA = incident_schema(TAX)

FRONT_MATTER = {
    "id": "acme-gpu-outage",
    "title": "Acme: GPUs fall off the bus",
    "summary": "Driver updates left GPUs unusable.",
    "lang": "en",
    "occurred": "2024-03-01",
    "published": "2024-04",
    "organization": "acme",
    "domain": ["ai-infra"],
    "symptom": ["training-job-failure"],
    "cause": ["gpu-failure"],
    "component": ["gpu-driver"],
    "sources": [
        {
            "url": "https://reports.acme.dev/p",
            "title": "Postmortem",
            "publisher": "Acme",
            "date": "2024-04-02",
        }
    ],
}


def valid(document: dict, schema: dict = SCHEMA) -> bool:
    return jsonschema.Draft202012Validator(schema).is_valid(document)


class TestIncidentSchema:
    def test_header(self):
        jsonschema.Draft202012Validator.check_schema(SCHEMA)
        assert SCHEMA["$schema"] == "https://json-schema.org/draft/2020-12/schema"
        assert SCHEMA["$id"] == BASE_URL + "incident.schema.json"
        assert SCHEMA["title"] == "Incident Library: incident front matter"
        assert SCHEMA["additionalProperties"] is False

    def test_a_single_facet_is_a_string_enum(self):
        organization = SCHEMA["properties"]["organization"]
        assert organization["type"] == "string"
        assert organization["enum"] == ["acme", "globex"]
        assert organization["markdownEnumDescriptions"] == [
            "Acme / 애크미: A made-up company.",
            "Globex / 글로벡스: Another made-up company.",
        ]

    def test_a_list_facet_has_an_enum_of_items(self):
        cause = SCHEMA["properties"]["cause"]
        assert cause["type"] == "array"
        assert cause["items"]["enum"] == ["hardware-failure", "gpu-failure", "faulty-change"]
        assert (
            cause["items"]["markdownEnumDescriptions"][1] == "GPU failure / GPU 고장: A GPU failed."
        )
        assert "enum" not in cause
        assert "pattern" not in cause["items"] and "maxLength" not in cause["items"]

    def test_every_facet_has_its_enum(self):
        for facet in TAX.facets:
            prop = SCHEMA["properties"][facet.id]
            target = prop if facet.single else prop["items"]
            assert target["enum"] == [t.id for t in facet.terms], facet.id
            assert len(target["markdownEnumDescriptions"]) == len(facet.terms)

    def test_required_follows_the_declarations(self):
        required = set(SCHEMA["required"])
        assert {"id", "title", "summary", "lang", "occurred", "published", "sources"} <= required
        facets = {f.id for f in TAX.facets if f.required}
        assert required & set(TAX.ids) == facets
        assert "contributing_factor" not in required
        assert SCHEMA["properties"]["cause"]["minItems"] == 1
        assert "minItems" not in SCHEMA["properties"]["contributing_factor"]

    def test_an_optional_single_facet_may_be_null(self):
        europe = Term(6, "eu", "region", "유럽", "Europe", "", "", (), (), None)
        region = Facet("region", "지역", "Region", "", "", (europe,), single=True, required=False)
        schema = incident_schema(Taxonomy((*TAX.facets, region)))
        assert "region" not in schema["required"]
        branches = schema["properties"]["region"]["anyOf"]
        string = next(b for b in branches if b.get("type") == "string")
        assert string["enum"] == ["eu"]
        assert valid(FRONT_MATTER | {"region": "eu"}, schema)
        assert valid(FRONT_MATTER | {"region": None}, schema)
        assert not valid(FRONT_MATTER | {"region": "asia"}, schema)

    @pytest.mark.parametrize(
        ("change", "ok"),
        [
            ({}, True),
            ({"contributing_factor": ["missing-safeguard"]}, True),
            ({"cause": ["gpu-failur"]}, False),
            ({"cause": []}, False),
            ({"cause": "gpu-failure"}, False),
            ({"organization": "initech"}, False),
            ({"organization": ["acme"]}, False),
            ({"component": ["etcd", "infiniband-fabric"]}, True),
            ({"component": ["acme"]}, False),  # a term of another facet
            ({"causes": ["gpu-failure"]}, False),
        ],
    )
    def test_validates_front_matter(self, change, ok):
        assert valid(FRONT_MATTER | change) is ok

    def test_a_required_facet_missing(self):
        document = {k: v for k, v in FRONT_MATTER.items() if k != "symptom"}
        assert not valid(document)
        optional = {k: v for k, v in FRONT_MATTER.items() if k != "contributing_factor"}
        assert valid(optional)

    def test_each_taxonomy_gets_its_own_enums(self):
        """The model is shared by taxonomies of the same shape; the schemas must not be."""
        renamed = TAXONOMY.replace("id: acme\n", "id: initech\n")
        other = build_taxonomy(parse_yaml(renamed, "t.yml"), "t.yml")[0]
        assert incident_schema(other)["properties"]["organization"]["enum"] == ["initech", "globex"]
        assert incident_schema(TAX)["properties"]["organization"]["enum"] == ["acme", "globex"]
        assert incident_schema(TAX) == SCHEMA


class TestTranslationSchema:
    def test_only_translated_text(self):
        schema = translation_schema()
        jsonschema.Draft202012Validator.check_schema(schema)
        assert schema["$id"] == BASE_URL + "translation.schema.json"
        assert sorted(schema["properties"]) == ["summary", "title"]
        assert sorted(schema["required"]) == ["summary", "title"]
        assert valid({"title": "제목", "summary": "요약"}, schema)
        assert not valid({"title": "제목", "summary": "요약", "cause": ["gpu-failure"]}, schema)
        assert not valid({"title": "제목"}, schema)
        assert not valid({"title": "", "summary": "요약"}, schema)


class TestRenderSchemas:
    def test_files_and_format(self):
        files = render_schemas(TAX)
        assert tuple(files) == SCHEMA_FILES
        for name, text in files.items():
            assert text.endswith("}\n")
            document = json.loads(text)
            assert json.dumps(document, ensure_ascii=False, indent=2, sort_keys=True) + "\n" == text
            assert document["$id"] == BASE_URL + name
        assert "애크미" in files["incident.schema.json"]  # not \\uc560

    def test_the_committed_schemas_follow_taxonomy_yml(self):
        taxonomy, _ = load_taxonomy(ProjectPaths.at(REPO))
        for name, text in render_schemas(taxonomy).items():
            assert (REPO / "schema" / name).read_text(encoding="utf-8") == text, name
