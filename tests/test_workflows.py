"""CI configuration: the GitHub workflows, the pre-commit hooks and scripts/library_diff.py.

The workflows are validated against the schemas bundled with check-jsonschema (no network), their
key steps are asserted, and library_diff.py is run for real against a throwaway git repository
built from copies of the library's files, so nothing here depends on this repository's history.
"""

from __future__ import annotations

import os
import re
import shutil
import subprocess
import sys
from collections import Counter
from pathlib import Path

import pytest
import yaml
from conftest import REPO

WORKFLOWS = REPO / ".github" / "workflows"
PULL_REQUEST = WORKFLOWS / "pull-request.yml"
DEPLOY = WORKFLOWS / "deploy.yml"
PRE_COMMIT = REPO / ".pre-commit-config.yaml"
LIBRARY_DIFF = REPO / "scripts" / "library_diff.py"
FACETS = tuple(
    f["id"] for f in yaml.safe_load((REPO / "taxonomy.yml").read_text(encoding="utf-8"))["facets"]
)
PINNED = {
    "actions/checkout@v4",
    "actions/setup-python@v5",
    "actions/upload-artifact@v4",
    "actions/configure-pages@v5",
    "actions/upload-pages-artifact@v3",
    "actions/deploy-pages@v4",
}


def check_jsonschema(schema: str, *files: Path) -> subprocess.CompletedProcess:
    return subprocess.run(
        [sys.executable, "-m", "check_jsonschema", "--builtin-schema", schema, *map(str, files)],
        capture_output=True,
        text=True,
        check=False,
    )


def load_workflow(path: Path) -> dict:
    data = yaml.safe_load(path.read_text(encoding="utf-8"))
    # YAML 1.1 reads the key `on` as True.
    data["on"] = data.pop(True, data.get("on"))
    return data


def steps(workflow: dict, job: str) -> list[dict]:
    return workflow["jobs"][job]["steps"]


def step_index(all_steps: list[dict], predicate) -> int:
    found = [i for i, step in enumerate(all_steps) if predicate(step)]
    assert found, "no such step"
    return found[0]


def runs(text: str):
    return lambda step: text in step.get("run", "")


def uses(action: str):
    return lambda step: step.get("uses", "").startswith(action + "@")


# --- Workflow files -----------------------------------------------------------------------------


@pytest.mark.parametrize("path", [PULL_REQUEST, DEPLOY], ids=lambda p: p.name)
@pytest.mark.parametrize(
    "schema", ["vendor.github-workflows", "custom.github-workflows-require-timeout"]
)
def test_workflow_is_valid_against_the_bundled_schema(path, schema):
    result = check_jsonschema(schema, path)
    assert result.returncode == 0, result.stdout + result.stderr


@pytest.mark.parametrize("path", [PULL_REQUEST, DEPLOY], ids=lambda p: p.name)
def test_workflow_pins_actions_by_major_version_and_reads_only_by_default(path):
    workflow = load_workflow(path)
    used = {
        step["uses"] for job in workflow["jobs"].values() for step in job["steps"] if "uses" in step
    }
    assert used <= PINNED, f"unexpected or unpinned actions: {sorted(used - PINNED)}"
    assert workflow["permissions"] == {"contents": "read"}


def test_pull_request_workflow_runs_on_library_and_code_changes():
    workflow = load_workflow(PULL_REQUEST)
    paths = set(workflow["on"]["pull_request"]["paths"])
    assert {
        "incidents/**",
        "taxonomy.yml",
        "generator/**",
        "docs/**",
        "overrides/**",
        "mkdocs.yml",
        "tests/**",
        "pyproject.toml",
        "requirements.lock",
    } <= paths
    assert workflow["concurrency"]["cancel-in-progress"] is True
    assert "github.event.pull_request.number" in workflow["concurrency"]["group"]
    for job in workflow["jobs"].values():
        assert "permissions" not in job  # the read-only default applies


