"""The documents Pagefind indexes: Korean spelled out in ASCII, attributes left as written."""

from __future__ import annotations

import re

from generator.outputs.search_documents import search_document, spell_hangul


def test_each_syllable_becomes_q_and_five_digits():
    assert spell_hangul("가") == "q00000"
    assert spell_hangul("힣") == "q11171"
    assert spell_hangul("GPU가 배선") == "GPUq00000 q04144q05408"
    assert spell_hangul("InfiniBand, 2024") == "InfiniBand, 2024"


def test_a_prefix_of_a_word_spells_a_prefix_of_its_spelling():
    word = "인피니밴드가"
    for end in range(1, len(word) + 1):
        assert spell_hangul(word).startswith(spell_hangul(word[:end]))
    # No Hangul is left, so Pagefind chunks Korean words like English ones.
    assert not re.search("[\uac00-\ud7a3]", spell_hangul(word))


def test_the_document_spells_text_but_not_attributes():
    content = (
        "<article data-pagefind-body><h1>인피니밴드 장애</h1>"
        '<span data-pagefind-meta="title[data-value]" data-value="인피니밴드 장애"></span>'
        "<p>GPU가 &amp; 배선</p></article>"
    )
    document = search_document("ko", content)
    assert document.startswith('<!doctype html><html lang="ko">')
    assert 'data-value="인피니밴드 장애"' in document
    assert f"<h1>{spell_hangul('인피니밴드 장애')}</h1>" in document
    assert f"<p>GPUq00000 &amp; {spell_hangul('배선')}</p>" in document


def test_only_the_indexed_element_is_kept():
    content = (
        '<nav>주변</nav><article class="il-case" data-pagefind-body><h1>본문</h1></article>'
        '<section><article class="il-card">관련 사례</article></section>'
    )
    document = search_document("ko", content)
    assert spell_hangul("본문") in document
    assert "nav" not in document and "il-card" not in document
