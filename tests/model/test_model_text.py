"""The constrained text types of generator/model/text.py: partial dates (`parse_partial_date`,
`date_key`, `date_before`), `skeleton` (how a label looks: NFKC, case, lookalike letters, invisible
characters) and the messages of the one-line, plain-line and id validators as pydantic reports
them."""

from __future__ import annotations

from datetime import date, datetime

import pytest
from confusable_homoglyphs import categories
from pydantic import TypeAdapter, ValidationError

from generator.model.text import (
    INVISIBLE,
    Line,
    OccurredDate,
    PartialDate,
    PlainLine,
    Slug,
    date_before,
    date_key,
    is_known,
    lookalike_problem,
    parse_occurred,
    parse_partial_date,
    skeleton,
)

LINE = TypeAdapter(Line)
PLAIN = TypeAdapter(PlainLine)
SLUG = TypeAdapter(Slug)
DATE = TypeAdapter(PartialDate)
OCCURRED = TypeAdapter(OccurredDate)


def message(adapter: TypeAdapter, value: object) -> str:
    """The one message pydantic reports for `value`."""
    with pytest.raises(ValidationError) as failure:
        adapter.validate_python(value)
    errors = failure.value.errors()
    assert len(errors) == 1, errors
    return errors[0]["msg"]


class TestParsePartialDate:
    @pytest.mark.parametrize(
        ("value", "expected"),
        [
            ("2024", "2024"),
            ("2024-03", "2024-03"),
            ("2024-03-01", "2024-03-01"),
            ("  2024-03 ", "2024-03"),
            ("2024-02-29", "2024-02-29"),  # a leap day
            (date(2024, 3, 1), "2024-03-01"),  # YAML reads 2024-03-01 as a date
            (2024, "2024"),  # and 2024 as an int
        ],
    )
    def test_accepted_values_are_normalised(self, value, expected):
        assert parse_partial_date(value) == expected

    @pytest.mark.parametrize(
        "value",
        [
            None,
            "",
            "24",
            "2024-3",
            "2024/03",
            "2024-03-01T10:00",
            "2024-13",
            "2024-00",
            "2023-02-29",
            "2024-04-31",
            datetime(2024, 3, 1, 10, 0),
            999,
            10000,
            True,
            2024.0,
            [2024],
            {"year": 2024},
        ],
    )
    def test_anything_else_is_none(self, value):
        assert parse_partial_date(value) is None

    @pytest.mark.parametrize(
        ("value", "expected"),
        [
            (None, "Value error, is empty: write YYYY, YYYY-MM or YYYY-MM-DD"),
            (
                datetime(2024, 3, 1, 10, 0),
                "Value error, '2024-03-01 10:00:00' has a time of day; write YYYY, YYYY-MM or YYYY-MM-DD",
            ),
            ("2024-13", "Value error, '2024-13' has no month 13"),
            ("2023-02-29", "Value error, '2023-02-29' is not a day of the calendar"),
            ("March", "Value error, 'March' is not a date: write YYYY, YYYY-MM or YYYY-MM-DD"),
            ([1], "Value error, a list is not a date: write YYYY, YYYY-MM or YYYY-MM-DD"),
            ({"a": 1}, "Value error, a mapping is not a date: write YYYY, YYYY-MM or YYYY-MM-DD"),
        ],
    )
    def test_the_model_type_explains_what_is_wrong(self, value, expected):
        assert message(DATE, value) == expected

    def test_a_long_wrong_value_is_shortened_in_the_message(self):
        text = message(DATE, "x" * 500)
        assert "x" * 79 + "…'" in text
        assert "x" * 80 not in text


class TestOccurred:
    """`occurred` is a partial date or `unknown`, when the sources give no date; no other date
    field may be unknown (every report has a publication date)."""

    @pytest.mark.parametrize(
        ("value", "expected"),
        [("unknown", "unknown"), (" unknown ", "unknown"), ("2021", "2021"), (2021, "2021")],
    )
    def test_a_partial_date_or_unknown(self, value, expected):
        assert OCCURRED.validate_python(value) == expected
        assert parse_occurred(value) == expected

    def test_unknown_is_the_one_value_that_is_not_known(self):
        assert not is_known("unknown")
        assert is_known("2021") and is_known("2021-02-22")

    @pytest.mark.parametrize(
        ("value", "expected"),
        [
            ("Unknown", "Value error, 'Unknown': write unknown in lowercase"),
            (
                "March",
                "Value error, 'March' is not a date: write YYYY, YYYY-MM or YYYY-MM-DD, or "
                "unknown when the sources give no date",
            ),
            ("2024-13", "Value error, '2024-13' has no month 13"),
        ],
    )
    def test_what_is_wrong_names_unknown_where_it_could_help(self, value, expected):
        assert message(OCCURRED, value) == expected
        assert parse_occurred(value) is None

    def test_other_dates_may_not_be_unknown(self):
        assert parse_partial_date("unknown") is None
        assert message(DATE, "unknown") == (
            "Value error, 'unknown' is not a date: write YYYY, YYYY-MM or YYYY-MM-DD "
            "(only occurred may be unknown)"
        )


