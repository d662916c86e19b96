"""docs/AUDIT.md says what the checks are: its table lists every check with the cases it cites,
and its ClusterRole is the one `incidents audit --print-cluster-role` prints."""

from __future__ import annotations

import re

import yaml
from conftest import REPO

from generator.audit.live import cluster_role

DOC = (REPO / "docs" / "AUDIT.md").read_text(encoding="utf-8")


def test_the_table_lists_every_check_with_its_severity_scope_and_cases(checker):
    rows = re.findall(r"^\| `([a-z0-9-]+)` \| (\w+) \| (\w+) \| (.+) \|$", DOC, re.M)
    listed = {r[0]: (r[1], r[2], tuple(re.findall(r"`([a-z0-9-]+)`", r[3]))) for r in rows}
    assert listed == {c.id: (c.severity, c.scope, c.incidents) for c in checker.catalogue.checks}
    cited = {i for c in checker.catalogue.checks for i in c.incidents}
    assert f"{len(listed)} checks, drawn from {len(cited)} of the library's cases" in DOC


def test_the_cluster_role_is_the_one_the_reader_needs():
    block = DOC.split("```yaml\n", 1)[1].split("```", 1)[0]
    assert yaml.safe_load(block) == cluster_role()
