"""The `incidents` command as contributors run it (generator/cli.py)."""

from __future__ import annotations

import os
import re
import subprocess
import sys

from click.testing import CliRunner
from conftest import REPO, Project

from generator.cli import main


def run(*args: str, input: str | None = None):
    return CliRunner().invoke(main, list(args), input=input, catch_exceptions=False)


def test_check_passes_on_a_valid_project(project: Project):
    project.add_incident()
    result = run("check", "--root", str(project.root))
    assert result.exit_code == 0
    assert result.output == "ok: 1 incident checked, 0 error(s), 0 warning(s)\n"


def test_check_fails_with_precise_lines_and_no_traceback(project: Project):
    project.add_incident(cause="[gpu-failur]")
    completed = subprocess.run(
        [sys.executable, "-m", "generator.cli", "check", "--root", str(project.root)],
        capture_output=True,
        text=True,
        cwd=REPO,
    )
    assert completed.returncode == 1
    assert completed.stdout == (
        "incidents/acme-gpu-outage.md:11:9: cause[0]: unknown cause term 'gpu-failur' "
        "(did you mean 'gpu-failure'?)\n"
    )
    assert "Traceback" not in completed.stderr
    assert completed.stderr == "check failed: 1 incident checked, 1 error(s), 0 warning(s)\n"


def test_strict_turns_warnings_into_failure(project: Project):
    project.add_incident(translate=False)
    assert run("check", "--root", str(project.root)).exit_code == 0
    strict = run("check", "--strict", "--root", str(project.root))
    assert strict.exit_code == 1
    assert "warning: translation: no Korean translation" in strict.output


def test_github_annotations(project: Project):
    project.add_incident(cause="[gpu-failur]")
    result = run("check", "--format", "github", "--root", str(project.root))
    assert result.exit_code == 1
    assert result.output.splitlines()[0] == (
        "::error file=incidents/acme-gpu-outage.md,line=11,col=9,title=cause[0]::"
        "unknown cause term 'gpu-failur' (did you mean 'gpu-failure'?)"
    )


def test_check_limited_to_paths_still_sees_the_whole_library(project: Project, monkeypatch):
    project.add_incident()
    project.add_incident(
        "globex-x", organization="globx", occurred="2023-01-01", url="https://e.com/g"
    )
    monkeypatch.chdir(project.root)
    only_good = run("check", "incidents/acme-gpu-outage.md")
    assert only_good.exit_code == 0
    only_bad = run("check", "incidents/globex-x.ko.md")
    assert only_bad.exit_code == 1
    assert "unknown organization term 'globx'" in only_bad.output


def test_new_scaffolds_files_that_validate_once_filled_in(project: Project):
    result = run(
        "new",
        "acme-etcd-quorum-loss",
        "--root",
        str(project.root),
        "--lang",
        "en",
        "--title",
        "Acme: etcd loses quorum",
        "--organization",
        "acme",
        "--domain",
        "kubernetes",
        "--occurred",
        "2024-05-01",
        "--published",
        "2024-06-10",
        "--source-url",
        "https://reports.acme.dev/etcd",
    )
    assert result.exit_code == 0, result.output
    original = project.incidents / "acme-etcd-quorum-loss.md"
    translation = project.incidents / "acme-etcd-quorum-loss.ko.md"
    text = original.read_text()
    assert text.startswith("---\n# yaml-language-server: $schema=../schema/incident.schema.json\n")
    unfilled = run("check", "--root", str(project.root))
    assert unfilled.exit_code == 1
    assert "symptom[0]: unknown symptom term 'TODO'" in unfilled.output

    filled = (
        text.replace("symptom: [TODO]", "symptom: [service-outage]")
        .replace("cause: [TODO]", "cause: [faulty-change]")
        .replace("component: [TODO]", "component: [etcd]")
    )
    filled = re.sub(r"TODO[^\"\n]*", "Filled in.", filled)
    original.write_text(filled)
    korean = re.sub(
        r'title: "TODO[^"]*"', 'title: "애크미: etcd 쿼럼 상실"', translation.read_text()
    )
    translation.write_text(re.sub(r"TODO[^\"\n]*", "채웠습니다.", korean))
    done = run("check", "--strict", "--root", str(project.root))
    assert done.exit_code == 0, done.output