class TestDateKeyAndBefore:
    def test_missing_month_or_day_sorts_first(self):
        assert date_key("2024") == (2024, 0, 0)
        assert date_key("2024-03") == (2024, 3, 0)
        assert date_key("2024-03-07") == (2024, 3, 7)
        dates = ["2024-03-07", "2023", "2024", "2024-03", "2024-01-31"]
        assert sorted(dates, key=date_key) == [
            "2023",
            "2024",
            "2024-01-31",
            "2024-03",
            "2024-03-07",
        ]

    @pytest.mark.parametrize(
        ("a", "b"),
        [
            ("2023", "2024"),
            ("2023-12-31", "2024"),
            ("2024-02", "2024-03-01"),
            ("2024-03-01", "2024-03-02"),
            ("2024", "2025-01-01"),
        ],
    )
    def test_certainly_earlier(self, a, b):
        assert date_before(a, b)
        assert not date_before(b, a)

    @pytest.mark.parametrize(
        ("a", "b"),
        [
            ("2024", "2024-03"),  # same year: the year alone cannot say which came first
            ("2024-03", "2024"),
            ("2024-03", "2024-03-15"),
            ("2024-03-15", "2024-03"),
            ("2024-03-01", "2024-03-01"),
        ],
    )
    def test_not_earlier_at_the_precision_both_share(self, a, b):
        assert not date_before(a, b)


class TestSkeleton:
    def test_width_and_compatibility_forms_fold_with_nfkc(self):
        assert skeleton("ＧＰＵ ｄｒｉｖｅｒ") == "gpu driver"
        assert skeleton("ﬁle") == "file"  # the ligature ﬁ

    def test_case_is_folded(self):
        assert skeleton("InfiniBand Fabric") == skeleton("infiniband fabric") == "infiniband fabric"
        assert skeleton("Straße") == skeleton("STRASSE")

    def test_spaces_are_collapsed_and_trimmed(self):
        assert skeleton("  gpu \t  driver\n") == "gpu driver"

    @pytest.mark.parametrize(
        "invisible",
        [
            "\u200b",
            "\u200c",
            "\u200d",
            "\u2060",
            "\ufeff",
            "\u00ad",
            "\u034f",
            "\ufe0f",
            "\U000e0041",
        ],
    )
    def test_invisible_characters_are_removed(self, invisible):
        assert skeleton(f"et{invisible}cd") == "etcd"

    @pytest.mark.parametrize(
        ("lookalike", "latin"),
        [
            ("еtсd", "etcd"),  # Cyrillic е and с
            ("раѕѕ", "pass"),  # Cyrillic р, а, ѕ
            ("ΤΑΟ", "tao"),  # Greek capitals that casefold to mapped lowercase letters
            ("ονα", "ova"),  # Greek ο, ν, α (Unicode pairs Greek κ with Latin ĸ, not k)
            ("ᏀᏢᎪ", "gpa"),  # Cherokee
            ("Տ", "s"),  # Armenian
            ("ТОР", "top"),  # Cyrillic capitals
            ("һеlр", "help"),
        ],
    )
    def test_lookalike_letters_read_as_latin(self, lookalike, latin):
        assert lookalike != latin
        assert skeleton(lookalike) == skeleton(latin) == latin

    def test_capital_lookalikes_read_as_latin_too(self):
        for lookalike, latin in [("ΕΤCD", "etcd"), ("ΗΡ", "hp"), ("ΚΜΝ", "kmn"), ("К8Ѕ", "k8s")]:
            assert skeleton(lookalike) == skeleton(latin), lookalike

    def test_different_words_keep_different_skeletons(self):
        assert skeleton("etcd") != skeleton("etc")
        assert skeleton("GPU 고장") != skeleton("GPU 드라이버")
        assert skeleton("학습 작업 실패") == "학습 작업 실패"  # Hangul is left as it is


class TestLine:
    def test_surrounding_blanks_are_stripped(self):
        assert LINE.validate_python("  Acme: GPUs fall off  ") == "Acme: GPUs fall off"

    def test_text_is_nfc_normalised(self):
        decomposed = "Cafe\u0301"
        assert LINE.validate_python(decomposed) == "Caf\u00e9"

    @pytest.mark.parametrize("value", ["", "   "])
    def test_empty_is_refused(self, value):
        assert message(LINE, value) == "String should have at least 1 character"

    def test_too_long_is_refused(self):
        assert LINE.validate_python("a" * 300) == "a" * 300
        assert message(LINE, "a" * 301) == "String should have at most 300 characters"

    @pytest.mark.parametrize(
        ("value", "expected"),
        [
            ("first\nsecond", "Value error, must be a single line of text"),
            ("bell\x07", "Value error, contains control character U+0007; delete it"),
            ("tab\there", "Value error, contains control character U+0009; delete it"),
            ("del\x7f", "Value error, contains control character U+007F; delete it"),
            ("next\x85line", "Value error, contains control character U+0085; delete it"),
            ("line\u2028separator", "Value error, contains control character U+2028; delete it"),
            ("zero\u200bwidth", "Value error, contains the invisible character U+200B; delete it"),
            ("\ufeffbom", "Value error, contains the invisible character U+FEFF; delete it"),
            ("soft\u00adhyphen", "Value error, contains the invisible character U+00AD; delete it"),
        ],
    )
    def test_messages_name_the_character_to_delete(self, value, expected):
        assert message(LINE, value) == expected

    def test_a_trailing_line_break_is_stripped_not_refused(self):
        assert LINE.validate_python("title\n") == "title"


