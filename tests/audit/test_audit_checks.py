"""Every check flags the manifest it must flag and passes the one it must pass, and its data
(both languages, terms, cited incidents) holds together."""

from __future__ import annotations

import re

import pytest
from conftest import REPO

from generator.audit.catalogue import CHECKS_FOLDER, placeholders
from generator.audit.cluster import Cluster
from generator.audit.engine import audit
from generator.audit.manifests import read_manifests
from generator.audit.rules import rules
from generator.languages import LANGS

CHECK_IDS = sorted(p.name for p in (REPO / CHECKS_FOLDER).iterdir() if p.is_dir())


def _audit(checker, check_id: str, example: str):
    check = checker.catalogue.check(check_id)
    read = read_manifests([REPO / CHECKS_FOLDER / check_id / f"{example}.yaml"])
    assert not read.problems
    return audit([check], Cluster(read.resources, whole=True))


@pytest.mark.parametrize("check_id", CHECK_IDS)
def test_the_manifest_that_must_fire_is_flagged_where_the_problem_is(checker, check_id):
    outcome = _audit(checker, check_id, "fires")
    assert outcome.findings, f"{check_id}: fires.yaml raised nothing"
    for finding in outcome.findings:
        path, line = finding.location
        assert path.endswith(f"{check_id}/fires.yaml")
        lines = (REPO / CHECKS_FOLDER / check_id / "fires.yaml").read_text().splitlines()
        assert 1 <= line <= len(lines) and not lines[line - 1].startswith("#")
        for lang in LANGS:
            message = finding.message(lang)
            assert "{" not in message and "()" not in message, message
            # Every value the sentence names was given by the rule.
            assert set(placeholders(finding.check.text("finding", lang))) <= set(finding.values)
            if lang == "ko":
                assert not re.search(r"\(가\)|\(를\)|\(는\)|\(과\)|\(으\)", message), message


@pytest.mark.parametrize("check_id", CHECK_IDS)
def test_the_manifest_that_must_pass_is_not_flagged(checker, check_id):
    assert _audit(checker, check_id, "passes").findings == ()


def test_every_rule_has_its_reviewed_check_and_every_check_a_rule(checker):
    assert sorted(rules()) == sorted(c.id for c in checker.catalogue.checks) == CHECK_IDS


def test_the_checks_cover_the_librarys_cases():
    """At least 20 checks drawn from at least 15 of the library's incidents."""
    from generator.audit.runner import Checker

    catalogue = Checker.of_project(REPO).catalogue
    cited = {i for c in catalogue.checks for i in c.incidents}
    assert len(catalogue.checks) >= 20 and len(cited) >= 15


def test_cluster_wide_checks_do_not_run_on_a_partial_input(checker):
    """A check that looks for something missing cannot judge a few manifests."""
    check = checker.catalogue.check("gpu-metrics-exporter-missing")
    read = read_manifests([REPO / CHECKS_FOLDER / check.id / "fires.yaml"])
    outcome = audit([check], Cluster(read.resources, whole=False))
    assert outcome.findings == () and outcome.not_run == (check,)
