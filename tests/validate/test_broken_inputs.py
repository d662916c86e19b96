"""Broken files never crash `incidents check`: each runs the real command on its own project.

The corpus is `tests/validate/broken/<case>/`: the incident file(s) exactly as a contributor would commit
them, and `expected.txt` with the exit code and the first line the contributor sees. Inputs too
big (or too odd) to commit are generated here, in GENERATED. Every case must finish with that
exit code and first line, print no traceback, finish in MAX_SECONDS and fit in MEMORY_LIMIT.
"""

from __future__ import annotations

import os
import resource
import subprocess
import sys
import time
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path

import pytest
from conftest import BODY_EN, REPO, Project, incident_text, translation_text

BROKEN = Path(__file__).resolve().parent / "broken"
MAX_SECONDS = 10
MEMORY_LIMIT = 1 << 30  # address space of the checking process, in bytes
MAX_OUTPUT_LINES = 250  # at most 100 problems per file and a "... more" line (diagnostics.capped)

P = "incidents/acme-gpu-outage.md"
ORIGINAL = "acme-gpu-outage.md"
TRANSLATION = "acme-gpu-outage.ko.md"


@dataclass(frozen=True)
class Case:
    name: str
    exit: int
    first: str | None  # the first line of output; None when nothing is printed
    write: Callable[[Project], None]


def _committed(folder: Path) -> Case:
    fields = {}
    for line in (folder / "expected.txt").read_text(encoding="utf-8").splitlines():
        if line and not line.startswith("#"):
            key, _, value = line.partition(":")
            fields[key] = value.strip()

    def write(project: Project) -> None:
        for path in sorted(folder.iterdir()):
            if path.name != "expected.txt":
                project.write(f"incidents/{path.name}", path.read_bytes())

    return Case(folder.name, int(fields["exit"]), fields["first"] or None, write)


def _original(make: Callable[[], str | bytes]) -> Callable[[Project], None]:
    """Writes the original only; `make` builds its content when the case runs."""

    def write(project: Project) -> None:
        project.write(f"incidents/{ORIGINAL}", make())

    return write


def _with_translation(make: Callable[[], str]) -> Callable[[Project], None]:
    """Writes the original `make` builds and a valid translation, so no warning comes first."""

    def write(project: Project) -> None:
        project.write(f"incidents/{ORIGINAL}", make())
        project.write(f"incidents/{TRANSLATION}", translation_text())

    return write


def _replace(old: str, new: str) -> str:
    text = incident_text()
    assert old in text
    return text.replace(old, new, 1)


def _ten_megabytes() -> bytes:
    text = incident_text().encode()
    return text + b"x" * (10_000_000 - len(text) - 1) + b"\n"


def _symlink_outside(project: Project) -> None:
    target = project.write("secret.md", incident_text())
    (project.incidents / ORIGINAL).symlink_to(os.path.relpath(target, project.incidents))
    project.write(f"incidents/{TRANSLATION}", translation_text())


def _beside_translation(make: Callable[[Path], None]) -> Callable[[Project], None]:
    """The original as `make` leaves it (a link, a FIFO), beside a valid translation."""

    def write(project: Project) -> None:
        make(project.incidents / ORIGINAL)
        project.write(f"incidents/{TRANSLATION}", translation_text())

    return write


def _not_utf8_name(project: Project) -> None:
    name = os.fsdecode(b"acme-gpu-caf\xe9.md")  # a Latin-1 file name
    (project.incidents / name).write_text(incident_text("acme-gpu-cafe"), encoding="utf-8")


_SECTIONS = "Symptoms, Trigger, Detection, Actions, Follow-ups, Lessons"
_TERMS = ", ".join(["gpu-failure"] * 10_000)  # 130 kB
# Values before cause's items: the front matter itself, 7 single fields, domain and symptom with
# one item each, and cause's list: 13. So the 5001st value is cause[4987].
_TERM_COLUMN = len("cause: [") + 4987 * len("gpu-failure, ") + 1
_NESTED = "[" * 1000 + "4088" + "]" * 1000