def test_pull_request_workflow_checks_builds_tests_and_summarises():
    job = steps(load_workflow(PULL_REQUEST), "check")
    checkout = job[step_index(job, uses("actions/checkout"))]
    assert checkout["with"]["fetch-depth"] == 0  # the base branch is needed for the summary
    python = job[step_index(job, uses("actions/setup-python"))]
    assert python["with"]["python-version"] == "3.11"
    assert python["with"]["cache"] == "pip"

    install = step_index(job, runs("make .venv/.installed"))
    check = step_index(job, runs(".venv/bin/incidents check --strict --format github"))
    build = step_index(job, runs(".venv/bin/incidents build"))
    upload = step_index(job, uses("actions/upload-artifact"))
    test = step_index(job, runs("make test"))
    summary = step_index(job, runs("GITHUB_STEP_SUMMARY"))
    assert install < check < build < upload
    assert install < test
    # The summary comes before the check so that it is written even when the check fails.
    assert install < summary < check

    assert job[upload]["with"]["name"] == "site"
    assert job[upload]["with"]["path"].rstrip("/") == "site"
    command = job[summary]["run"]
    assert "scripts/library_diff.py" in command
    assert "--format markdown" in command
    assert '--base "origin/$BASE_REF"' in command
    # The branch name reaches the shell through the environment, not pasted into the script.
    assert job[summary]["env"]["BASE_REF"] == "${{ github.base_ref }}"


def test_deploy_workflow_builds_and_deploys_to_pages():
    workflow = load_workflow(DEPLOY)
    assert workflow["on"]["push"]["branches"] == ["main"]
    assert "workflow_dispatch" in workflow["on"]

    build = steps(workflow, "build")
    configure = step_index(build, uses("actions/configure-pages"))
    make_site = step_index(build, runs(".venv/bin/incidents build"))
    upload = step_index(build, uses("actions/upload-pages-artifact"))
    assert configure < make_site < upload
    assert build[upload]["with"]["path"] == "site"
    assert build[make_site]["env"]["SITE_URL"] == "${{ steps.pages.outputs.base_url }}/"

    deploy = workflow["jobs"]["deploy"]
    assert deploy["needs"] == "build"
    assert deploy["permissions"] == {"pages": "write", "id-token": "write"}
    assert deploy["environment"]["name"] == "github-pages"
    assert [step["uses"] for step in deploy["steps"]] == ["actions/deploy-pages@v4"]
    assert "permissions" not in workflow["jobs"]["build"]


# --- pre-commit ---------------------------------------------------------------------------------


# check-jsonschema 0.39 bundles no pre-commit schema, so the keys pre-commit requires of a
# local hook are checked here directly.
PRE_COMMIT_HOOK_KEYS = {"id", "name", "entry", "language"}
PRE_COMMIT_OPTIONAL_KEYS = {
    "files",
    "exclude",
    "types",
    "pass_filenames",
    "always_run",
    "description",
    "verbose",
}


def test_pre_commit_config_has_the_structure_pre_commit_requires():
    config = yaml.safe_load(PRE_COMMIT.read_text(encoding="utf-8"))
    assert set(config) <= {"repos", "default_stages", "fail_fast", "minimum_pre_commit_version"}
    for repo in config["repos"]:
        assert repo["repo"] == "local" and set(repo) == {"repo", "hooks"}
        for hook in repo["hooks"]:
            assert set(hook) >= PRE_COMMIT_HOOK_KEYS, hook
            assert set(hook) <= PRE_COMMIT_HOOK_KEYS | PRE_COMMIT_OPTIONAL_KEYS, hook
            assert hook["language"] == "system"


def pre_commit_hooks() -> dict[str, dict]:
    config = yaml.safe_load(PRE_COMMIT.read_text(encoding="utf-8"))
    [repo] = config["repos"]
    assert repo["repo"] == "local"
    return {hook["id"]: hook for hook in repo["hooks"]}


def test_pre_commit_hooks_run_the_project_command_on_the_right_files():
    hooks = pre_commit_hooks()
    check = hooks["incidents-check"]
    assert check["entry"] == ".venv/bin/incidents check --strict"
    assert (check["language"], check["pass_filenames"], check["verbose"]) == ("system", True, True)
    assert check["files"] == r"^incidents/.*\.md$"
    library = hooks["incidents-check-library"]
    assert library["entry"] == ".venv/bin/incidents check --strict" and library["verbose"] is True
    schema = hooks["incidents-schema"]
    assert schema["entry"] == ".venv/bin/incidents schema --check"
    assert (schema["language"], schema["pass_filenames"]) == ("system", False)

    def selected(hook):  # pre-commit matches `files` with re.search
        names = [
            "incidents/a.md",
            "incidents/2024/a.ko.md",
            "taxonomy.yml",
            "README.md",
            "schema/incident.schema.json",
            "docs/taxonomy.yml",
        ]
        return [name for name in names if re.search(hook["files"], name)]

    assert selected(check) == ["incidents/a.md", "incidents/2024/a.ko.md"]
    assert selected(schema) == ["taxonomy.yml"]
    assert selected(hooks["incidents-check-library"]) == ["taxonomy.yml"]
    assert hooks["incidents-check-library"]["pass_filenames"] is False