def test_an_incident_named_like_a_page_of_the_site_is_refused(project: Project):
    """`incidents/index.md` would be written over the library's home page."""
    project.add_incident("index")
    checked = run("check", "--root", str(project.root))
    assert checked.exit_code == 1
    assert (
        "incidents/index.md:1:1: 'index' is the name of a page of the site; choose another id"
        in checked.output
    )
    made = run("new", "index", "--root", str(project.root), "--lang", "en", "--no-interactive")
    assert made.exit_code == 1 and "'index' is the name of a page of the site" in made.output


def test_new_refuses_to_overwrite_and_rejects_bad_ids(project: Project):
    project.add_incident()
    args = [
        "--root",
        str(project.root),
        "--lang",
        "en",
        "--title",
        "t",
        "--organization",
        "acme",
        "--domain",
        "kubernetes",
        "--occurred",
        "2024",
        "--source-url",
        "https://e.com",
    ]
    exists = run("new", "acme-gpu-outage", *args)
    assert exists.exit_code == 1
    assert "incidents/acme-gpu-outage.md: already exists" in exists.output
    bad = run("new", "Acme GPU", *args)
    assert bad.exit_code == 1
    assert "an id is lowercase words joined by hyphens" in bad.output


def test_new_asks_interactively(project: Project):
    answers = "acme-dns\nen\nAcme: DNS fails\nacme\nkubernetes\n2024-01-02\n2024-01-20\nhttps://e.com/dns\n"
    args = ["new", "--interactive", "--root", str(project.root)]
    result = CliRunner().invoke(main, args, input=answers)
    assert result.exit_code == 0, result.output
    assert (project.incidents / "acme-dns.md").read_text().count("Acme: DNS fails") == 1


def test_repository_incidents_pass_strict_check():
    result = run("check", "--strict", "--root", str(REPO))
    assert result.exit_code == 0, result.output


def test_committed_schema_is_current():
    result = run("schema", "--check", "--root", str(REPO))
    assert result.exit_code == 0, result.output


def test_broken_copy_of_the_imbue_incident_is_reported_precisely(tmp_path):
    import shutil

    (tmp_path / "incidents").mkdir()
    shutil.copy(REPO / "taxonomy.yml", tmp_path / "taxonomy.yml")
    for name in ("imbue-h100-cluster-bring-up.md", "imbue-h100-cluster-bring-up.ko.md"):
        shutil.copy(REPO / "incidents" / name, tmp_path / "incidents" / name)
    original = tmp_path / "incidents" / "imbue-h100-cluster-bring-up.md"
    lines = original.read_text(encoding="utf-8").split("\n")
    index = next(i for i, line in enumerate(lines) if line.startswith("component:"))
    lines[index] = lines[index].replace("infiniband-fabric", "infiniband")
    original.write_text("\n".join(lines), encoding="utf-8")
    result = run("check", "--root", str(tmp_path))
    assert result.exit_code == 1
    (line,) = result.stdout.splitlines()
    column = lines[index].index("infiniband") + 1
    assert line == (
        f"incidents/imbue-h100-cluster-bring-up.md:{index + 1}:{column}: "
        f"component[{lines[index].count(',', 0, column)}]: unknown component term 'infiniband' "
        "(did you mean 'infiniband-fabric'?)"
    )


def test_status_and_stats(project: Project):
    project.add_incident()
    project.add_incident(
        "globex-x",
        organization="globex",
        occurred="2023-01-01",
        url="https://e.com/g",
        translate=False,
    )
    status = run("status", "--root", str(project.root))
    assert status.exit_code == 0
    lines = status.stdout.splitlines()
    assert lines[:4] == [
        "incidents: 2",
        "Korean text: 1/2 (50%)",
        "  missing: globex-x",
        "English text: 2/2 (100%)",
    ]
    assert "  cause: hardware-failure (Hardware failure / 하드웨어 고장)" in lines
    stats = run("stats", "--format", "csv", "--root", str(project.root))
    assert "organization,acme,Acme,애크미,1" in stats.stdout.splitlines()
    text = run("stats", "--root", str(project.root)).stdout
    assert "cause (1/3 terms used)" in text


