"""The sentences a result card may quote (generator/search/corpus.py, `sentences`) are read from
a whole section at once; they are those of reading it line by line, as the definition says:
each line without its leading list marks, digits and dots, as plain text, split after . ! ?
and 。 (the oracle below), for the repository's cases and for random Markdown."""

from __future__ import annotations

import random
import re

from conftest import REPO

from generator.search.corpus import plain_text, sentences

_SENTENCE = re.compile(r"(?<=[.!?。])\s+|\n+")


def by_line(markdown: str) -> list[str]:
    out = []
    for line in markdown.split("\n"):
        line = plain_text(line.lstrip("-*0123456789. "))
        out.extend(s.strip() for s in _SENTENCE.split(line) if s.strip())
    return out


PIECES = [
    "- ", "* ", "1. ", "12) ", "  ", "\n", "\n\n", "\t", "\u00a0", "\u2028", ". ", "! ", "? ",
    "。", ".", "-x", "`code`", "**bold**", "_it_", "# ", "> ", "[link](https://example.org/a.b)",
    "https://example.org/x?y=1.", "(aside)", "|", "GPU", "노드 8대", "다.", "3 GPUs", "v1.2.3",
    "e.g. this", "end.\n", " \n ", "-", "*", "0", "word",
]  # fmt: skip


def test_the_same_sentences_as_line_by_line_for_random_markdown():
    rng = random.Random(20)
    for _ in range(5000):
        text = "".join(rng.choice(PIECES) for _ in range(rng.randint(0, 25)))
        assert sentences(text) == by_line(text), repr(text)


def test_the_same_sentences_as_line_by_line_for_every_case_of_the_repository():
    files = sorted((REPO / "incidents").glob("*.md"))
    assert files
    for path in files:
        body = path.read_text(encoding="utf-8").split("\n---\n", 1)[1]
        for section in body.split("\n## "):
            assert sentences(section) == by_line(section), path.name
