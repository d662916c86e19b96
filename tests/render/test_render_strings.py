"""Reader-facing strings (generator/render/strings.py): every string exists in both languages,
both spell the same `{placeholders}` (with the few deliberate differences listed here), every
string formats with the values its callers pass, and the keys templates use all exist."""

from __future__ import annotations

import re
import string
from importlib import resources

import pytest

from generator.languages import LANGS
from generator.model.incident import Scale
from generator.render import strings

KEYS = sorted(strings.strings_for("en"))

# Where the languages deliberately differ: English lowercases a facet inside a sentence
# ("By cause"), Korean keeps the label ("원인별"); English spells out "1 case".
DIFFERENT_PLACEHOLDERS = {
    "by_facet": ({"facet"}, {"facet_lower"}),
    "all_terms_of": ({"facet"}, {"facet_lower"}),
}


def placeholders(text: str) -> set[str]:
    return {name for _, name, _, _ in string.Formatter().parse(text) if name is not None}


def test_every_string_in_both_languages():
    for lang in LANGS:
        assert sorted(strings.strings_for(lang)) == KEYS
    for key in KEYS:
        for lang in LANGS:
            text = strings.t(key, lang)
            assert text.strip() == text and text, (key, lang)


def test_korean_and_english_differ_where_they_should():
    """A string left untranslated shows up as the same text in both; only names stay alike."""
    same = {key for key in KEYS if strings.t(key, "ko") == strings.t(key, "en")}
    assert same == {"site_title", "matrix_title"}


@pytest.mark.parametrize("key", KEYS)
def test_both_languages_have_the_same_placeholders(key):
    ko = placeholders(strings.t(key, "ko"))
    en = placeholders(strings.t(key, "en"))
    assert (ko, en) == DIFFERENT_PLACEHOLDERS.get(key, (en, en))


def test_the_deliberate_differences_are_still_there():
    for key, (ko, en) in DIFFERENT_PLACEHOLDERS.items():
        assert placeholders(strings.t(key, "ko")) == ko
        assert placeholders(strings.t(key, "en")) == en


@pytest.mark.parametrize("key", KEYS)
def test_formats_with_every_value_either_language_names(key):
    names = placeholders(strings.t(key, "ko")) | placeholders(strings.t(key, "en"))
    values = {name: f"<{name}>" for name in names}
    for lang in LANGS:
        text = strings.t(key, lang, **values) if values else strings.t(key, lang)
        assert "{" not in text and "}" not in text, (key, lang)
        for name in placeholders(strings.t(key, lang)):
            assert f"<{name}>" in text


def test_t_formats_only_when_given_values():
    assert strings.t("cases_count", "en", n=3) == "3 cases"
    assert strings.t("cases_count", "ko", n="1,234") == "사례 1,234건"
    assert strings.t("cases_count", "en") == "{n} cases"  # the browser formats it (terms.js)
    assert strings.t("page_n", "ko", n=2) == "2쪽"
    with pytest.raises(KeyError):
        strings.t("no-such-string", "en")


def test_strings_for_is_a_copy():
    copy = strings.strings_for("en")
    copy["library"] = "changed"
    assert strings.t("library", "en") == "All cases"


def test_every_key_the_templates_use_exists():
    folder = resources.files("generator.render") / "templates"
    used: set[str] = set()
    for template in folder.iterdir():
        if template.name.endswith(".html"):
            text = template.read_text(encoding="utf-8")
            used |= set(re.findall(r"""\bt\(\s*["']([a-z_]+)["'](?!\s*~)""", text))
    assert len(used) > 40
    assert used <= set(KEYS), used - set(KEYS)
    # case.html builds t("scale_" ~ key) for each field of Scale
    assert {f"scale_{key}" for key in Scale.model_fields} <= set(KEYS)


def test_every_key_the_browser_uses_exists():
    folder = resources.files("generator.outputs") / "assets"
    used: set[str] = set()
    for script in folder.iterdir():
        if script.name.endswith(".js"):
            used |= set(re.findall(r"\bS\.([a-z_]+)", script.read_text(encoding="utf-8")))
    assert used
    assert used <= set(KEYS), used - set(KEYS)


@pytest.mark.parametrize(
    ("value", "ko", "en"),
    [
        ("2024-03-12", "2024년 3월 12일", "12 March 2024"),
        ("2024-03", "2024년 3월 (일 미상)", "March 2024 (day not given)"),
        ("2024", "2024년 (월 미상)", "2024 (month not given)"),
    ],
)
def test_a_date_is_shown_as_precisely_as_it_is_known(value, ko, en):
    assert (strings.date_text(value, "ko", True), strings.date_text(value, "en", True)) == (ko, en)
    assert strings.date_text(value, "en") == en.split(" (")[0]


def test_an_unknown_date_says_so_and_why_in_both_languages():
    """`occurred: unknown`: short on a card, and on the case page the reason, that the sources
    give no date."""
    assert strings.date_text("unknown", "ko") == "미상"
    assert strings.date_text("unknown", "en") == "unknown"
    assert strings.date_text("unknown", "ko", True) == "미상 (출처에 날짜가 없음)"
    assert strings.date_text("unknown", "en", True) == "Unknown (the sources give no date)"
