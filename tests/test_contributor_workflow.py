"""A contributor's whole pull request, in a copy of this repository: a new organization and a new
symptom term in taxonomy.yml, `incidents schema`, a new incident scaffolded with `incidents new`
and filled in in both languages, then `incidents check --strict`, a site build, and the tests that
read the repository's own library and taxonomy (the ones a contribution can break). Nothing in
bench/ or tests/ is edited: that is the point."""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
from pathlib import Path

from conftest import REPO

# Appended at the end of their facets' term lists, as CONTRIBUTING (section 6) shows.
NEW_TERMS = {
    "  - id: organization\n": """      - id: zorblax-ai
        label: {ko: Zorblax AI, en: Zorblax AI}
        description: {ko: 예시로 쓰는 가상의 연구소., en: A fictional laboratory used in examples.}
        aliases: {ko: [조블랙스], en: [Zorblax]}
""",
    "  - id: symptom\n": """      - id: unreadable-checkpoint
        label: {ko: 읽을 수 없는 체크포인트, en: Unreadable checkpoint}
        description:
          ko: 학습을 재개하려던 체크포인트를 읽을 수 없었습니다.
          en: A checkpoint that training was to resume from could not be read.
""",
}

ORIGINAL = {
    "title": "Zorblax AI: truncated checkpoints stop a 2,048-GPU training run",
    "summary": (
        "A storage quota cut 3 checkpoints short; the 2,048-GPU job could not resume for "
        "14 hours until an older checkpoint was found."
    ),
    "sections": {
        "Symptoms": "After a restart, all 256 hosts failed to load checkpoint 4,100.",
        "Trigger": "A storage quota of 40 TB was reached while 3 checkpoints were written.",
        "Detection": "The resume job exited on every rank; the on-call engineer was paged.",
        "Actions": "- Found checkpoint 4,000 intact.\n- Resumed from it after 14 hours.",
        "Follow-ups": "- Verified every checkpoint after writing.\n- Raised the quota to 60 TB.",
        "Lessons": "A checkpoint is only saved once it has been read back.",
    },
}
TRANSLATION = {
    "title": "Zorblax AI: 잘린 체크포인트로 GPU 2,048개 학습 중단",
    "summary": (
        "스토리지 할당량 때문에 체크포인트 3개가 잘렸고, GPU 2,048개 작업은 이전 체크포인트를 찾기까지 "
        "14시간 동안 재개하지 못했습니다."
    ),
    "sections": {
        "증상": "재시작 뒤 호스트 256대 모두 체크포인트 4,100을 읽지 못했습니다.",
        "촉발": "체크포인트 3개를 쓰는 동안 40 TB 스토리지 할당량이 찼습니다.",
        "감지": "재개 작업이 모든 랭크에서 종료됐고, 당직 엔지니어가 호출됐습니다.",
        "조치": "- 온전한 체크포인트 4,000을 찾았습니다.\n- 14시간 뒤 그 체크포인트에서 재개했습니다.",
        "후속 조치": "- 모든 체크포인트를 쓴 뒤 검증합니다.\n- 할당량을 60 TB로 늘렸습니다.",
        "교훈": "체크포인트는 다시 읽어 본 뒤에야 저장된 것입니다.",
    },
}

# The tests that read the repository's incidents or taxonomy, as `make test-library` runs them.
LIBRARY_TESTS = "@tests/library-tests.txt"


def copy_of_repository(target: Path) -> Path:
    """The files git would put in a fresh clone (tracked, plus new files not ignored)."""
    listed = subprocess.run(
        ["git", "ls-files", "-z", "--cached", "--others", "--exclude-standard"],
        cwd=REPO,
        capture_output=True,
        check=True,
    ).stdout.split(b"\0")
    for name in filter(None, listed):
        source = REPO / os.fsdecode(name)
        if source.is_file():
            destination = target / os.fsdecode(name)
            destination.parent.mkdir(parents=True, exist_ok=True)
            shutil.copy2(source, destination)
    return target


