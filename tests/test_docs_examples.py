"""The examples of CONTRIBUTING.md and README.md are run, and what they show must be what the
tools print. Examples are marked with HTML comments (invisible where Markdown is rendered):

    <!-- example: run -->            the fenced block that follows is run, command by command
    <!-- example: run COMMAND -->    COMMAND is run (its output is shown, not the command)
    <!-- example: output -->         the fenced block that follows is what the last run printed
                                     (standard output, then standard error); a line `…` stands
                                     for any number of lines, `…` inside a line for any text
    <!-- example: edit FILE: OLD => NEW -->   the text OLD in FILE becomes NEW

Each `## ` section of a document starts from a fresh copy of the repository's library.
"""

from __future__ import annotations

import re
import shlex
import shutil
import subprocess
import sys
from dataclasses import dataclass
from pathlib import Path

import pytest
from conftest import REPO

BIN = Path(sys.executable).parent
DOCUMENTS = ("CONTRIBUTING.md", "README.md")
MARK = re.compile(r"^<!-- example: (run|output|edit)(?: (.*?))? -->$")
FENCE = re.compile(r"^```")


@dataclass
class Step:
    kind: str  # run, output, edit, reset
    text: str  # commands, expected output, or the edit
    line: int  # where it is in the document


def steps(document: str) -> list[Step]:
    lines = (REPO / document).read_text(encoding="utf-8").splitlines()
    out: list[Step] = []
    at = 0
    fenced = False  # inside a code block that is not an example (a sample file, say)
    while at < len(lines):
        line = lines[at]
        if FENCE.match(line):
            fenced = not fenced
        if fenced:
            at += 1
            continue
        if line.startswith("## "):
            out.append(Step("reset", line, at + 1))
        found = MARK.match(line.strip())
        if found:
            kind, argument = found.group(1), found.group(2)
            if kind == "edit" or argument:
                out.append(Step(kind, argument or "", at + 1))
            else:
                start = at + 1
                while start < len(lines) and not FENCE.match(lines[start]):
                    if lines[start].strip() and not MARK.match(lines[start].strip()):
                        raise AssertionError(f"{document}:{at + 1}: no code block after the mark")
                    start += 1
                end = start + 1
                while end < len(lines) and not FENCE.match(lines[end]):
                    end += 1
                out.append(Step(kind, "\n".join(lines[start + 1 : end]), at + 1))
                at = end
        at += 1
    return out


def fresh_library(folder: Path) -> Path:
    shutil.rmtree(folder, ignore_errors=True)
    folder.mkdir(parents=True)
    for name in ("taxonomy.yml", "mkdocs.yml"):
        shutil.copy(REPO / name, folder / name)
    for name in ("incidents", "schema"):
        shutil.copytree(REPO / name, folder / name)
    return folder


def commands(block: str) -> list[str]:
    joined = block.replace("\\\n", " ")
    return [
        line.strip() for line in joined.splitlines() if line.strip() and not line.startswith("#")
    ]


def run(command: str, cwd: Path) -> str:
    words = shlex.split(command)
    if words[0] == ".venv/bin/incidents":
        words[0] = str(BIN / "incidents")
    else:
        raise AssertionError(f"the examples run only the incidents command, not {words[0]}")
    done = subprocess.run(
        words, cwd=cwd, capture_output=True, text=True, timeout=300, stdin=subprocess.DEVNULL
    )
    return done.stdout + done.stderr


def matches(expected: str, output: str) -> bool:
    """`expected`'s lines against `output`'s: `…` alone for any lines, `…` in a line for any text."""
    want = expected.splitlines()
    have = output.splitlines()
    patterns = [
        None
        if line.strip() == "…"
        else re.compile(".*".join(map(re.escape, line.split("…"))) + "$")
        for line in want
    ]

    def fits(i: int, j: int) -> bool:
        if i == len(patterns):
            return j == len(have)
        if patterns[i] is None:
            return any(fits(i + 1, k) for k in range(j, len(have) + 1))
        return j < len(have) and bool(patterns[i].match(have[j])) and fits(i + 1, j + 1)

    return fits(0, 0)


