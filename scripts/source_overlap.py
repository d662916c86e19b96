"""Sentences of a case that follow their source too closely: a reviewer's aid, not a test.

    .venv/bin/python scripts/source_overlap.py incidents/x.md SOURCE.txt [SOURCE2.txt ...]

Case text must be written from notes, not from the source open beside it (CONTRIBUTING.md,
"Writing a case"). This compares every sentence of the case's prose, title and summary with the
source texts you read (saved as plain text) and lists the sentences that

- share a run of RUN or more words with a source (outside quotation marks and code), or
- keep a source sentence's skeleton: the same words in the same order for SKELETON or more of
  their length, even with a few words swapped.

Quoted wording ("…", “…”) and `code` are left out: quoting exactly, marked as a quotation, is how
a case keeps a source's words. The exit status is 1 when a sentence is listed. Only text in the
source's language is compared, so run it on the English file for an English source.
"""

from __future__ import annotations

import argparse
import difflib
import re
import sys
from pathlib import Path

RUN = 6
SKELETON = 0.6
MIN_WORDS = 6  # shorter sentences ("Hosts were drained.") match by chance

_QUOTED = re.compile(r'"[^"\n]*"|“[^”\n]*”|`[^`\n]*`|\[[^\]\n]*\]\([^)\n]*\)')
_WORD = re.compile(r"[0-9a-z가-힣]+(?:['’][a-z]+)?")
_SENTENCE_END = re.compile(r"(?<=[.!?])\s+|\n\s*\n|\n(?=\s*[-*] )")


def words(text: str) -> list[str]:
    return _WORD.findall(text.lower())


def sentences(text: str) -> list[str]:
    return [s.strip() for s in _SENTENCE_END.split(text) if s and s.strip()]


def case_sentences(markdown: str) -> list[str]:
    """The prose of an incident file: title and summary from the front matter, then the body."""
    front, body = "", markdown
    if markdown.startswith("---"):
        _, front, body = markdown.split("---", 2)
    found = []
    for line in front.splitlines():
        key, _, value = line.partition(":")
        if key in ("title", "summary"):  # the case's own, not its sources' titles (indented)
            found.append(value.strip().strip('"'))
    body = "\n".join(line for line in body.splitlines() if not line.startswith("#"))
    found += [s.lstrip("-* ").strip() for s in sentences(body)]
    return [s for s in found if s]


def longest_run(sentence: list[str], grams: dict[int, set[tuple[str, ...]]]) -> int:
    """The longest run of `sentence`'s words that also occurs in the source (capped)."""
    top, best = max(grams), 0
    for start in range(len(sentence) - RUN + 1):
        length = RUN
        while (
            start + length <= len(sentence)
            and length <= top
            and tuple(sentence[start : start + length]) in grams[length]
        ):
            best = max(best, length)
            length += 1
    return best


def review(case_text: str, sources: list[str]) -> list[tuple[str, str, int, float]]:
    """(case sentence, closest source sentence, shared run, skeleton ratio) for each sentence
    that follows a source too closely."""
    source_sentences = [words(s) for text in sources for s in sentences(text)]
    source_words = [w for text in sources for w in words(text)]
    grams = {
        n: {tuple(source_words[i : i + n]) for i in range(len(source_words) - n + 1)}
        for n in range(RUN, RUN + 30)
    }
    flagged = []
    for sentence in case_sentences(case_text):
        own = words(_QUOTED.sub(" ", sentence))
        if len(own) < MIN_WORDS:
            continue
        run = longest_run(own, grams)
        matcher = difflib.SequenceMatcher(autojunk=False)
        matcher.set_seq2(own)
        ratio, closest = 0.0, []
        for candidate in source_sentences:
            if abs(len(candidate) - len(own)) > len(own):
                continue
            matcher.set_seq1(candidate)
            if matcher.real_quick_ratio() < SKELETON or matcher.quick_ratio() < SKELETON:
                continue
            score = matcher.ratio()
            if score > ratio:
                ratio, closest = score, candidate
        if run >= RUN or ratio >= SKELETON:
            flagged.append((sentence, " ".join(closest), run, ratio))
    return flagged


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("case", type=Path)
    parser.add_argument("sources", type=Path, nargs="+")
    args = parser.parse_args(argv)
    texts = [p.read_text(encoding="utf-8", errors="replace") for p in args.sources]
    flagged = review(args.case.read_text(encoding="utf-8"), texts)
    for sentence, closest, run, ratio in flagged:
        print(f"- {sentence}\n  shared run {run} words, skeleton {ratio:.2f}: {closest[:200]}")
    total = len(case_sentences(args.case.read_text(encoding="utf-8")))
    print(f"{len(flagged)} of {total} sentences follow a source too closely", file=sys.stderr)
    return 1 if flagged else 0


if __name__ == "__main__":
    sys.exit(main())