GENERATED = [
    Case(
        "file-over-1mb",
        1,
        f"{P}:1:1: file is 10,000,000 bytes; an incident file may be at most 1,000,000",
        _original(_ten_megabytes),
    ),
    Case(
        "list-of-10000-terms",
        1,
        f"{P}:11:{_TERM_COLUMN}: cause[4987]: front matter has more than 5000 values",
        _with_translation(lambda: _replace("cause: [gpu-failure]", f"cause: [{_TERMS}]")),
    ),
    Case(
        "huge-single-line",
        1,
        f"{P}:3:8: title: should have at most 300 characters",
        _with_translation(
            lambda: _replace('title: "Acme: GPUs fall off the bus"', "title: " + "GPU " * 225_000)
        ),
    ),
    Case(
        "nested-1000-deep",
        1,
        # libyaml stops at 1000 levels while looking ahead, before the front matter's limit.
        f"{P}:15:1007: values are nested more than 8 levels deep",
        _with_translation(lambda: _replace("gpus: 4088", f"gpus: {_NESTED}")),
    ),
    Case(
        "number-with-5000-digits",
        1,
        f"{P}:15:9: scale.gpus: '1{'0' * 78}…' is too long for a number",
        _with_translation(lambda: _replace("gpus: 4088", "gpus: 1" + "0" * 5000)),
    ),
    Case(
        # `^##[ \t]+(.+?)[ \t#]*$` needs quadratic time on this line.
        "heading-with-900000-spaces",
        1,
        f"{P}:28:1: section 'Trigger{' ' * 72}…': unknown section; sections are {_SECTIONS}",
        _with_translation(lambda: _replace("## Trigger\n", "## Trigger" + " " * 900_000 + "?\n")),
    ),
    Case(
        "50000-misspelled-headings",
        1,
        f"{P}:24:1: section 'Symptom': unknown section; sections are {_SECTIONS} "
        "(did you mean 'Symptoms'?)",
        _with_translation(lambda: incident_text(body="## Symptom\n" * 50_000 + BODY_EN)),
    ),
    Case(
        "symlink-to-a-file-outside",
        1,
        f"{P}:1:1: is a symbolic link; commit the incident file itself",
        _symlink_outside,
    ),
    Case(
        "symlink-that-loops",
        1,
        f"{P}:1:1: is a symbolic link that loops back on itself; commit the incident file itself",
        _beside_translation(lambda path: path.symlink_to(path.name)),
    ),
    Case(
        "symlink-to-dev-zero",
        1,
        f"{P}:1:1: is a symbolic link to /dev/zero, outside the project; commit the incident "
        "file itself",
        _beside_translation(lambda path: path.symlink_to("/dev/zero")),
    ),
    Case(
        "symlink-to-nothing",
        1,
        f"{P}:1:1: is a symbolic link to gone.md, which does not exist; commit the incident "
        "file itself",
        _beside_translation(lambda path: path.symlink_to("gone.md")),
    ),
    Case(
        "fifo-named-like-an-incident",
        1,
        f"{P}:1:1: is a FIFO (named pipe), not a file; commit the incident file itself",
        _beside_translation(lambda path: os.mkfifo(path)),
    ),
    Case(
        "file-name-not-utf8",
        1,
        "incidents/acme-gpu-caf\ufffd.md:1:1: file name 'acme-gpu-caf\ufffd.md' is not '<id>.md': "
        "an id is lowercase words joined by hyphens, at most 80 characters "
        "(did you mean 'acme-gpu-caf.md'?)",
        _not_utf8_name,
    ),
]

COMMITTED = [
    _committed(folder)
    for folder in sorted(BROKEN.iterdir())
    if folder.is_dir() and not folder.name.startswith(".")  # .ruff_cache
]
CASES = COMMITTED + GENERATED


def _limit_memory() -> None:
    resource.setrlimit(resource.RLIMIT_AS, (MEMORY_LIMIT, MEMORY_LIMIT))


def run_check(root: Path) -> tuple[subprocess.CompletedProcess[str], float]:
    env = {**os.environ, "PYTHONIOENCODING": "utf-8"}  # strict: unprintable output fails
    started = time.monotonic()
    completed = subprocess.run(
        [sys.executable, "-m", "generator.cli", "check", "--root", str(root)],
        capture_output=True,
        text=True,
        encoding="utf-8",
        cwd=REPO,
        env=env,
        preexec_fn=_limit_memory,
        timeout=MAX_SECONDS * 3,
    )
    return completed, time.monotonic() - started


def test_corpus_is_big_enough():
    assert len(CASES) >= 30
    assert len({case.name for case in CASES}) == len(CASES)


def test_corpus_files_are_byte_exact():
    """Guards against an editor or git normalising the inputs that are about bytes."""
    assert b"\r\n" in (BROKEN / "crlf-accepted" / ORIGINAL).read_bytes()
    assert (BROKEN / "bom-accepted" / ORIGINAL).read_bytes().startswith(b"\xef\xbb\xbf")
    assert (BROKEN / "utf16" / ORIGINAL).read_bytes().startswith(b"\xff\xfe")
    assert b"\x00" in (BROKEN / "nul-in-yaml" / ORIGINAL).read_bytes()
    assert b"caf\xe9 " in (BROKEN / "not-utf8" / ORIGINAL).read_bytes()
    assert b"\x1b[31m" in (BROKEN / "control-character-in-body" / ORIGINAL).read_bytes()


@pytest.mark.parametrize("case", CASES, ids=lambda case: case.name)
def test_broken_input_is_reported_not_crashed(project: Project, case: Case):
    case.write(project)
    completed, seconds = run_check(project.root)
    output = completed.stdout.splitlines()
    assert "Traceback" not in completed.stdout
    assert "Traceback" not in completed.stderr, completed.stderr
    assert completed.returncode == case.exit, completed.stdout + completed.stderr
    assert (output[0] if output else None) == case.first
    summary = "ok: " if case.exit == 0 else "check failed: "
    assert completed.stderr.startswith(summary), completed.stderr
    assert len(output) <= MAX_OUTPUT_LINES
    assert seconds < MAX_SECONDS
    # ru_maxrss (KiB on Linux) of the largest child so far, this one included.
    assert resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss * 1024 < MEMORY_LIMIT