def test_status_refuses_a_broken_library(project: Project):
    project.add_incident(cause="[nope]")
    result = run("status", "--root", str(project.root))
    assert result.exit_code == 1
    assert "unknown cause term 'nope'" in result.stdout


def test_check_reuses_its_cache_and_notices_every_change(project: Project, monkeypatch):
    import generator.pipeline.check as project_module

    project.add_incident()
    project.add_incident(
        "globex-x", organization="globex", occurred="2023-01-01", url="https://e.com/g"
    )
    parsed: list[str] = []
    real = project_module.split_front_matter
    monkeypatch.setattr(
        project_module, "split_front_matter", lambda s: parsed.append(s.path) or real(s)
    )

    first = run("check", "--root", str(project.root))
    assert first.exit_code == 0 and len(parsed) == 4
    from generator.pipeline.check_cache import CACHE_FILE, cache_folder

    assert (cache_folder(project.root) / CACHE_FILE).is_file()

    parsed.clear()
    again = run("check", "--root", str(project.root))
    assert (again.exit_code, again.output, parsed) == (0, first.output, [])

    # an edited file is parsed again, and its new problem is reported
    path = project.incidents / "globex-x.md"
    path.write_text(
        path.read_text(encoding="utf-8").replace("cause: [gpu-failure]", "cause: [gpu-failur]")
    )
    edited = run("check", "--root", str(project.root))
    assert parsed == ["incidents/globex-x.md"]
    assert edited.exit_code == 1 and "unknown cause term 'gpu-failur'" in edited.output

    # a taxonomy change makes every file be checked again
    parsed.clear()
    taxonomy = project.root / "taxonomy.yml"
    taxonomy.write_text(
        taxonomy.read_text(encoding="utf-8").replace("A GPU failed.", "A GPU broke.")
    )
    assert run("check", "--root", str(project.root)).exit_code == 1
    assert len(parsed) == 4

    parsed.clear()
    assert run("check", "--no-cache", "--root", str(project.root)).exit_code == 1
    assert len(parsed) == 4


def test_check_paths_must_name_incident_files(project: Project, monkeypatch, tmp_path):
    """A folder checks what is in it; a path that is no incident file is an error, never "ok"."""
    project.add_incident()
    project.add_incident(
        "globex-x", organization="globx", occurred="2023-01-01", url="https://e.com/g"
    )
    (project.root / "notes.md").write_text("# notes\n", encoding="utf-8")
    (project.incidents / "README.md").write_text("# incidents\n", encoding="utf-8")
    outside = tmp_path / "elsewhere.md"
    outside.write_text("x", encoding="utf-8")
    monkeypatch.chdir(project.root)
    for folder in ("incidents", "incidents/", ".", str(project.root)):
        whole = run("check", folder)
        assert whole.exit_code == 1, folder
        assert "unknown organization term 'globx'" in whole.output, folder
    cases = {
        "incidents/acme-gpu-outag.md": "incidents/acme-gpu-outag.md: no such file or folder "
        "(did you mean 'incidents/acme-gpu-outage.md'?)",
        "notes.md": "notes.md: not in incidents/, the folder this project reads incidents from",
        "incidents/README.md": "incidents/README.md: not an incident file; incident files are "
        "<id>.md and <id>.<ko|en>.md",
        str(outside): f"{outside}: not in incidents/, the folder this project reads incidents from",
        "/etc/passwd": "/etc/passwd: not in incidents/, the folder this project reads incidents from",
        "/dev/zero": "/dev/zero: not in incidents/, the folder this project reads incidents from",
        "docs": "docs: no such file or folder",
    }
    for path, message in cases.items():
        result = run("check", path)
        assert result.exit_code == 1, path
        assert result.output == f"{message}\ncheck failed: 1 path names no incident file\n", path
    (project.root / "docs").mkdir()
    empty = run("check", "docs")
    assert empty.exit_code == 1
    assert empty.output.startswith(
        "docs: no incident files in this folder; incidents live in incidents/"
    )


