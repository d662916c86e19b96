"""A mistake in a check's data is reported where it is, every mistake at once, as incidents'
mistakes are."""

from __future__ import annotations

import shutil
import textwrap

from conftest import REPO

from generator.audit.catalogue import load_checks
from generator.load.project import ProjectPaths, load_taxonomy

GOOD = "statefulset-on-delete"


def _project(tmp_path, text: str, examples=("fires", "passes")):
    folder = tmp_path / "checks" / GOOD
    folder.mkdir(parents=True)
    (folder / "check.yml").write_text(textwrap.dedent(text))
    for name in examples:
        shutil.copy(REPO / "checks" / GOOD / f"{name}.yaml", folder / f"{name}.yaml")
    taxonomy, _ = load_taxonomy(ProjectPaths.at(REPO))
    ids = frozenset({"kubernetes-boskos-statefulset-stale-pod-node-upgrade-outage"})
    return load_checks(tmp_path, taxonomy, ids)


def test_the_repositorys_checks_are_valid(checker):
    assert checker.catalogue.diagnostics == ()


def test_each_mistake_is_reported_at_its_line_with_a_suggestion(tmp_path):
    catalogue = _project(
        tmp_path,
        """\
        id: statefulset-on-delete
        severity: hihg
        scope: object
        title: {ko: 제목, en: Title}
        why: {ko: 이유, en: Why}
        fix: {ko: 고치기}
        finding: {ko: "{workload}이(가) 멈춥니다.", en: "{workload} stops at {place}."}
        terms:
          component: [kube-schedular]
        incidents: [kubernetes-boskos-statefulset-stale-pod-node-upgrade]
        colour: red
        """,
        examples=("fires",),
    )
    assert catalogue.checks == ()
    assert [d.format() for d in catalogue.diagnostics] == [
        "checks/statefulset-on-delete/check.yml:1:5: id: missing passes.yaml: a manifest the check must not flag",
        "checks/statefulset-on-delete/check.yml:2:11: severity: one of high, medium, low (did you mean 'high'?)",
        "checks/statefulset-on-delete/check.yml:6:6: fix.en: missing the en text",
        "checks/statefulset-on-delete/check.yml:7:10: finding: both languages must name the same values (ko: workload; en: place, workload)",
        "checks/statefulset-on-delete/check.yml:9:15: terms.component[0]: unknown component term 'kube-schedular' (did you mean 'kube-scheduler'?)",
        "checks/statefulset-on-delete/check.yml:10:13: incidents[0]: no incident 'kubernetes-boskos-statefulset-stale-pod-node-upgrade' (did you mean 'kubernetes-boskos-statefulset-stale-pod-node-upgrade-outage'?)",
        "checks/statefulset-on-delete/check.yml:11:1: colour: unknown field 'colour'",
    ]


def test_a_check_without_a_rule_is_an_error(tmp_path):
    text = (REPO / "checks" / GOOD / "check.yml").read_text()
    folder = tmp_path / "checks" / "no-such-rule"
    folder.mkdir(parents=True)
    (folder / "check.yml").write_text(text.replace(f"id: {GOOD}", "id: no-such-rule"))
    taxonomy, _ = load_taxonomy(ProjectPaths.at(REPO))
    ids = frozenset({"kubernetes-boskos-statefulset-stale-pod-node-upgrade-outage"})
    found = [d.format() for d in load_checks(tmp_path, taxonomy, ids).diagnostics]
    assert (
        "checks/no-such-rule/check.yml:1:5: id: no rule implements this check "
        "(generator/audit/rules/)"
    ) in found


def test_incidents_check_reports_the_checks_problems(tmp_path):
    """`incidents check` of the whole project judges the checks too."""
    from click.testing import CliRunner

    from generator.cli import main

    project = tmp_path / "project"
    shutil.copytree(REPO / "incidents", project / "incidents")
    shutil.copy(REPO / "taxonomy.yml", project / "taxonomy.yml")
    shutil.copytree(REPO / "checks", project / "checks")
    check = project / "checks" / GOOD / "check.yml"
    check.write_text(check.read_text().replace("scope: object", "scope: objekt"))
    result = CliRunner().invoke(main, ["check", "--root", str(project), "--no-cache"])
    assert result.exit_code == 1
    assert (
        "checks/statefulset-on-delete/check.yml:3:8: scope: one of object, cluster "
        "(did you mean 'object'?)" in result.output
    )
