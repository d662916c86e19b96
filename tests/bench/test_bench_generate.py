"""The benchmark's corpus generator follows any taxonomy: contributors never edit bench data."""

from __future__ import annotations

import sys
from datetime import date

from conftest import REPO

from generator.load.project import ProjectPaths
from generator.pipeline.check import check_project

sys.path.append(str(REPO / "bench"))  # after site-packages: bench/mcp.py is no `mcp`
import generate  # noqa: E402

NEW_TERMS = {
    "  - id: organization\n": """      - id: quux-labs
        label: {ko: Quux Labs, en: Quux Labs}
        description: {ko: 가상의 연구소., en: A made-up laboratory.}
        aliases: {ko: [퀵스 랩스], en: [QL]}
""",
    "  - id: symptom\n": """      - id: checkpoint-corruption
        label: {ko: 체크포인트 손상, en: Checkpoint corruption}
        description: {ko: 체크포인트를 읽을 수 없었다., en: A checkpoint could not be read.}
""",
}


def test_a_new_organization_and_term_need_no_benchmark_data(tmp_path, monkeypatch):
    """A term or organization added to taxonomy.yml, with no entry in bench/phrases.yml (and
    a name whose Korean reading nobody taught it), still gives a corpus that passes the check."""
    text = (REPO / "taxonomy.yml").read_text(encoding="utf-8")
    for facet_line, term in NEW_TERMS.items():
        start = text.index(facet_line)
        following = text.find("\n  - id: ", start + len(facet_line))
        end = following + 1 if following != -1 else len(text)
        text = text[:end].rstrip("\n") + "\n" + term + "\n" + text[end:]
    taxonomy = tmp_path / "taxonomy.yml"
    taxonomy.write_text(text, encoding="utf-8")
    monkeypatch.setattr(generate, "TAXONOMY", taxonomy)
    for cached in (generate.taxonomy, generate.taxonomy_terms, generate.facet_labels):
        cached.cache_clear()
    try:
        root = generate.write_project(200, tmp_path / "corpus", seed=7)
        checked = check_project(ProjectPaths.at(root), date(2026, 11, 30))
    finally:
        for cached in (generate.taxonomy, generate.taxonomy_terms, generate.facet_labels):
            cached.cache_clear()
    assert [d.format() for d in checked.diagnostics] == []
    used = {i.meta.organization for i in checked.result.incidents}
    symptoms = {s for i in checked.result.incidents for s in i.meta.symptom}
    assert "quux-labs" in used and "checkpoint-corruption" in symptoms


def test_every_summary_fits_the_limit_at_the_benchmarks_largest_size():
    """At N = 10,000 three drawn templates, filled with long names, would run past the summary
    limit and fail `check --strict`; the generator takes the next template that fits. Those
    three incidents (numbers 2892, 3820 and 4304 with seed 1) are made here."""
    from generator.validate.review import SUMMARY_LIMIT

    for number in (2892, 3820, 4304):
        incident = generate.make_incident(number - 1, 1, set())
        assert incident.id.endswith(f"-{number:05d}")
        assert max(len(text) for text in incident.summaries.values()) <= SUMMARY_LIMIT


def test_the_memory_script_watches_stages_the_build_has():
    """bench/memory.py wraps the build's stages by name: a renamed stage broke it unnoticed."""
    import memory

    import generator.pipeline.site as site

    missing = [name for name in memory.STAGES if not callable(getattr(site, name, None))]
    assert missing == []