def test_new_checks_its_values_as_the_checker_does(project: Project):
    """A date that is not one, a URL without a scheme, an id too long: nothing is written and
    every problem is named; repeated options add up; an unknown term is kept and noted."""
    bad = run(
        "new",
        "x" * 81,
        "--root",
        str(project.root),
        "--occurred",
        "2019-7-19",
        "--source-url",
        "reports.acme.dev/report",
        "--no-interactive",
    )
    assert bad.exit_code == 1
    assert bad.output.splitlines() == [
        f"id '{'x' * 81}': an id is lowercase words joined by hyphens, e.g. acme-dns-outage, "
        "at most 80 characters",
        "--occurred: '2019-7-19' is not a date: write YYYY, YYYY-MM or YYYY-MM-DD, or unknown "
        "when the sources give no date",
        "--source-url: 'reports.acme.dev/report' is not an http(s) URL; write the full address, "
        "e.g. https://…",
        "nothing written: 3 problem(s)",
    ]
    assert list(project.incidents.iterdir()) == []

    made = run(
        "new",
        "acme-dns",
        "--root",
        str(project.root),
        "--organization",
        "acmee",
        "--domain",
        "kubernetes",
        "--domain",
        "ai-infra",
        "--term",
        "cause=gpu-failure",
        "--occurred",
        "2024-01-02",
        "--no-interactive",
    )
    assert made.exit_code == 0, made.output
    assert "note: 'acmee' is not yet a term of organization (did you mean 'acme'?)" in made.output
    text = (project.incidents / "acme-dns.md").read_text(encoding="utf-8")
    assert "domain: [kubernetes, ai-infra]" in text
    assert "cause: [gpu-failure]" in text and "organization: acmee" in text
    assert "published: TODO" in text and "occurred: 2024-01-02" in text
    check = run("check", "--root", str(project.root))
    assert "organization: unknown organization term 'acmee' (did you mean 'acme'?)" in check.output
    published = [line for line in check.output.splitlines() if ": published: " in line]
    # one line: the placeholder is a wrong date, not also a leftover placeholder
    assert len(published) == 1 and "'TODO' is not a date" in published[0], check.output


def test_new_takes_unknown_for_a_case_the_sources_do_not_date(project: Project):
    """`--occurred unknown` is written as is and passes the check; the help says it may."""
    assert "or unknown when the sources give no date" in run("new", "--help").output
    made = run(
        "new",
        "acme-undated",
        "--root",
        str(project.root),
        "--occurred",
        "unknown",
        "--published",
        "2021-02",
        "--no-interactive",
    )
    assert made.exit_code == 0, made.output
    text = (project.incidents / "acme-undated.md").read_text(encoding="utf-8")
    assert "occurred: unknown\npublished: 2021-02\n" in text
    check = run("check", "--root", str(project.root))
    assert not [line for line in check.output.splitlines() if ": occurred: " in line]
    wrong = run("new", "acme-x", "--root", str(project.root), "--published", "unknown")
    assert wrong.exit_code == 1
    assert "--published: 'unknown' is not a date: write YYYY, YYYY-MM or YYYY-MM-DD" in (
        wrong.output
    )


def test_stats_csv_cannot_carry_spreadsheet_formulas(project: Project):
    taxonomy = project.root / "taxonomy.yml"
    taxonomy.write_text(
        taxonomy.read_text(encoding="utf-8").replace("en: Acme}", 'en: "=HYPERLINK(1)"}'),
        encoding="utf-8",
    )
    project.add_incident()
    result = run("stats", "--format", "csv", "--root", str(project.root))
    assert result.exit_code == 0, result.output
    assert "organization,acme,'=HYPERLINK(1),애크미,1" in result.output.splitlines()


def test_a_bidirectional_control_in_a_file_name_is_printed_escaped(project: Project):
    project.write("incidents/acme\u202egpu.md", "not front matter\n")
    result = run("check", "--root", str(project.root))
    assert "\u202e" not in result.output
    assert "acme\\u202egpu.md" in result.output


