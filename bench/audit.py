"""How `incidents audit` scales: a generated dump of N Kubernetes objects, read and audited.

    .venv/bin/python bench/audit.py                       # N = 5,000, 10,000 and 20,000
    .venv/bin/python bench/audit.py --sizes 2000,20000 --repeat 3

The dump is what `kubectl get ... -o yaml` of a large cluster gives, made from every check's
two example manifests (checks/<id>/fires.yaml and passes.yaml) copied into many namespaces with
new names, so every rule has work and about half the objects carry something to find. Each size
is written to one file in a temporary folder, then timed in three stages: reading the YAML,
running every check (cluster-wide ones too, as on a whole cluster), and writing the JSON report
(which finds each finding's line). Times are the process's CPU seconds, which a busy machine
disturbs less than the clock; the audit runs in one process. The last column gives the whole per
1,000 objects: flat figures across sizes mean the time grows linearly with the number of objects.
"""

from __future__ import annotations

import argparse
import copy
import itertools
import json
import sys
import tempfile
import time
from pathlib import Path

import yaml

REPO = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(REPO))

from generator.audit.cluster import Cluster  # noqa: E402
from generator.audit.manifests import read_manifests  # noqa: E402
from generator.audit.report import json_report  # noqa: E402
from generator.audit.runner import Checker  # noqa: E402


def templates() -> list[list[dict]]:
    """Each example manifest of each check, as its list of objects."""
    found = []
    for example in sorted((REPO / "checks").glob("*/*.yaml")):
        documents = [d for d in yaml.safe_load_all(example.read_text()) if d]
        objects = []
        for document in documents:
            objects.extend(document["items"] if document.get("kind") == "List" else [document])
        found.append(objects)
    return found


def dump(count: int) -> list[dict]:
    """`count` objects: the examples again and again, each copy in a namespace of its own."""
    out: list[dict] = []
    for n, objects in zip(itertools.count(), itertools.cycle(templates())):
        for obj in objects:
            if len(out) == count:
                return out
            item = copy.deepcopy(obj)
            meta = item.setdefault("metadata", {})
            meta["name"] = f"{meta.get('name', 'x')}-{n}"
            if meta.get("namespace") or item["kind"] not in ("Node", "ClusterRole"):
                meta["namespace"] = f"ns-{n}"
            out.append(item)
    return out


def measure(checker: Checker, count: int, folder: Path) -> dict:
    path = folder / f"dump-{count}.yaml"
    path.write_text(yaml.safe_dump_all(dump(count), sort_keys=False))
    started = time.process_time()
    read = read_manifests([path])
    loaded = time.process_time()
    outcome = checker.run(Cluster(read.resources, whole=True))
    audited = time.process_time()
    report = json_report(outcome, "en", checker.cases(), checker.check_urls())
    json.dumps(report)
    reported = time.process_time()
    return {
        "objects": len(read.resources),
        "findings": len(outcome.findings),
        "megabytes": path.stat().st_size / 1e6,
        "read": loaded - started,
        "audit": audited - loaded,
        "report": reported - audited,
    }


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--sizes", default="5000,10000,20000")
    parser.add_argument("--repeat", type=int, default=1, help="Runs per size; the best is kept.")
    args = parser.parse_args()
    checker = Checker.of_project(REPO)
    rows = []
    with tempfile.TemporaryDirectory() as folder:
        for count in (int(s) for s in args.sizes.split(",")):
            runs = [measure(checker, count, Path(folder)) for _ in range(args.repeat)]
            best = min(runs, key=lambda r: r["read"] + r["audit"] + r["report"])
            rows.append(best)
            print(f"measured {count:,} objects", file=sys.stderr)
    print(
        "| objects | file (MB) | findings | read (s) | audit (s) | report (s) "
        "| total per 1,000 (s) |"
    )
    print("|---:|---:|---:|---:|---:|---:|---:|")
    for r in rows:
        total = r["read"] + r["audit"] + r["report"]
        print(
            f"| {r['objects']:,} | {r['megabytes']:.1f} | {r['findings']:,} | {r['read']:.2f} "
            f"| {r['audit']:.2f} | {r['report']:.2f} | {total / r['objects'] * 1000:.3f} |"
        )


if __name__ == "__main__":
    main()
