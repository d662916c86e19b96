"""The incident model (generator/model/incident.py): `incident_model(taxonomy)` makes one field per
facet (a term id or a list, required or optional, as declared), is cached per facet shape,
validates, and its instances survive pickle (forked workers send them back); `split_sections`
on headings and code fences; `Incident.text` falling back to the original. No files."""

from __future__ import annotations

import pickle
import typing

import pytest
from conftest import TAXONOMY
from pydantic import ValidationError

from generator.load.front_matter import parse_yaml
from generator.load.taxonomy import build_taxonomy
from generator.model.incident import (
    SECTION_HEADINGS,
    SECTIONS,
    CaseText,
    Heading,
    Incident,
    IncidentMeta,
    Section,
    facet_shape,
    incident_model,
    split_sections,
)
from generator.model.taxonomy import Facet, Taxonomy

TAX = build_taxonomy(parse_yaml(TAXONOMY, "taxonomy.yml"), "taxonomy.yml")[0]
MODEL = incident_model(TAX)
FACETS = ("domain", "organization", "symptom", "cause", "component", "contributing_factor")


def values(**changes) -> dict:
    base = {
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
        "component": ["gpu-driver", "infiniband-fabric"],
        "scale": {"gpus": 4088, "hosts": 511},
        "sources": [
            {
                "url": "https://reports.acme.dev/postmortem",
                "title": "Postmortem",
                "publisher": "Acme",
                "date": "2024-04-02",
            }
        ],
    }
    base.update(changes)
    return {k: v for k, v in base.items() if v is not ...}


def errors(**changes) -> list[tuple[tuple, str]]:
    with pytest.raises(ValidationError) as failure:
        MODEL.model_validate(values(**changes))
    return [(e["loc"], e["type"]) for e in failure.value.errors()]


def case_text(lang: str, title: str) -> CaseText:
    sections = tuple(Section(key, f"{key} in {lang}", n) for n, key in enumerate(SECTIONS))
    return CaseText(lang, title, f"summary in {lang}", sections, f"incidents/x.{lang}.md")


