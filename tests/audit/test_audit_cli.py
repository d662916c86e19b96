"""`incidents audit` on folders of manifests: text grouped by severity, JSON, SARIF 2.1.0 that
validates against the standard's schema, and exit codes CI can use.

The schema (sarif-schema-2.1.0.json beside this file) is OASIS's, copied unchanged from
github.com/oasis-tcs/sarif-spec at commit e0583813964ec43cea53b6b531b402866095ed1f, path
sarif-2.1/schema/sarif-schema-2.1.0.json.
"""

from __future__ import annotations

import json
import shutil
from pathlib import Path

import jsonschema
import pytest
from click.testing import CliRunner
from conftest import REPO

from generator.cli import main

SCHEMA = json.loads((Path(__file__).parent / "sarif-schema-2.1.0.json").read_text())
EXAMPLES = ["etcd-default-space-quota", "job-without-limits", "cpu-request-missing"]


@pytest.fixture
def manifests(tmp_path, monkeypatch) -> Path:
    """A folder of three manifests (one high, one medium, one low finding), the working
    directory, so paths are relative as in a repository's CI."""
    folder = tmp_path / "deploy"
    folder.mkdir()
    for check_id in EXAMPLES:
        shutil.copy(REPO / "checks" / check_id / "fires.yaml", folder / f"{check_id}.yaml")
    monkeypatch.chdir(tmp_path)
    return Path("deploy")


def _audit(*args: str):
    return CliRunner().invoke(main, ["audit", "--root", str(REPO), *args])


ONLY = [word for check_id in EXAMPLES for word in ("--check", check_id)]


def test_text_is_grouped_by_severity_with_fix_and_cases(manifests):
    result = _audit(str(manifests), *ONLY, "--site-url", "https://incidents.example.org/")
    assert result.exit_code == 1  # a high finding, and --fail-on high by default
    out = result.output
    assert out.index("== High (1)") < out.index("== Medium (1)") < out.index("== Low (1)")
    assert (
        "deploy/etcd-default-space-quota.yaml:11: etcd-default-space-quota: etcd running with its "
        "default 2 GiB space quota\n  etcd in Pod kube-system/etcd-control-plane-1 runs without "
        "--quota-backend-bytes, so its quota is the default 2 GiB.\n  Fix: Give etcd a "
        "`--quota-backend-bytes` sized for its disk and data"
    ) in out
    assert (
        "  Cases: OpenAI: etcd, API server, DNS, image-pull and ARP failures while growing a "
        "research Kubernetes cluster to 2,500 nodes <https://incidents.example.org/en/cases/"
        "openai-kubernetes-2500-node-scaling-breakages.html>"
    ) in out
    assert out.endswith("3 objects, 3 checks: 1 high, 1 medium, 1 low\n")


def test_checks_that_need_the_whole_cluster_say_they_did_not_run(manifests):
    out = _audit(str(manifests), "--fail-on", "never").output
    assert "3 objects, 24 checks: 1 high, 1 medium, 1 low" in out
    assert "5 checks that need the whole cluster did not run (" in out
    assert "add --whole-cluster if this is a complete dump." in out


def test_korean_report_names_cases_in_korean(manifests):
    out = _audit(str(manifests), "--lang", "ko", "--check", "etcd-default-space-quota").output
    assert "== 높음 (1)" in out and "  고칠 점: " in out
    assert "  근거 사례: OpenAI: " in out


@pytest.mark.parametrize(("fail_on", "code"), [("high", 1), ("medium", 1), ("never", 0)])
def test_fail_on_sets_the_exit_status(manifests, fail_on, code):
    result = _audit(str(manifests), "--check", "job-without-limits", "--fail-on", fail_on)
    assert result.exit_code == (0 if fail_on == "high" else code)


def test_json_lists_each_finding_with_its_object_place_and_cases(manifests):
    result = _audit(str(manifests), *ONLY, "--format", "json", "--fail-on", "never")
    data = json.loads(result.output)
    assert data["counts"] == {"high": 1, "medium": 1, "low": 1}
    first = data["findings"][0]
    assert first["check"] == "etcd-default-space-quota"
    assert first["object"] == {
        "kind": "Pod",
        "apiVersion": "v1",
        "namespace": "kube-system",
        "name": "etcd-control-plane-1",
    }
    assert (first["file"], first["line"]) == ("deploy/etcd-default-space-quota.yaml", 11)
    assert first["cases"][0]["id"] == "openai-kubernetes-2500-node-scaling-breakages"


def test_sarif_is_valid_and_points_at_files_and_lines(manifests):
    result = _audit(
        str(manifests), *ONLY, "--format", "sarif", "--site-url", "https://x.example.org/"
    )
    log = json.loads(result.output)
    jsonschema.Draft4Validator(SCHEMA).validate(log)
    run = log["runs"][0]
    levels = sorted(r["level"] for r in run["results"])
    assert levels == ["error", "note", "warning"]
    first = run["results"][0]
    assert first["locations"][0]["physicalLocation"] == {
        "artifactLocation": {"uri": "deploy/etcd-default-space-quota.yaml"},
        "region": {"startLine": 11},
    }
    rule = run["tool"]["driver"]["rules"][first["ruleIndex"]]
    assert rule["id"] == first["ruleId"] == "etcd-default-space-quota"
    assert rule["helpUri"] == "https://x.example.org/en/checks/etcd-default-space-quota.html"


def test_sarif_of_a_clean_input_is_valid_too(tmp_path):
    (tmp_path / "ok.yaml").write_text(
        (REPO / "checks/statefulset-on-delete/passes.yaml").read_text()
    )
    result = _audit(
        str(tmp_path / "ok.yaml"), "--format", "sarif", "--check", "statefulset-on-delete"
    )
    assert result.exit_code == 0
    log = json.loads(result.output)
    jsonschema.Draft4Validator(SCHEMA).validate(log)
    assert log["runs"][0]["results"] == []


def test_unreadable_input_exits_2_and_says_where(tmp_path):
    (tmp_path / "bad.yaml").write_text("kind: [\n")
    result = _audit(str(tmp_path / "bad.yaml"))
    assert result.exit_code == 2
    assert f"{tmp_path}/bad.yaml:2: invalid YAML" in result.stderr


def test_usage_errors_and_unknown_checks(tmp_path):
    assert "name manifests (files, folders or -) or pass --live" in _audit().output
    result = _audit(str(tmp_path), "--check", "no-such-check")
    assert result.exit_code == 2
    assert "no check no-such-check; 'incidents audit --list' shows them" in result.stderr


def test_list_and_the_cluster_role(manifests):
    listed = _audit("--list").output.splitlines()
    assert len(listed) == 29 and listed[0].split()[1] == "high"
    role = _audit("--print-cluster-role").output
    assert "kind: ClusterRole" in role and "- list" in role
    assert "secrets" not in role and "create" not in role


def test_standard_input(manifests):
    text = (REPO / "checks/statefulset-on-delete/fires.yaml").read_text()
    result = CliRunner().invoke(
        main, ["audit", "--root", str(REPO), "-", "--check", "statefulset-on-delete"], input=text
    )
    assert "<stdin>:8: statefulset-on-delete" in result.output