def run_hook(hook: dict, root: Path, filenames: list[str]) -> subprocess.CompletedProcess:
    entry = hook["entry"].split()
    assert entry[0] == ".venv/bin/incidents"
    command = [sys.executable, "-m", "generator.cli", *entry[1:]]
    if hook["pass_filenames"]:
        command += [name for name in filenames if re.search(hook["files"], name)]
    return subprocess.run(command, cwd=root, capture_output=True, text=True, check=False)


def test_pre_commit_check_accepts_the_paths_it_is_given_and_the_library_hook_sees_the_rest(
    tmp_path,
):
    root = small_library(tmp_path)
    first, second = sorted(
        p.name for p in (root / "incidents").glob("*.md") if p.name.count(".") == 1
    )
    hooks = pre_commit_hooks()
    changed = [f"incidents/{first}", "taxonomy.yml"]
    result = run_hook(hooks["incidents-check"], root, changed)
    assert result.returncode == 0, result.stdout + result.stderr
    assert result.stdout == ""

    # Rename the organization term of the second (unchanged) incident. `incidents check <paths>`
    # reports only those paths, so the breakage is for the whole-library hook to catch.
    organization = front_matter(root / "incidents" / second)["organization"]
    taxonomy = root / "taxonomy.yml"
    text = taxonomy.read_text(encoding="utf-8")
    renamed = text.replace(f"- id: {organization}\n", f"- id: {organization}-renamed\n", 1)
    assert renamed != text
    taxonomy.write_text(renamed, encoding="utf-8")
    library = run_hook(hooks["incidents-check-library"], root, changed)
    assert library.returncode == 1
    assert f"unknown organization term '{organization}'" in library.stdout


def test_pre_commit_check_fails_on_a_missing_translation_as_ci_does(tmp_path):
    """The hook runs with --strict: a new file without its translation fails before CI does."""
    root = small_library(tmp_path)
    first = sorted(p for p in (root / "incidents").glob("*.md") if p.name.count(".") == 2)[0]
    first.unlink()
    original = first.name.split(".")[0] + ".md"
    result = run_hook(pre_commit_hooks()["incidents-check"], root, [f"incidents/{original}"])
    assert result.returncode == 1
    assert "warning: translation: no " in result.stdout
    assert "(--strict)" in result.stderr


# --- scripts/library_diff.py --------------------------------------------------------------------


def front_matter(path: Path) -> dict:
    text = path.read_text(encoding="utf-8")
    return yaml.safe_load(text.split("\n---", 1)[0].removeprefix("---\n"))


def canonical_pairs() -> list[str]:
    """Ids of the repository's incidents that have a translation and contributing factors."""
    folder = REPO / "incidents"
    ids = []
    for path in sorted(folder.glob("*.md")):
        incident_id = path.name.removesuffix(".md")
        if "." in incident_id:
            continue
        translated = any((folder / f"{incident_id}.{lang}.md").is_file() for lang in ("ko", "en"))
        if translated and re.search(
            r"^contributing_factor: \[.+\]$", path.read_text("utf-8"), re.M
        ):
            ids.append(incident_id)
    return ids


def pick_incidents() -> tuple[str, str, str]:
    """Two incidents to commit and a third to add, each from an organization of its own."""
    picked: dict[str, str] = {}  # organization -> incident id
    for incident_id in canonical_pairs():
        organization = front_matter(REPO / "incidents" / f"{incident_id}.md")["organization"]
        picked.setdefault(organization, incident_id)
        if len(picked) == 3:
            first, second, third = picked.values()
            return first, second, third
    pytest.skip("the tests need translated incidents from three organizations in incidents/")