class TestIncidentModel:
    def test_one_field_per_facet_after_the_shared_fields(self):
        fields = list(MODEL.model_fields)
        assert fields[: len(IncidentMeta.model_fields)] == list(IncidentMeta.model_fields)
        assert tuple(fields[len(IncidentMeta.model_fields) :]) == FACETS
        assert issubclass(MODEL, IncidentMeta)

    def test_single_facet_is_a_term_id_list_facet_a_tuple(self):
        assert MODEL.model_fields["organization"].annotation is str
        assert typing.get_origin(MODEL.model_fields["cause"].annotation) is tuple

    def test_required_and_optional_follow_the_declaration(self):
        required = {name for name in FACETS if MODEL.model_fields[name].is_required()}
        assert required == {"domain", "organization", "symptom", "cause", "component"}
        assert MODEL.model_fields["contributing_factor"].default == ()

    def test_valid_front_matter(self):
        meta = MODEL.model_validate(values())
        assert meta.organization == "acme"
        assert meta.component == ("gpu-driver", "infiniband-fabric")
        assert meta.contributing_factor == ()
        assert meta.scale.gpus == 4088

    def test_an_empty_scale_is_no_scale(self):
        """`incidents new` writes `scale: {}`; it states nothing, so it equals no scale (and
        the exports, which omit it, give the same incident back)."""
        assert MODEL.model_validate(values(scale={})).scale is None
        assert MODEL.model_validate(values(scale={"gpus": 8})).scale.gpus == 8

    def test_a_required_facet_missing_or_empty(self):
        assert errors(cause=...) == [(("cause",), "missing")]
        assert errors(cause=[]) == [(("cause",), "too_short")]
        assert errors(organization=...) == [(("organization",), "missing")]

    def test_a_single_facet_takes_one_id_and_a_list_facet_a_list(self):
        assert errors(organization=["acme"]) == [(("organization",), "string_type")]
        assert errors(cause="gpu-failure") == [(("cause",), "tuple_type")]

    def test_unknown_fields_are_refused_and_instances_frozen(self):
        assert errors(causes=["gpu-failure"]) == [(("causes",), "extra_forbidden")]
        meta = MODEL.model_validate(values())
        with pytest.raises(ValidationError):
            meta.cause = ("faulty-change",)

    def test_an_optional_single_facet_defaults_to_none(self):
        region = Facet("region", "지역", "Region", "", "", (), single=True, required=False)
        model = incident_model(Taxonomy((*TAX.facets, region)))
        assert model.model_fields["region"].default is None
        assert model.model_validate(values()).region is None
        assert model.model_validate(values(region="eu")).region == "eu"

    def test_cached_per_facet_shape(self):
        again = build_taxonomy(parse_yaml(TAXONOMY, "taxonomy.yml"), "taxonomy.yml")[0]
        assert incident_model(again) is MODEL
        relabelled = TAXONOMY.replace("{ko: 원인, en: Cause}", "{ko: 원인, en: Root cause}")
        other_labels = build_taxonomy(parse_yaml(relabelled, "t.yml"), "t.yml")[0]
        assert other_labels != TAX
        assert facet_shape(other_labels) == facet_shape(TAX)
        assert incident_model(other_labels) is MODEL

    def test_another_shape_is_another_model(self):
        optional = TAXONOMY.replace(
            'terms_per_case: many\n    required: true\n    role: descriptive\n    color: "#7b3fa0"',
            'terms_per_case: many\n    required: false\n    role: descriptive\n    color: "#7b3fa0"',
        )
        taxonomy = build_taxonomy(parse_yaml(optional, "t.yml"), "t.yml")[0]
        assert not taxonomy.facet("cause").required
        model = incident_model(taxonomy)
        assert model is not MODEL
        assert model.model_validate(values(cause=...)).cause == ()
        assert incident_model(TAX) is MODEL


class TestPickle:
    @pytest.mark.parametrize("protocol", [2, pickle.DEFAULT_PROTOCOL, pickle.HIGHEST_PROTOCOL])
    def test_meta_survives_a_round_trip(self, protocol):
        meta = MODEL.model_validate(values(ended="2024-03-02", not_in_sources=["follow_ups"]))
        back = pickle.loads(pickle.dumps(meta, protocol=protocol))
        assert type(back) is MODEL
        assert back == meta
        assert back.model_dump() == meta.model_dump()
        assert back.sources[0].publisher == "Acme"
        assert back.not_in_sources == ("follow_ups",)

    def test_an_incident_survives_a_round_trip(self):
        incident = Incident(
            MODEL.model_validate(values()),
            "incidents/acme-gpu-outage.md",
            (case_text("en", "Acme"), case_text("ko", "애크미")),
        )
        back = pickle.loads(pickle.dumps(incident))
        assert back == incident
        assert back.text("ko").title == "애크미"
        assert back.term_ids("component") == ("gpu-driver", "infiniband-fabric")

    def test_a_model_of_another_taxonomy_survives_too(self):
        region = Facet("region", "지역", "Region", "", "", (), single=True, required=False)
        model = incident_model(Taxonomy((*TAX.facets, region)))
        meta = model.model_validate(values(region="eu"))
        back = pickle.loads(pickle.dumps(meta))
        assert type(back) is model
        assert back.region == "eu"
        assert back == meta


