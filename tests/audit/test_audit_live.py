"""The live path, end to end through the official `kubernetes` client, against API responses
served from this machine.

No Kubernetes cluster can run on the machines that run these tests (no kube-apiserver is
packaged for them), so the responses in live/responses.json are written in the API server's
format by hand, and a small HTTP server on 127.0.0.1 answers the client with them. What this
proves: the client is configured from a kubeconfig and context, every request is a GET of a
collection with pages followed to the end, built-in collections missing from the recording
answer empty, custom resources answer 404 (not installed) and are skipped, a 403 is reported
and the audit goes on. What it cannot prove: that a real API server of a given version answers
exactly so.
"""

from __future__ import annotations

import json
import threading
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path

import pytest
import yaml
from click.testing import CliRunner
from conftest import REPO

from generator.audit.live import LISTED, cluster_role, kubernetes_get, read_cluster
from generator.cli import main

RECORDED = json.loads((Path(__file__).parent / "live" / "responses.json").read_text())
BUILT_IN = ("/api/v1/", "/apis/apps/", "/apis/batch/", "/apis/policy/", "/apis/autoscaling/v2/",
            "/apis/admissionregistration.k8s.io/", "/apis/rbac.authorization.k8s.io/",
            "/apis/flowcontrol.apiserver.k8s.io/")  # fmt: skip
TOKEN = "recorded-token"


@pytest.fixture
def api_server():
    seen: list[tuple[str, str, str]] = []

    class Handler(BaseHTTPRequestHandler):
        def do_GET(self):  # noqa: N802 - http.server's name
            seen.append(("GET", self.path, self.headers.get("Authorization", "")))
            if self.headers.get("Authorization") != f"Bearer {TOKEN}":
                self._answer(401, {"kind": "Status", "message": "Unauthorized"})
            elif self.path in RECORDED["responses"]:
                self._answer(*RECORDED["responses"][self.path])
            elif self.path.startswith(BUILT_IN):
                self._answer(200, {"kind": "List", "metadata": {}, "items": []})
            else:
                self._answer(404, {"kind": "Status", "reason": "NotFound", "code": 404})

        def _refuse(self):
            seen.append((self.command, self.path, ""))
            self._answer(405, {})

        do_POST = do_PUT = do_PATCH = do_DELETE = _refuse  # noqa: N815

        def _answer(self, status, body):
            data = json.dumps(body).encode()
            self.send_response(status)
            self.send_header("Content-Type", "application/json")
            self.send_header("Content-Length", str(len(data)))
            self.end_headers()
            self.wfile.write(data)

        def log_message(self, *args):
            pass

    server = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    yield f"http://127.0.0.1:{server.server_address[1]}", seen
    server.shutdown()
    server.server_close()


@pytest.fixture
def kubeconfig(api_server, tmp_path, monkeypatch):
    address, _ = api_server
    config = {
        "apiVersion": "v1",
        "kind": "Config",
        "clusters": [{"name": "recorded", "cluster": {"server": address}}],
        "users": [{"name": "auditor", "user": {"token": TOKEN}}],
        "contexts": [
            {"name": "recorded", "context": {"cluster": "recorded", "user": "auditor"}},
            {"name": "other", "context": {"cluster": "recorded", "user": "nobody"}},
        ],
        "current-context": "other",
    }
    path = tmp_path / "kubeconfig"
    path.write_text(yaml.safe_dump(config))
    monkeypatch.setenv("KUBECONFIG", str(path))
    return path