def fill(text: str, content: dict) -> str:
    """The scaffold with its TODOs replaced, as a contributor fills it in."""
    lines = []
    for line in text.splitlines():
        if line.startswith("title: "):
            line = f'title: "{content["title"]}"'
        elif line.startswith("summary: "):
            line = f'summary: "{content["summary"]}"'
        lines.append(line)
    head, _, _ = "\n".join(lines).partition("\n## ")
    body = "\n\n".join(f"## {h}\n\n{t}" for h, t in content["sections"].items())
    return f"{head}\n{body}\n"


class Contributor:
    """A contributor's copy of the repository and the commands they run in it."""

    def __init__(self, repo: Path) -> None:
        self.repo = repo
        self.env = {**os.environ, "PYTHONPATH": str(repo), "INCIDENTS_JOBS": "1"}

    def run(self, *args: str) -> subprocess.CompletedProcess:
        return subprocess.run(
            args,
            cwd=self.repo,
            env=self.env,
            capture_output=True,
            text=True,
            encoding="utf-8",
            timeout=900,
        )

    def incidents(self, *args: str) -> subprocess.CompletedProcess:
        return self.run(sys.executable, "-m", "generator.cli", *args)

    def propose_terms(self) -> None:
        """The new organization and symptom, and `incidents schema`, as section 6 says."""
        taxonomy = self.repo / "taxonomy.yml"
        text = taxonomy.read_text(encoding="utf-8")
        for facet_line, term in NEW_TERMS.items():
            start = text.index(facet_line)
            following = text.find("\n  - id: ", start + len(facet_line))
            end = following + 1 if following != -1 else len(text)
            text = text[:end].rstrip("\n") + "\n" + term + text[end:]
        taxonomy.write_text(text, encoding="utf-8")
        assert self.incidents("schema").returncode == 0

    def write_case(self) -> tuple[Path, Path]:
        """The new case scaffolded with `incidents new` and filled in, in both languages."""
        made = self.incidents(
            "new",
            "zorblax-ai-truncated-checkpoints-2025",
            "--lang",
            "en",
            "--organization",
            "zorblax-ai",
            "--domain",
            "ai-infra",
            "--term",
            "report_kind=incident-postmortem",
            "--term",
            "symptom=unreadable-checkpoint",
            "--term",
            "cause=software-bug",
            "--term",
            "component=storage",
            "--occurred",
            "2025-02",
            "--published",
            "2025-03-10",
            "--source-url",
            "https://zorblax-ai.dev/blog/truncated-checkpoints",
            "--no-interactive",
        )
        assert made.returncode == 0, made.stdout + made.stderr
        original = self.repo / "incidents/zorblax-ai-truncated-checkpoints-2025.md"
        translation = self.repo / "incidents/zorblax-ai-truncated-checkpoints-2025.ko.md"
        text = fill(original.read_text(encoding="utf-8"), ORIGINAL)
        text = text.replace(
            'title: "TODO: title of the report, as published"',
            'title: "Truncated checkpoints at Zorblax AI"',
        )
        text = text.replace('publisher: "TODO: who published it"', "publisher: Zorblax AI")
        text = text.replace("date: TODO", "date: 2025-03-10")
        original.write_text(text, encoding="utf-8")
        translation.write_text(
            fill(translation.read_text(encoding="utf-8"), TRANSLATION), encoding="utf-8"
        )
        return original, translation


def test_a_new_term_organization_and_incident_pass_the_checks_and_tests(tmp_path):
    me = Contributor(copy_of_repository(tmp_path / "repo"))
    me.propose_terms()
    me.write_case()
    checked = me.incidents("check", "--strict")
    assert checked.returncode == 0, checked.stdout + checked.stderr
    count = len([p for p in (REPO / "incidents").glob("*.md") if p.name.count(".") == 1])
    assert f"ok: {count + 1} incidents checked, 0 error(s), 0 warning(s)" in checked.stderr
    built = me.incidents("build")
    assert built.returncode == 0, built.stdout + built.stderr
    assert (me.repo / "site/en/cases/zorblax-ai-truncated-checkpoints-2025.html").is_file()
    assert (me.repo / "site/ko/organization/zorblax-ai.html").is_file()

    tests = me.run(sys.executable, "-m", "pytest", "-q", "-p", "no:cacheprovider", LIBRARY_TESTS)
    assert tests.returncode == 0, tests.stdout[-4000:]