class TestPlainLine:
    @pytest.mark.parametrize(
        "value", ["<b>bold</b>", "a </i> b", "<!-- note -->", "<?xml", "x<Script>"]
    )
    def test_markup_is_refused(self, value):
        assert (
            message(PLAIN, value) == "Value error, HTML tags are not allowed here; write plain text"
        )

    @pytest.mark.parametrize("value", ["a < b and c > d", "1<2", "<3 GPUs", "x -> y"])
    def test_angle_brackets_that_are_not_tags_are_kept(self, value):
        assert PLAIN.validate_python(value) == value

    def test_the_line_rules_still_apply(self):
        assert message(PLAIN, "a\nb") == "Value error, must be a single line of text"


class TestSlug:
    @pytest.mark.parametrize("value", ["acme-dns-outage", "a", "gpu2", "2024-h100-failure"])
    def test_ids(self, value):
        assert SLUG.validate_python(value) == value

    @pytest.mark.parametrize(
        "value", ["Acme-DNS", "acme_dns", "-acme", "acme-", "acme--dns", "acme dns", "ümlaut"]
    )
    def test_friendly_message_for_a_wrong_id(self, value):
        assert message(SLUG, value) == (
            f"Value error, '{value}' is not an id: use lowercase words joined by hyphens, "
            "like acme-dns-outage"
        )

    def test_a_long_id_is_refused_by_length(self):
        assert SLUG.validate_python("a" * 80) == "a" * 80
        assert message(SLUG, "a" * 81) == "String should have at most 80 characters"

    def test_a_long_wrong_id_is_shortened_in_the_message(self):
        text = message(SLUG, "X" * 200)
        assert "'" + "X" * 79 + "…' is not an id" in text

    def test_not_a_string(self):
        assert message(SLUG, 42) == "Input should be a valid string"


class TestWhatUnicodeSaysIsInvisibleOrALookalike:
    """UTS #39 and Unicode's properties, not a hand list: every Default_Ignorable_Code_Point,
    every format character and the blank braille pattern are invisible; a word mixing scripts
    beyond the highly restrictive level, or written wholly in letters that look Latin, is a
    lookalike."""

    @pytest.mark.parametrize(
        "char",
        [
            "\U000e0041",  # TAG LATIN CAPITAL LETTER A: hidden text for language models
            "\U000e007f",  # CANCEL TAG
            "\u3164",  # HANGUL FILLER
            "\uffa0",  # HALFWIDTH HANGUL FILLER
            "\u034f",  # COMBINING GRAPHEME JOINER
            "\ufe0f",  # VARIATION SELECTOR-16
            "\U000e0100",  # VARIATION SELECTOR-17
            "\u2800",  # BRAILLE PATTERN BLANK
            "\u180e",  # MONGOLIAN VOWEL SEPARATOR
            "\u2064",  # INVISIBLE PLUS
        ],
    )
    def test_invisible(self, char):
        assert INVISIBLE.search(f"GPU{char}s")

    def test_ascii_is_visible_and_latin_or_common(self):
        """What the checks skip for ASCII text (file reading, lookalike_problem) rests on this:
        no ASCII character is invisible, and each is Latin or Common, so an ASCII word is in one
        script and has no lookalike."""
        ascii_chars = [chr(c) for c in range(128)]
        assert not [c for c in ascii_chars if INVISIBLE.match(c)]
        assert {categories.alias(c) for c in ascii_chars} == {"LATIN", "COMMON"}

    @pytest.mark.parametrize("text", ["GPU 드라이버", "日本語のGPU", "H100 80GB", "Яндекс", "10µs"])
    def test_usual_writing_passes(self, text):
        assert lookalike_problem(text) is None

    @pytest.mark.parametrize(
        ("text", "expected"),
        [
            ("ᏀᏢՍ failure", "mixes letters of several scripts (Armenian, Cherokee)"),
            ("pаypal", "mixes letters of several scripts (Cyrillic, Latin)"),
            ("ТОР outage", "written in Cyrillic letters that look like the Latin 'TOP'"),
            ("ᏀᏢᎪ", "written in Cherokee letters that look like the Latin 'GPA'"),
        ],
    )
    def test_lookalikes(self, text, expected):
        assert expected in lookalike_problem(text)


@pytest.mark.parametrize("value", ["0000", "0999-01", 1899, "1066-10-14"])
def test_a_year_before_computing_is_no_date(value):
    with pytest.raises(ValidationError, match="is before 1900"):
        DATE.validate_python(value)
