"""The documents Pagefind indexes: a case's corpus words, Korean spelled out in ASCII, in a
language Pagefind does not stem."""

from __future__ import annotations

import re

from generator.outputs.search_documents import INDEX_LANGUAGE, search_document, spell_hangul


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


def test_the_document_is_the_words_spelled_and_sorted():
    document = search_document({"배선", "gpu", "2024"})
    assert document.startswith(f'<!doctype html><html lang="{INDEX_LANGUAGE}">')
    body = document.split("<body>", 1)[1].split("</body>", 1)[0]
    assert body == f"2024 gpu {spell_hangul('배선')}"