def test_terms_lists_the_vocabulary_with_counts_and_aliases(project: Project):
    project.add_incident()
    result = run("terms", "component", "--root", str(project.root), "--lang", "ko")
    assert result.exit_code == 0
    lines = result.output.splitlines()
    assert lines[0].startswith("component (구성 요소): ")
    fabric = next(line for line in lines if "infiniband-fabric" in line)
    assert fabric.split()[:2] == ["infiniband-fabric", "1"]
    assert "InfiniBand 패브릭" in fabric and "(also: 인피니밴드, IB" in fabric
    unknown = run("terms", "componnt", "--root", str(project.root))
    assert unknown.exit_code == 2
    assert "unknown facet 'componnt'" in unknown.output and "'component'" in unknown.output


def git(root, *args):
    subprocess.run(["git", "-C", str(root), *args], check=True, capture_output=True)


def test_check_changed_checks_what_the_branch_changed(project: Project):
    project.add_incident()
    git(project.root, "init", "-q", "-b", "main")
    git(project.root, "-c", "user.email=a@b", "-c", "user.name=a", "add", "-A")
    git(project.root, "-c", "user.email=a@b", "-c", "user.name=a", "commit", "-qm", "base")
    nothing = run("check", "--changed", "--root", str(project.root))
    assert nothing.exit_code == 0 and "no incident changed" in nothing.output
    git(project.root, "switch", "-q", "-c", "add-globex")
    project.add_incident(
        "globex-dns-outage", organization="acmee", url="https://reports.acme.dev/g"
    )
    found = run("check", "--changed", "--root", str(project.root))
    assert found.exit_code == 1
    assert "incidents/globex-dns-outage.md:8:15: organization: unknown organization term" in (
        found.output
    )
    assert "acme-gpu-outage.md:" not in found.output  # not changed, so not reported


def test_check_changed_outside_git_says_so(project: Project):
    project.add_incident()
    result = run("check", "--changed", "--root", str(project.root))
    assert result.exit_code == 2 and "not in a git repository" in result.output


def test_python_m_and_the_entry_point_list_the_same_commands():
    """`python -m generator.cli` runs the module as `__main__`: every command must be defined
    before the group is called, or the later ones are missing from its help."""
    listed = subprocess.run(
        [sys.executable, "-m", "generator.cli", "--help"],
        cwd=REPO,
        capture_output=True,
        text=True,
        timeout=60,
    ).stdout
    commands = set(re.findall(r"^  ([a-z][a-z-]*)\s", listed.split("Commands:")[1], re.M))
    assert commands == set(main.commands)


def test_a_checkout_that_cannot_be_written_is_one_line(project: Project, monkeypatch):
    """`incidents new` and `incidents schema` in a read-only checkout (or on a full disk) say
    what could not be written, in one line, without a traceback."""
    import errno
    from pathlib import Path as RealPath

    def refuse(self, *args, **kwargs):
        raise OSError(errno.EROFS, "Read-only file system", str(self))

    monkeypatch.setattr(RealPath, "write_text", refuse)
    runner = CliRunner()
    made = runner.invoke(
        main,
        [
            "new",
            "acme-ro-2025",
            "--root",
            str(project.root),
            "--lang",
            "en",
            "--title",
            "T",
            "--organization",
            "acme",
            "--domain",
            "ai-infra",
            "--no-interactive",
        ],
    )
    assert made.exit_code == 1
    assert made.exception is None or isinstance(made.exception, SystemExit)
    assert "incidents new: Read-only file system: " in made.output
    assert "Traceback" not in made.output


def test_a_strict_build_that_fails_says_so_on_its_last_line(site_project: Project):
    """Without SITE_URL a build warns, and --strict refuses it: the last line says the build
    stopped (MkDocs itself raises it without printing it)."""
    site_project.add_incident()
    env = {k: v for k, v in os.environ.items() if k != "SITE_URL"}
    built = subprocess.run(
        [
            sys.executable,
            "-m",
            "generator.cli",
            "build",
            "--strict",
            "--root",
            str(site_project.root),
        ],
        capture_output=True,
        text=True,
        cwd=REPO,
        env=env,
        timeout=600,
    )
    assert built.returncode == 1
    assert "site_url is not set" in built.stderr
    last = built.stderr.strip().splitlines()[-1]
    assert re.fullmatch(r"error: Aborted with \d+ warnings? in strict mode!", last), built.stderr
    assert "Traceback" not in built.stderr