def test_the_client_lists_every_collection_with_gets_only(api_server, kubeconfig):
    _, seen = api_server
    read = read_cluster(kubernetes_get("recorded"))
    kinds = sorted({r.kind for r in read.resources})
    assert kinds == ["Deployment", "Namespace", "Node", "Pod", "ValidatingWebhookConfiguration"]
    # Both pages of Deployments, each object with the kind its list left out.
    assert [r.name for r in read.resources if r.kind == "Deployment"] == ["coredns", "web"]
    assert {method for method, _, _ in seen} == {"GET"}
    assert all(auth == f"Bearer {TOKEN}" for _, _, auth in seen)
    assert all("limit=500" in path for _, path, _ in seen)
    assert len(seen) == len(LISTED) + 1  # one collection had a second page
    assert read.refused == (
        "/apis/flowcontrol.apiserver.k8s.io/v1/flowschemas: flowschemas.flowcontrol.apiserver."
        'k8s.io is forbidden: User "auditor" cannot list resource "flowschemas" in API group '
        '"flowcontrol.apiserver.k8s.io" at the cluster scope',
    )
    assert "/apis/kubeflow.org/v1/pytorchjobs" in read.skipped


def test_audit_live_finds_what_the_cluster_has(api_server, kubeconfig):
    result = CliRunner().invoke(
        main,
        ["audit", "--root", str(REPO), "--live", "--context", "recorded", "--format", "json"],
    )
    found = {(f["check"], f["object"]["name"]) for f in json.loads(result.stdout)["findings"]}
    # The live cluster is whole: cluster-wide checks run; a ReplicaSet's pod is not judged
    # apart from its Deployment; the static etcd pod is.
    assert found == {
        ("webhook-fail-closed-system-namespaces", "opa-validating-webhook"),
        ("webhook-matches-everything", "opa-validating-webhook"),
        ("etcd-default-space-quota", "etcd-cp-1"),
        ("cluster-dns-not-autoscaled", "coredns"),
        ("no-disruption-budget", "web"),
        ("no-disruption-budget", "coredns"),
        ("image-pull-always", "web"),
        ("node-disk-smaller-than-peers", "worker-2"),
    }
    finding = json.loads(result.stdout)["findings"][0]
    assert finding["file"] is None and finding["line"] is None
    assert "cannot list /apis/flowcontrol.apiserver.k8s.io/v1/flowschemas" in result.stderr
    assert result.exit_code == 2  # the cluster could not be read whole


def test_live_sarif_names_objects_as_logical_locations(api_server, kubeconfig):
    import jsonschema

    result = CliRunner().invoke(
        main, ["audit", "--root", str(REPO), "--live", "--context", "recorded", "--format", "sarif"]
    )
    log = json.loads(result.stdout)
    schema = json.loads((Path(__file__).parent / "sarif-schema-2.1.0.json").read_text())
    jsonschema.Draft4Validator(schema).validate(log)
    where = log["runs"][0]["results"][0]["locations"][0]
    assert where["logicalLocations"][0]["kind"] == "resource"


def test_no_cluster_is_a_clear_error(tmp_path, monkeypatch):
    monkeypatch.setenv("KUBECONFIG", str(tmp_path / "missing"))
    monkeypatch.delenv("KUBERNETES_SERVICE_HOST", raising=False)
    result = CliRunner().invoke(main, ["audit", "--root", str(REPO), "--live"])
    assert result.exit_code == 2
    assert result.stderr.startswith("incidents audit: no usable kubeconfig")


def test_the_cluster_role_grants_list_on_exactly_what_is_listed():
    role = cluster_role()
    granted = {
        (g, r) for rule in role["rules"] for g in rule["apiGroups"] for r in rule["resources"]
    }
    assert granted == {(item.group, item.plural) for item in LISTED}
    assert {v for rule in role["rules"] for v in rule["verbs"]} == {"list"}


def test_every_kind_the_examples_use_is_listed_live():
    """What a check reads in a manifest it must also be able to read from a cluster (except
    configuration files that are no API objects)."""
    files_only = {"KubeletConfiguration", "DeschedulerPolicy", "List"}
    listed = {item.kind for item in LISTED}
    used = set()
    for example in (REPO / "checks").glob("*/*.yaml"):
        for document in yaml.safe_load_all(example.read_text()):
            used |= {document["kind"]} | {i["kind"] for i in document.get("items", [])}
    assert used - files_only - listed == {"ServiceAccount"}  # read by no rule