def copy_incident(incident_id: str, root: Path) -> None:
    for path in (REPO / "incidents").glob(f"{incident_id}.*md"):
        if path.name.split(".")[0] == incident_id:
            shutil.copy(path, root / "incidents" / path.name)


def small_library(root: Path, ids: tuple[str, ...] | None = None) -> Path:
    (root / "incidents").mkdir(parents=True)
    shutil.copy(REPO / "taxonomy.yml", root / "taxonomy.yml")
    for incident_id in ids or pick_incidents()[:2]:
        copy_incident(incident_id, root)
    return root


def git_env() -> dict[str, str]:
    """Git isolated from the machine's and the repository's configuration."""
    env = {k: v for k, v in os.environ.items() if not k.startswith("GIT_")}
    env.update(GIT_CONFIG_NOSYSTEM="1", GIT_CONFIG_GLOBAL=os.devnull, LC_ALL="C.UTF-8")
    return env


def git(root: Path, *args: str) -> None:
    subprocess.run(["git", *args], cwd=root, env=git_env(), check=True, capture_output=True)


def commit_all(root: Path, message: str = "library") -> None:
    git(root, "add", "-A")
    git(
        root,
        "-c",
        "user.name=t",
        "-c",
        "user.email=t@reports.acme.dev",
        "-c",
        "commit.gpgsign=false",
        "commit",
        "-q",
        "-m",
        message,
    )


def library_diff(root: Path, *args: str) -> subprocess.CompletedProcess:
    return subprocess.run(
        [sys.executable, str(LIBRARY_DIFF), *args],
        cwd=root,
        env=git_env(),
        capture_output=True,
        encoding="utf-8",
        check=False,
        timeout=120,
    )


def term_counts(root: Path) -> Counter:
    counts: Counter = Counter()
    for path in (root / "incidents").glob("*.md"):
        if path.name.count(".") != 1:
            continue
        meta = front_matter(path)
        for facet in FACETS:
            value = meta.get(facet) or []
            for term in [value] if isinstance(value, str) else value:
                counts[(facet, term)] += 1
    return counts


def unused_contributing_factor(used: Counter) -> str:
    taxonomy = yaml.safe_load((REPO / "taxonomy.yml").read_text(encoding="utf-8"))
    [facet] = [f for f in taxonomy["facets"] if f["id"] == "contributing_factor"]
    for term in facet["terms"]:
        if ("contributing_factor", term["id"]) not in used:
            return term["id"]
    pytest.skip("every contributing factor is used")


@pytest.fixture
def changed_library(tmp_path):
    """A repository with two committed incidents, then (uncommitted) a third added and one edited."""
    if shutil.which("git") is None:
        pytest.skip("git is not installed")
    first, second, third = pick_incidents()
    root = small_library(tmp_path / "repo", (first, second))
    git(root, "init", "-q")
    commit_all(root)
    before = term_counts(root)

    copy_incident(third, root)
    factor = unused_contributing_factor(term_counts(root))
    original = root / "incidents" / f"{first}.md"
    text, count = re.subn(
        r"^contributing_factor: \[(.+)\]$",
        lambda m: f"contributing_factor: [{m.group(1)}, {factor}]",
        original.read_text(encoding="utf-8"),
        count=1,
        flags=re.M,
    )
    assert count == 1
    original.write_text(text, encoding="utf-8")
    [translation] = [p for p in (root / "incidents").glob(f"{first}.*.md")]
    translation_lang = translation.name.split(".")[1]
    translation.write_text(
        translation.read_text(encoding="utf-8").rstrip("\n") + "\n\nOne more lesson.\n",
        encoding="utf-8",
    )
    return {
        "root": root,
        "first": first,
        "second": second,
        "third": third,
        "factor": factor,
        "translation_lang": translation_lang,
        "before": before,
        "after": term_counts(root),
    }


def term_count_rows(markdown: str) -> dict[tuple[str, str], tuple[int, int]]:
    rows = {}
    table = markdown.split("### Term counts", 1)[1]
    for match in re.finditer(
        r"^\| (\w+) \| .* \(`([a-z0-9-]+)`\) \| (\d+) → (\d+) \| ", table, re.M
    ):
        rows[(match.group(1), match.group(2))] = (int(match.group(3)), int(match.group(4)))
    return rows


