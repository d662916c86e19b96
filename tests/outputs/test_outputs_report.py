"""What `incidents status` and `incidents stats` print (generator/outputs/report.py):
`status_lines` (translation coverage per language, terms no incident uses), `stats_rows` (every
term with its count, most used first within its facet) and `stats_lines` (the same as text).
Incidents are made in memory."""

from __future__ import annotations

from conftest import TAXONOMY

from generator.load.front_matter import parse_yaml
from generator.load.taxonomy import build_taxonomy
from generator.model.incident import SECTIONS, CaseText, Incident, Section, incident_model
from generator.model.library import build_library
from generator.outputs.report import stats_lines, stats_rows, status_lines

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
            "title": "T",
            "summary": "S",
            "lang": langs[0],
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
    texts = tuple(CaseText(lang, "T", "S", sections, "x.md") for lang in langs)
    return Incident(meta, f"incidents/{incident_id}.md", texts)


LIBRARY = build_library(
    TAX,
    [
        make("a", "2024-01", component=("gpu-driver", "infiniband-fabric")),
        make("b", "2024-02", langs=("en",), organization="globex", cause=("faulty-change",)),
        make("c", "2024-03", langs=("ko",), component=("infiniband-fabric",)),
        make("d", "2024-04", langs=("en",), domain=("kubernetes", "ai-infra")),
    ],
)


class TestStatus:
    def test_coverage_and_unused_terms(self):
        assert status_lines(LIBRARY) == [
            "incidents: 4",
            "Korean text: 2/4 (50%)",
            "  missing: d",  # in library order, newest first
            "  missing: b",
            "English text: 3/4 (75%)",
            "  missing: c",
            "terms without incidents: 5",
            "  symptom: service-outage (Service outage / 서비스 중단)",
            "  cause: hardware-failure (Hardware failure / 하드웨어 고장)",
            "  component: etcd (etcd / etcd)",
            "  contributing_factor: unverified-assumption (Unverified assumption / 미검증 가정)",
            "  contributing_factor: missing-safeguard (Missing safeguard / 안전장치 부재)",
        ]

    def test_a_fully_translated_library(self):
        library = build_library(
            TAX, [make("a", "2024-01"), make("b", "2024-02", langs=("ko", "en"))]
        )
        lines = status_lines(library)
        assert lines[:3] == ["incidents: 2", "Korean text: 2/2 (100%)", "English text: 2/2 (100%)"]

    def test_an_empty_library(self):
        lines = status_lines(build_library(TAX, []))
        assert lines[:3] == ["incidents: 0", "Korean text: 0/0 (n/a)", "English text: 0/0 (n/a)"]
        assert lines[3] == "terms without incidents: 14"
        assert len(lines) == 4 + 14


class TestStats:
    def test_rows_most_used_first_within_each_facet(self):
        rows = stats_rows(LIBRARY)
        assert len(rows) == 14
        assert [r[0] for r in rows] == [f.id for f in TAX.facets for _ in f.terms]
        assert rows[:4] == [
            ("domain", "ai-infra", "AI infrastructure", "AI 인프라", 4),
            ("domain", "kubernetes", "Kubernetes", "Kubernetes", 1),
            ("organization", "acme", "Acme", "애크미", 3),
            ("organization", "globex", "Globex", "글로벡스", 1),
        ]
        cause = [(r[1], r[4]) for r in rows if r[0] == "cause"]
        assert cause == [("gpu-failure", 3), ("faulty-change", 1), ("hardware-failure", 0)]

    def test_ties_by_id(self):
        factors = [r[1] for r in stats_rows(LIBRARY) if r[0] == "contributing_factor"]
        assert factors == ["missing-safeguard", "unverified-assumption"]  # declared the other way

    def test_lines(self):
        lines = stats_lines(LIBRARY)
        assert lines[:3] == [
            "domain (2/2 terms used)",
            "      4  ai-infra               AI infrastructure / AI 인프라",
            "      1  kubernetes             Kubernetes / Kubernetes",
        ]
        assert "cause (2/3 terms used)" in lines
        assert "contributing_factor (0/2 terms used)" in lines
        assert lines[-1] == "      0  unverified-assumption  Unverified assumption / 미검증 가정"
        assert len(lines) == 6 + 14

    def test_the_id_column_is_as_wide_as_the_longest_id(self):
        lines = [line for line in stats_lines(LIBRARY) if line.startswith("  ")]
        rows = stats_rows(LIBRARY)
        starts = set()
        for line, row in zip(lines, rows, strict=True):
            labels = f"{row[2]} / {row[3]}"
            assert line.endswith("  " + labels)
            starts.add(len(line) - len(labels))
        assert starts == {9 + len("unverified-assumption") + 2}  # one column for every label
