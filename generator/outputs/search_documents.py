"""The documents Pagefind indexes, one per case page: what the page shows inside its
`data-pagefind-body` element, with Korean spelled out in ASCII. Pure.

Pagefind 1.5 splits its word index into chunks so that a search downloads only the chunks of its
words, but it never splits the part of the index whose words start with Hangul (Pagefind issue
#1211): on a 10,000-case library every Korean search downloaded one chunk of about 8 MB. Spelled
out, Korean words are chunked like English ones. Result titles and summaries come from
attributes, which are left as written.
"""

from __future__ import annotations

import html
import re

_SPELLING = {code: f"q{code - 0xAC00:05d}" for code in range(0xAC00, 0xD7A4)}
_TEXT = re.compile(r">([^<]+)<")


def spell_hangul(text: str) -> str:
    """Each Hangul syllable as `q` and its five-digit number in the Unicode block (가 -> q00000).

    Fixed width, so a prefix of a Korean word is a prefix of its spelling, and digits, so no
    stemmer changes the end of a spelled word. Must match `spellHangul` in library.js."""
    return text.translate(_SPELLING)


def search_document(lang: str, content: str) -> str:
    """The document Pagefind indexes for one case page: the part of its content Pagefind reads
    (the `data-pagefind-body` element), Korean text spelled out. Pagefind's memory grows with
    what it is given; the rest of the page (related cases, sources, citation) would be read and
    thrown away."""
    start = content.find("<article ")
    if start != -1 and "data-pagefind-body" in content[start : content.find(">", start)]:
        end = content.find("</article>", start)
        if end != -1:
            content = content[start : end + len("</article>")]
    text = _TEXT.sub(lambda m: ">" + spell_hangul(m.group(1)) + "<", content)
    return (
        f'<!doctype html><html lang="{html.escape(lang)}"><head><meta charset="utf-8">'
        f"<title></title></head><body>{text}</body></html>"
    )
