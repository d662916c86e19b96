"""The documents Pagefind indexes, one per case and language: the words the search corpus
gives the case (generator/search/corpus.py), nothing else, so that Pagefind's postings are the
corpus's postings and both of the site's engines rank the same cases the same way. Pure.

Two adjustments make Pagefind keep the words as they are:
- Every document says `lang="ko"`, a language Pagefind has no stemmer for, so it neither stems
  the (already stemmed) words nor the words searched. The browser loads each language's index
  from its own folder; Pagefind uses an index of another language when it is the only one.
- Korean is spelled in ASCII. Pagefind 1.5 splits its word index into chunks so that a search
  downloads only the chunks of its words, but it never splits the part whose words start with
  Hangul (Pagefind issue #1211): on a 10,000-case library every Korean search downloaded one
  chunk of about 8 MB. Spelled, Korean words are chunked like English ones.
"""

from __future__ import annotations

import html
from collections.abc import Iterable

# The language every search document is indexed as (see above).
INDEX_LANGUAGE = "ko"
_SPELLING = {code: f"q{code - 0xAC00:05d}" for code in range(0xAC00, 0xD7A4)}


def spell_hangul(text: str) -> str:
    """Each Hangul syllable as `q` and its five-digit number in the Unicode block (가 -> q00000).

    Fixed width, so a prefix of a Korean word is a prefix of its spelling. Must match
    `spellHangul` in library.js (tests/search compares them)."""
    return text.translate(_SPELLING)


def search_document(words: Iterable[str]) -> str:
    """The document Pagefind indexes for one case: its words, spelled, in order."""
    body = html.escape(" ".join(spell_hangul(word) for word in sorted(words)))
    return (
        f'<!doctype html><html lang="{INDEX_LANGUAGE}"><head><meta charset="utf-8">'
        f"<title></title></head><body>{body}</body></html>"
    )
