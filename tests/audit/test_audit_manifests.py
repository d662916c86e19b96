"""Reading manifests as people have them: multi-document YAML, JSON, Lists, `helm template`
output; every object knows its file and the line of any of its values."""

from __future__ import annotations

import json
import textwrap

from generator.audit.cluster import Cluster
from generator.audit.manifests import read_manifests

HELM_OUTPUT = """\
---
# Source: web/templates/serviceaccount.yaml
apiVersion: v1
kind: ServiceAccount
metadata:
  name: web
---
# Source: web/templates/deployment.yaml
apiVersion: apps/v1
kind: Deployment
metadata:
  name: web
  namespace: shop
spec:
  replicas: 2
  template:
    spec:
      containers:
        - name: web
          image: example.org/web:1.0.0
        - name: sidecar
          image: example.org/sidecar
"""


def test_helm_template_output_gives_each_object_with_lines(tmp_path):
    (tmp_path / "out.yaml").write_text(HELM_OUTPUT)
    read = read_manifests([tmp_path / "out.yaml"])
    assert [r.ref for r in read.resources] == ["ServiceAccount web", "Deployment shop/web"]
    deployment = read.resources[1]
    containers = ("spec", "template", "spec", "containers")
    assert deployment.location((*containers, 1, "image")) == (str(tmp_path / "out.yaml"), 22)
    assert deployment.location(("spec", "replicas")) == (str(tmp_path / "out.yaml"), 15)
    # A path that goes past what exists points at the nearest value that does.
    assert deployment.location(("spec", "missing", "deeper"))[1] == 14


def test_kubectl_lists_json_and_folders(tmp_path):
    listed = {
        "apiVersion": "v1",
        "kind": "List",
        "items": [
            {"apiVersion": "v1", "kind": "Node", "metadata": {"name": "a"}},
            {"apiVersion": "v1", "kind": "Node", "metadata": {"name": "b"}},
        ],
    }
    (tmp_path / "nodes.json").write_text(json.dumps(listed, indent=2))
    (tmp_path / "sub").mkdir()
    (tmp_path / "sub" / "ns.yml").write_text(
        "apiVersion: v1\nkind: Namespace\nmetadata: {name: x}\n"
    )
    (tmp_path / ".hidden.yaml").write_text("apiVersion: v1\nkind: Namespace\nmetadata: {name: y}\n")
    (tmp_path / "values.yaml").write_text("replicaCount: 2\n")  # not a Kubernetes object
    read = read_manifests([tmp_path])
    assert [r.ref for r in read.resources] == ["Node a", "Node b", "Namespace x"]
    assert read.skipped == 1 and read.files == 3 and not read.problems
    assert read.resources[1].location(("metadata", "name"))[1] == 16  # "name": "b"


def test_bad_input_is_a_problem_with_its_line_never_an_exception(tmp_path):
    (tmp_path / "broken.yaml").write_text("apiVersion: v1\nkind: Pod\nmetadata:\n  name: [x\n")
    chart = "apiVersion: v1\nkind: Service\nmetadata:\n  name: {{ .Release.Name }}\n"
    (tmp_path / "template.yaml").write_text(chart)
    read = read_manifests([tmp_path / "broken.yaml", tmp_path / "template.yaml", tmp_path / "nope"])
    lines = [p.format() for p in read.problems]
    assert lines[0].startswith(f"{tmp_path}/broken.yaml:5: invalid YAML")
    assert lines[1].endswith("is this a Helm template? render it with `helm template` first")
    assert lines[2] == f"{tmp_path}/nope:0: no such file or folder"


def test_objects_a_controller_made_are_judged_through_their_controller(tmp_path):
    """A live cluster's ReplicaSets and Pods repeat their Deployment's template; static pods,
    owned by their Node, are the only copy there is."""
    text = textwrap.dedent(
        """\
        apiVersion: v1
        kind: Pod
        metadata:
          name: web-abc
          ownerReferences: [{kind: ReplicaSet, name: web-1, controller: true}]
        spec: {containers: [{name: web, image: x}]}
        ---
        apiVersion: v1
        kind: Pod
        metadata:
          name: etcd-node-1
          ownerReferences: [{kind: Node, name: node-1, controller: true}]
        spec: {containers: [{name: etcd, image: y}]}
        """
    )
    (tmp_path / "pods.yaml").write_text(text)
    cluster = Cluster(read_manifests([tmp_path]).resources)
    assert [t.owner.name for t in cluster.pod_templates] == ["etcd-node-1"]