class TestSplitSections:
    def test_headings_split_the_body(self):
        body = "Intro line\n\n## Symptoms\n\nJobs stopped.\n\n## Trigger\nA driver update.\n"
        preamble, parts = split_sections(body, first_line=10)
        assert preamble == "Intro line"
        assert parts == [
            (Heading("Symptoms", 12), "Jobs stopped."),
            (Heading("Trigger", 16), "A driver update."),
        ]

    @pytest.mark.parametrize(
        ("line", "text"),
        [
            ("## Symptoms", "Symptoms"),
            ("##\tSymptoms", "Symptoms"),
            ("## Symptoms ##", "Symptoms"),
            ("## Symptoms   ", "Symptoms"),
            ("##   Follow-ups", "Follow-ups"),
            ("## C#", "C"),
            ("## #", "#"),
            ("##  ", ""),
        ],
    )
    def test_level_two_headings(self, line, text):
        _, parts = split_sections(f"{line}\nbody", 1)
        assert [h.text for h, _ in parts] == [text]

    @pytest.mark.parametrize(
        "line", ["### Sub", "##Symptoms", "# Title", " ## Indented", "text ## x", "## "]
    )
    def test_not_level_two_headings(self, line):
        preamble, parts = split_sections(f"{line}\nbody", 1)
        assert parts == []
        assert preamble == f"{line}\nbody".strip()

    def test_headings_inside_fences_are_text(self):
        body = "## Actions\n```sh\n## not a heading\n```\n~~~\n## nor this\n~~~\n## Lessons\nx"
        _, parts = split_sections(body, 1)
        assert [h.text for h, _ in parts] == ["Actions", "Lessons"]
        assert "## not a heading" in parts[0][1]
        assert "## nor this" in parts[0][1]

    def test_a_fence_closes_only_with_its_own_marker(self):
        body = "## Actions\n```\n~~~\n## still code\n~~~\n```\n## Lessons\nx"
        _, parts = split_sections(body, 1)
        assert [h.text for h, _ in parts] == ["Actions", "Lessons"]

    def test_fences_indented_up_to_three_spaces(self):
        body = "## Actions\n   ```\n## code\n   ```\n## Lessons\n    ```\n## Follow-ups\nx"
        _, parts = split_sections(body, 1)
        # four spaces make an indented line, not a fence: the heading after it counts
        assert [h.text for h, _ in parts] == ["Actions", "Lessons", "Follow-ups"]

    def test_an_unclosed_fence_runs_to_the_end(self):
        _, parts = split_sections("## Actions\n```\n## Lessons\n", 1)
        assert [h.text for h, _ in parts] == ["Actions"]

    def test_a_long_run_of_blanks_is_fast(self):
        body = "##" + " " * 200_000 + "x\n" + ("#" + " " * 1000 + "\n") * 200
        _, parts = split_sections(body, 1)
        assert [h.text for h, _ in parts] == ["x"]


class TestIncident:
    def make(self, *langs: str) -> Incident:
        meta = MODEL.model_validate(values(lang=langs[0]))
        texts = tuple(case_text(lang, f"title {lang}") for lang in langs)
        return Incident(meta, "incidents/acme-gpu-outage.md", texts)

    def test_text_in_the_language_asked_for(self):
        incident = self.make("en", "ko")
        assert incident.text("ko").title == "title ko"
        assert incident.text("en").title == "title en"
        assert incident.has_language("ko")

    def test_text_falls_back_to_the_original(self):
        incident = self.make("en")
        assert not incident.has_language("ko")
        assert incident.text("ko") is incident.original
        assert incident.text("ko").lang == "en"

    def test_the_original_is_the_first_text(self):
        incident = self.make("ko", "en")
        assert incident.original.lang == "ko"
        assert incident.id == "acme-gpu-outage"

    def test_section_text(self):
        text = self.make("en").original
        assert text.section("trigger") == "trigger in en"
        assert text.section("nope") == ""

    def test_term_ids_of_single_list_and_absent_facets(self):
        incident = self.make("en")
        assert incident.term_ids("organization") == ("acme",)
        assert incident.term_ids("component") == ("gpu-driver", "infiniband-fabric")
        assert incident.term_ids("contributing_factor") == ()
        assert incident.term_ids("not_a_facet") == ()

    def test_section_headings_in_both_languages(self):
        for lang in ("ko", "en"):
            assert tuple(SECTION_HEADINGS[lang]) == SECTIONS
        assert SECTION_HEADINGS["en"]["follow_ups"] == "Follow-ups"