@pytest.mark.parametrize("document", DOCUMENTS)
def test_the_documents_examples_print_what_they_show(document, tmp_path):
    found = steps(document)
    if document == "CONTRIBUTING.md":
        assert sum(s.kind == "output" for s in found) >= 8  # both languages' walk-through
    library = fresh_library(tmp_path / "library")
    last = None
    for step in found:
        where = f"{document}:{step.line}"
        if step.kind == "reset":
            library, last = fresh_library(tmp_path / "library"), None
        elif step.kind == "run":
            last = "".join(run(c, library) for c in commands(step.text))
        elif step.kind == "edit":
            name, _, change = step.text.partition(": ")
            old, _, new = change.partition(" => ")
            path = library / name
            text = path.read_text(encoding="utf-8")
            assert old in text, f"{where}: '{old}' is not in {name}"
            path.write_text(text.replace(old, new, 1), encoding="utf-8")
        elif step.kind == "output":
            assert last is not None, f"{where}: output shown before anything was run"
            assert matches(step.text, last), (
                f"{where}: the document shows\n{step.text}\n\nbut the tool printed\n{last}"
            )


def test_the_matcher():
    assert matches("a\n…\nd", "a\nb\nc\nd")
    assert matches("a …", "a 54 incidents")
    assert not matches("a\nd", "a\nb\nd")
    assert matches("…\nx\n…", "x")


def worked_examples() -> dict[str, str]:
    """CONTRIBUTING's finished incident files, by language: the fenced Markdown blocks that
    hold a whole incident."""
    text = (REPO / "CONTRIBUTING.md").read_text(encoding="utf-8")
    blocks = re.findall(r"^```markdown\n(---\n.*?)^```$", text, re.S | re.M)
    return {re.search(r"^lang: (\w+)$", b, re.M).group(1): b for b in blocks}


def as_translation(original: str) -> str:
    """An original's title, summary and body as a translation file holds them."""
    head, _, body = original[len("---\n") :].partition("\n---\n")
    kept = [line for line in head.splitlines() if line.startswith(("title:", "summary:"))]
    return "---\n" + "\n".join(kept) + "\n---\n" + body


def proposed_term() -> str:
    """CONTRIBUTING's example of a new organization term (section 6), as taxonomy.yml holds it."""
    text = (REPO / "CONTRIBUTING.md").read_text(encoding="utf-8")
    (block,) = set(re.findall(r"^```yaml\n(      - id: acme\n.*?)^```$", text, re.S | re.M))
    return block


@pytest.mark.parametrize("lang", ["ko", "en"])
def test_the_worked_example_passes_once_its_two_pointed_out_problems_are_fixed(lang, tmp_path):
    """Each language's example, with the other as its translation, passes `check --strict`
    once 'acme' is proposed as section 6 shows and the invented acme.example address (which
    the text says is flagged) is a real one: it follows every rule it teaches."""
    examples = worked_examples()
    assert sorted(examples) == ["en", "ko"]
    other = "en" if lang == "ko" else "ko"
    library = fresh_library(tmp_path / "library")
    taxonomy = library / "taxonomy.yml"
    text = taxonomy.read_text(encoding="utf-8")
    start = text.index("  - id: organization\n")
    end = text.index("\n  - id: ", start + 1) + 1
    taxonomy.write_text(text[:end] + proposed_term() + text[end:], encoding="utf-8")
    name = "incidents/acme-etcd-quorum-loss-2024"
    real = examples[lang].replace("https://acme.example/", "https://acme.dev/")
    (library / f"{name}.md").write_text(real, encoding="utf-8")
    (library / f"{name}.{other}.md").write_text(as_translation(examples[other]), encoding="utf-8")
    output = run(f".venv/bin/incidents check --strict {name}.md", library)
    assert matches("ok: … incidents checked, 0 error(s), 0 warning(s)", output), output


def test_the_sections_of_contributing_that_other_files_point_to_exist():
    """taxonomy.yml sends contributors to CONTRIBUTING's "Proposing a term" and "Adding a facet";
    a pointer to a heading that does not exist leaves them with nothing."""
    headings = {
        re.sub(r"^#+\s+(?:[\d.]+\s+)?", "", line).strip()
        for line in (REPO / "CONTRIBUTING.md").read_text(encoding="utf-8").splitlines()
        if line.startswith("#")
    }
    pointer = re.compile(r'CONTRIBUTING(?:\.md)?,? \(?"([^"]+)"')
    named = {
        (path.name, title)
        for path in [REPO / "taxonomy.yml", *sorted((REPO / "generator").rglob("*.py"))]
        for title in pointer.findall(path.read_text(encoding="utf-8"))
    }
    assert ("taxonomy.yml", "Adding a facet") in named
    assert [(name, title) for name, title in sorted(named) if title not in headings] == []