def test_library_diff_markdown_names_new_and_changed_incidents_and_moved_counts(changed_library):
    lib = changed_library
    result = library_diff(lib["root"], "--base", "HEAD", "--format", "markdown")
    assert result.returncode == 0, result.stderr
    out = result.stdout
    assert out.startswith("## Library changes against `HEAD`\n")
    assert "**Incidents: 2 → 3 (1 new, 1 changed, 0 removed)**" in out

    new = out.split("### New incidents", 1)[1].split("###", 1)[0]
    assert f"| `{lib['third']}` |" in new
    changed = out.split("### Changed incidents", 1)[1].split("###", 1)[0]
    [row] = [line for line in changed.splitlines() if line.startswith(f"| `{lib['first']}` |")]
    # Markdown-escaped: contributing\_factor, follow\_ups.
    assert f"contributing\\_factor (+{lib['factor']})" in row
    assert row.endswith(f"{lib['translation_lang']}: lessons |")
    assert lib["second"] not in changed
    assert "### Removed incidents" not in out

    expected = {
        key: (lib["before"][key], lib["after"][key])
        for key in lib["before"].keys() | lib["after"].keys()
        if lib["before"][key] != lib["after"][key]
    }
    assert term_count_rows(out) == expected
    assert expected[("contributing_factor", lib["factor"])] == (0, 1)
    organization = front_matter(lib["root"] / "incidents" / f"{lib['third']}.md")["organization"]
    assert expected[("organization", organization)] == (0, 1)


def test_library_diff_text_format(changed_library):
    lib = changed_library
    result = library_diff(lib["root"], "--base", "HEAD", "--format", "text")
    assert result.returncode == 0, result.stderr
    lines = result.stdout.splitlines()
    assert lines[:2] == [
        "Library changes against HEAD",
        "Incidents: 2 → 3 (1 new, 1 changed, 0 removed)",
    ]
    assert any(line.startswith(f"  + {lib['third']}  ") for line in lines)
    assert any(line.startswith(f"  ~ {lib['first']}  ") for line in lines)
    assert f"      contributing_factor (+{lib['factor']})" in lines
    factor = lib["factor"]
    assert any(
        line.startswith(f"  contributing_factor/{factor} (") and line.endswith(": 0 → 1 (+1)")
        for line in lines
    )


def test_library_diff_reports_removed_and_invalid_incidents(changed_library):
    lib = changed_library
    incidents = lib["root"] / "incidents"
    for path in incidents.glob(f"{lib['second']}.*md"):
        path.unlink()
    third = incidents / f"{lib['third']}.md"
    third.write_text(
        re.sub(
            r"^organization: .*$", "organization: no-such-org", third.read_text("utf-8"), flags=re.M
        ),
        encoding="utf-8",
    )
    result = library_diff(lib["root"], "--base", "HEAD", "--format", "markdown")
    assert result.returncode == 0, result.stderr
    out = result.stdout
    assert "**Incidents: 2 → 1 (0 new, 1 changed, 1 removed)**" in out
    assert "> **1 validation error(s) in this change**" in out
    assert f"| `{lib['second']}` |" in out.split("### Removed incidents", 1)[1]
    invalid = out.split("### Not valid in this change", 1)[1].split("###", 1)[0]
    assert f"- `incidents/{lib['third']}.md` does not validate; see the check step." in invalid
    assert "### New incidents" not in out


def test_library_diff_unchanged_library(changed_library):
    root = changed_library["root"]
    commit_all(root, "everything")
    result = library_diff(root, "--base", "HEAD", "--format", "markdown")
    assert result.returncode == 0, result.stderr
    assert "**Incidents: 3 → 3 (0 new, 0 changed, 0 removed)**" in result.stdout
    assert "No change to the incidents or the taxonomy." in result.stdout


def test_library_diff_reports_an_unknown_ref_and_exits_0(changed_library):
    result = library_diff(changed_library["root"], "--base", "origin/no-such-branch")
    assert result.returncode == 0, result.stderr
    assert result.stdout.splitlines() == [
        "Library changes against origin/no-such-branch",
        "note: base ref 'origin/no-such-branch' was not found in this repository (fetch it first, "
        "e.g. actions/checkout with fetch-depth: 0); nothing to compare with.",
        "Not compared. The working tree has 3 valid incident(s).",
    ]
    assert result.stderr == ""


