"""Build a fixture site with MkDocs in a temporary folder (shared by the site and browser tests)."""

from __future__ import annotations

import shutil
from pathlib import Path

from conftest import REPO, TAXONOMY, Project

FIXTURE_CASES = 23  # more than one page of 20
CHECKER = ("cluster-check", "https://checker.example.org/")
CHECKER_UNSET = 'name: ""\n    url: ""'
REPOSITORY = "https://git.example.org/incident-library"


def write_fixture_library(project: Project) -> None:
    """23 incidents of Acme and Globex, one of them without a Korean translation."""
    project.write("taxonomy.yml", TAXONOMY)
    for folder in ("overrides", "docs"):
        shutil.copytree(REPO / folder, project.root / folder, dirs_exist_ok=True)
    # The repository's settings, with a checker and a repository to link (the repository's own
    # mkdocs.yml leaves both empty until they exist).
    settings = (REPO / "mkdocs.yml").read_text(encoding="utf-8")
    for empty, filled in (
        (CHECKER_UNSET, f'name: "{CHECKER[0]}"\n    url: "{CHECKER[1]}"'),
        ('repository: !ENV [REPOSITORY_URL, ""]', f'repository: "{REPOSITORY}"'),
    ):
        assert empty in settings, f"mkdocs.yml no longer has {empty!r}"
        settings = settings.replace(empty, filled)
    project.write("mkdocs.yml", settings)
    for n in range(1, FIXTURE_CASES):
        project.add_incident(
            f"acme-gpu-outage-{n:02d}",
            occurred=f"2023-{(n % 12) + 1:02d}-{n:02d}",
            url=f"https://reports.acme.dev/acme/{n}",
            cause="[gpu-failure]" if n % 2 else "[faulty-change]",
            component="[gpu-driver, infiniband-fabric]" if n % 3 else "[etcd]",
        )
    project.add_incident(
        "globex-etcd-outage",
        title="Globex: etcd loses quorum",
        organization="globex",
        domain="[kubernetes]",
        symptom="[service-outage]",
        cause="[faulty-change]",
        component="[etcd]",
        contributing_factor="[missing-safeguard]",
        occurred="2024-03-30",
        url="https://reports.acme.dev/globex",
        translate=False,
    )


def build_fixture_site(root: Path) -> Path:
    from mkdocs.commands.build import build
    from mkdocs.config import load_config

    config = load_config(str(root / "mkdocs.yml"))
    build(config)
    return root / "site"
