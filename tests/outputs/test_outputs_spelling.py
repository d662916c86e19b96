"""Korean spelled out in ASCII for the names of the vocabulary parts (words/<start>.js)."""

from __future__ import annotations

import re

from generator.outputs.search_data import part_file, spell_hangul


def test_each_syllable_becomes_q_and_five_digits():
    assert spell_hangul("가") == "q00000"
    assert spell_hangul("힣") == "q11171"
    assert spell_hangul("GPU가 배선") == "GPUq00000 q04144q05408"
    assert spell_hangul("InfiniBand, 2024") == "InfiniBand, 2024"


def test_a_prefix_of_a_word_spells_a_prefix_of_its_spelling():
    word = "인피니밴드가"
    for end in range(1, len(word) + 1):
        assert spell_hangul(word).startswith(spell_hangul(word[:end]))
    # No Hangul is left in a file name.
    assert not re.search("[\uac00-\ud7a3]", spell_hangul(word))


def test_a_part_file_is_named_in_ascii():
    assert part_file("배") == "q04144.js"
    assert part_file("gp") == "gp.js"