def test_library_diff_outside_a_git_repository_exits_0(tmp_path):
    root = small_library(tmp_path / "plain")
    result = library_diff(root)
    assert result.returncode == 0, result.stderr
    assert result.stdout.splitlines() == [
        "Library changes against origin/main",
        f"note: {root.resolve()} is not in a git repository; nothing to compare with.",
        "Not compared. The working tree has 2 valid incident(s).",
    ]


def test_library_diff_survives_a_base_whose_taxonomy_does_not_load(changed_library):
    root = changed_library["root"]
    taxonomy = root / "taxonomy.yml"
    good = taxonomy.read_text(encoding="utf-8")
    taxonomy.write_text("facets: [\n", encoding="utf-8")
    commit_all(root, "broken taxonomy")
    taxonomy.write_text(good, encoding="utf-8")
    result = library_diff(root, "--base", "HEAD", "--format", "text")
    assert result.returncode == 0, result.stderr
    assert "note: taxonomy.yml at HEAD does not load, so no incident there does." in result.stdout
    assert "Not compared. The working tree has 3 valid incident(s)." in result.stdout


def test_the_slowest_test_files_named_to_start_first_exist():
    from conftest import SLOWEST_FIRST

    assert [name for name in SLOWEST_FIRST if not (REPO / name).is_file()] == []
    assert len(set(SLOWEST_FIRST)) == len(SLOWEST_FIRST)


def test_the_test_command_collects_every_test_file():
    """`make test` runs plain `pytest`: every tests/**/test_*.py must be in what it collects
    (pytest's default norecursedirs skips folders such as build, dist and venv)."""
    listed = subprocess.run(
        [sys.executable, "-m", "pytest", "--collect-only", "-q", "-p", "no:cacheprovider"],
        cwd=REPO,
        capture_output=True,
        text=True,
        timeout=300,
    ).stdout
    collected = {line.split("::")[0] for line in listed.splitlines() if "::" in line}
    files = {
        str(p.relative_to(REPO))
        for p in (REPO / "tests").rglob("test_*.py")
        if not any(part.startswith(".") for part in p.parts)
    }
    assert files - collected == set()


ALONE_TESTS = """
import os, threading, pytest

if "INCIDENTS_TEST_ALONE" not in os.environ:  # a thread of this process, as a test server's
    threading.Thread(target=threading.Event().wait, daemon=True).start()

@pytest.mark.alone
def test_runs_where_no_other_thread_runs():
    assert threading.active_count() == 1 and os.environ.get("INCIDENTS_TEST_ALONE") == "1"

@pytest.mark.alone
def test_fails_there():
    assert 1 == 2, "failed as it should"

@pytest.mark.alone
def test_skips_there():
    pytest.skip("skipped for a reason")

def test_unmarked_stays_here():
    assert threading.active_count() > 1 and "INCIDENTS_TEST_ALONE" not in os.environ
"""


def test_tests_that_fork_run_where_no_other_thread_runs_and_report_back(tmp_path):
    """Where another thread runs (a test server's, kept for the session by an earlier test of
    the same pytest-xdist worker), a test marked `alone` (tests/alone.py) runs in a pytest of its
    own, and its outcome is reported as its own."""
    (tmp_path / "test_forking.py").write_text(ALONE_TESTS, encoding="utf-8")
    run = subprocess.run(
        [sys.executable, "-m", "pytest", "-q", "-rfs", "-p", "alone", "-p", "no:cacheprovider"]
        + ["test_forking.py"],
        cwd=tmp_path,
        env={**os.environ, "PYTHONPATH": str(REPO / "tests")},
        capture_output=True,
        text=True,
        timeout=300,
    )
    output = run.stdout
    assert "1 failed, 2 passed, 1 skipped" in output, output
    assert "in a pytest of its own" in output and "failed as it should" in output
    assert "skipped for a reason" in output


def test_the_package_metadata_builds_without_deprecation_warnings():
    """setuptools (77 and later) prints a page-long deprecation for a license written as a
    table, once per build step of `make site`'s install: the license is an SPDX expression,
    which the build's minimum setuptools reads."""
    import tomllib

    project = tomllib.loads((REPO / "pyproject.toml").read_text(encoding="utf-8"))
    assert project["project"]["license"] == "Apache-2.0"
    assert project["build-system"]["requires"] == ["setuptools>=77"]
