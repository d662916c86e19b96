"""Text that talks about the report, or about the case itself, instead of the incident.

A case says what happened. "The report does not say how the failure was first noticed" says
nothing about the incident: a part the sources do not cover is left out of the body and listed in
`not_in_sources`, and the page then says so in the reader's language. Nor does a case describe
itself ("the part of the report this entry draws on"). CONTRIBUTING forbids both; these patterns
find them in either language. Saying what a source gives instead of a date stays allowed: that
is how a case explains the precision of its dates.
"""

from __future__ import annotations

import re

_REPORT_EN = (
    r"(?:report|reports|postmortem|post-mortem|paper|article|blog\s+post|post|write-up|writeup|"
    r"source|sources|announcement|documentation)"
)
# "The report does not say …" and its kin: a report as the subject, a verb of telling denied.
# Every match begins with a word starting with t, a, i, o, w or s: the lookahead for those letters
# lets the engine pass over most places in a text with one test instead of trying each word (this
# pattern reads every section of every case). A word that begins with another letter needs it.
_SILENT_EN = re.compile(
    r"(?=[taiows])(?:"
    r"\b(?:the|this|that|its|their|these|those|our|any)\s+(?:[\w'-]+\s+){0,2}?"
    + _REPORT_EN
    + r"\s+(?:(?:does|do|did)\s+not|doesn't|don't|didn't|never)\s+"
    r"(?:say|says|mention|describe|explain|record|cover|document|detail|tell|specify|discuss|"
    r"give|name|list|include|state|quantify|identify|disclose|report|break\s+down)\b"
    r"|\b(?:is|are|was|were)\s+not\s+(?:mentioned|described|explained|recorded|covered|"
    r"documented|detailed|specified|stated|said|given)\s+(?:in|by)\s+(?:the|any|its)\s+"
    + _REPORT_EN
    + r"\b"
    r"|\b(?:the\s+)?sources?\s+(?:is|are)\s+silent\b"
    r")",
    re.IGNORECASE,
)
_SELF_EN = re.compile(
    r"\bthis\s+(?:entry|page)\b|\bthe\s+part\s+of\s+the\s+\w+\s+(?:this|that)\s+(?:case|entry)\b",
    re.IGNORECASE,
)
_DATE_EN = re.compile(r"\b(?:dat(?:e|es|ed)|year)\b", re.IGNORECASE)

_NOT_HANGUL_BEFORE = r"(?<![\uac00-\ud7a3])"
# "보고서에는 … 나오지 않습니다" and its kin, within one sentence.
_SILENT_KO = re.compile(
    _NOT_HANGUL_BEFORE + r"(?:보고서|포스트모템|논문|출처|원문|글|발표|공지|자료|블로그|플레이북)"
    r"(?:에는|에서는|은|는|도|에도|에서도|만으로는)"
    r"[^.!?]{0,80}?(?:나오지|언급하지|설명하지|다루지|기록하지|말하지|쓰여\s?있지|적혀\s?있지|"
    r"밝히지|적지|알려\s?주지)\s?않"
)
_SELF_KO = re.compile(_NOT_HANGUL_BEFORE + r"이\s(?:항목|페이지)")
_DATE_KO = re.compile(r"날짜|연도|일자|언제")
_SENTENCE_END = re.compile(r"[.!?](?:\s|$)")

ABOUT_THE_REPORT = (
    "talks about the report, not the incident: leave out what the sources do not cover (a "
    "whole section goes in not_in_sources)"
)
ABOUT_ITSELF = "talks about this case itself, not the incident: say what happened"


def about_the_sources(text: str, lang: str) -> list[tuple[int, str]]:
    """(offset, message) for each sentence of `text` that talks about the report's silence or
    about the case itself."""
    silent, itself, dated = (
        (_SILENT_KO, _SELF_KO, _DATE_KO) if lang == "ko" else (_SILENT_EN, _SELF_EN, _DATE_EN)
    )
    found = []
    for match in silent.finditer(text):
        if not dated.search(_sentence(text, match.start(), match.end())):
            found.append((match.start(), ABOUT_THE_REPORT))
    found.extend((match.start(), ABOUT_ITSELF) for match in itself.finditer(text))
    return sorted(found)


def _sentence(text: str, start: int, end: int) -> str:
    """The sentence around text[start:end]."""
    before = [m.end() for m in _SENTENCE_END.finditer(text, 0, start)]
    after = _SENTENCE_END.search(text, end)
    return text[before[-1] if before else 0 : after.end() if after else len(text)]