def test_each_path_catches_what_the_whole_library_check_catches(tmp_path):
    """Four mistakes that otherwise only a reviewer reading the file would catch: a copy of a
    case under a new id, a section that talks about the report, an English summary left in the
    translation and a scale figure the text contradicts. Each fails the check CONTRIBUTING tells a contributor to
    run on their file (`incidents check --strict <path>`, which the pre-commit hook runs too),
    `--changed`, and the whole library's (the pull request's), with the same lines."""
    me = Contributor(copy_of_repository(tmp_path / "repo"))
    me.propose_terms()
    for args in (["init", "-q", "-b", "main"], ["add", "-A"], ["commit", "-qm", "base"]):
        me.run("git", "-c", "user.email=a@b", "-c", "user.name=a", *args)
    original, translation = me.write_case()
    filled = original.read_text(encoding="utf-8"), translation.read_text(encoding="utf-8")
    name = "incidents/zorblax-ai-truncated-checkpoints-2025"

    def caught(path: str, expected: str) -> None:
        reports = {}
        for how, args in (
            ("path", ["check", "--strict", path]),
            ("--changed", ["check", "--strict", "--changed"]),
            ("library", ["check", "--strict"]),
        ):
            done = me.incidents(*args)
            assert done.returncode == 1, (how, done.stdout, done.stderr)
            reports[how] = [line for line in done.stdout.splitlines() if expected in line]
        assert reports["path"], (expected, reports)
        assert reports["path"] == reports["--changed"] == reports["library"], reports

    # A section that only says the report is silent, in both languages.
    original.write_text(
        filled[0].replace(
            ORIGINAL["sections"]["Detection"],
            "The report does not say how the failure was first noticed.",
        ),
        encoding="utf-8",
    )
    translation.write_text(
        filled[1].replace(
            TRANSLATION["sections"]["감지"], "보고서에는 처음 어떻게 감지했는지 나오지 않습니다."
        ),
        encoding="utf-8",
    )
    caught(f"{name}.md", "'## Detection' only says that the sources do not cover it")
    caught(f"{name}.md", "'## 감지' only says that the sources do not cover it")
    original.write_text(filled[0], encoding="utf-8")

    # An English summary in the Korean file, reworded rather than copied.
    english = "A quota truncated 3 checkpoints; the 2,048-GPU job waited 14 hours to resume."
    translation.write_text(filled[1].replace(TRANSLATION["summary"], english), encoding="utf-8")
    caught(f"{name}.md", "summary reads as English in a Korean file")
    translation.write_text(filled[1], encoding="utf-8")

    # A scale figure that contradicts the text (2,048 GPUs).
    original.write_text(filled[0].replace("scale: {}", "scale:\n  gpus: 400"), encoding="utf-8")
    caught(f"{name}.md", "scale.gpus: 400 is not in the text")
    original.write_text(filled[0], encoding="utf-8")

    # A verbatim copy of a case under a new id that sorts before it.
    copied = sorted(p for p in (me.repo / "incidents").glob("*.ko.md"))[0]
    copied_id = copied.name.split(".")[0]
    copy = f"incidents/aaa-copy-of-{copied_id}"
    text = (copied.parent / f"{copied_id}.md").read_text(encoding="utf-8")
    (me.repo / f"{copy}.md").write_text(
        text.replace(f"id: {copied_id}\n", f"id: aaa-copy-of-{copied_id}\n"), encoding="utf-8"
    )
    (me.repo / f"{copy}.ko.md").write_text(copied.read_text(encoding="utf-8"), encoding="utf-8")
    caught(f"{copy}.md", f"{copy}.md:")
    caught(
        f"{copy}.md",
        f"is it the same incident? If they are different incidents, add distinct_from: [{copied_id}]",
    )
