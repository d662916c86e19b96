"""What reviewers catch (generator/validate/review.py): each check on the line a contributor sees,
and the library itself passing all of them."""

from __future__ import annotations

import re
from pathlib import Path

import pytest
from conftest import BODY_EN, BODY_KO, TODAY, Project, translation_text
from hypothesis import given, settings
from hypothesis import strategies as st

from generator.load.project import ProjectPaths
from generator.pipeline.check import check_project
from generator.validate import review

P = "incidents/acme-gpu-outage.md"
T = "incidents/acme-gpu-outage.ko.md"


def found(project: Project) -> list[str]:
    checked = check_project(ProjectPaths.at(project.root), TODAY)
    return [d.format() for d in checked.diagnostics]


def test_the_plain_fixture_passes_every_review(project: Project):
    project.add_incident()
    assert found(project) == []


def test_a_number_changed_in_one_language(project: Project):
    project.add_incident(body=BODY_EN.replace("Drained the hosts.", "Drained 384 hosts."))
    project.write(T, translation_text(body=BODY_KO.replace("호스트를", "호스트 348대를")))
    assert found(project) == [
        f"{T}:20:7: warning: body: 348 is not in the English text (acme-gpu-outage.md); "
        "both languages carry the same numbers",
        f"{P}:38:11: warning: body: 384 is not in the Korean text (acme-gpu-outage.ko.md); "
        "both languages carry the same numbers",
    ]


def test_numbers_written_as_words_or_months_answer_for_digits(project: Project):
    english = BODY_EN.replace("Drained the hosts.", "Drained eight hosts on August 3.")
    project.add_incident(body=english)
    korean = BODY_KO.replace("호스트를 뺐습니다.", "8월 3일에 호스트 8대를 뺐습니다.")
    project.write(T, translation_text(body=korean))
    assert found(project) == []


def test_an_actions_item_dropped_in_the_translation(project: Project):
    project.add_incident(body=BODY_EN.replace("- Drained the hosts.", "- Drained.\n- Rebooted."))
    assert found(project) == [
        f"{T}:18:1: warning: section '조치': 1 list item(s) here, 2 under '## Actions' in "
        "acme-gpu-outage.md:36; both languages list the same items"
    ]


def test_actions_written_as_prose(project: Project):
    project.add_incident(body=BODY_EN.replace("- Drained the hosts.", "We drained the hosts."))
    project.write(
        T, translation_text(body=BODY_KO.replace("- 호스트를 뺐습니다.", "호스트를 뺐습니다."))
    )
    assert found(project) == [
        f"{T}:18:1: warning: section '조치': '## 조치' is written as prose; "
        "write it as a list, one '- ' item each",
        f"{P}:36:1: warning: section 'Actions': '## Actions' is written as prose; "
        "write it as a list, one '- ' item each",
    ]


def test_english_prose_under_korean_headings(project: Project):
    english = "The hosts were drained one by one while the on-call engineer watched the fabric."
    project.add_incident(body=BODY_EN.replace("Check every host.", english))
    project.write(T, translation_text(body=BODY_KO.replace("모든 호스트를 확인합니다.", english)))
    assert found(project) == [
        f"{T}:26:1: warning: section '교훈': reads as English under a Korean heading; write the "
        "section in Korean (names, objects and error strings stay in Latin letters)"
    ]


def test_korean_with_names_and_error_strings_in_latin_letters_is_korean(project: Project):
    korean = (
        "Kubernetes API 서버가 `etcdserver: request timed out`을 내며 NVIDIA GPU Operator의 "
        "DaemonSet을 다시 만들었습니다."
    )
    project.add_incident()
    project.write(T, translation_text(body=BODY_KO.replace("모든 호스트를 확인합니다.", korean)))
    assert found(project) == []


def test_an_untranslated_title(project: Project):
    """Left as the original's, it reads as English: one warning says so."""
    project.add_incident()
    project.write(T, translation_text(title="Acme: GPUs fall off the bus"))
    assert found(project) == [
        f"{T}:2:8: warning: title: title reads as English in a Korean file; write it in Korean "
        "(names stay in Latin letters)"
    ]


def test_an_untranslated_title_of_names_alone(project: Project):
    """A copy too short to judge by its letters is still the original's."""
    project.add_incident(title="Acme: H100")
    project.write(T, translation_text(title="Acme: H100"))
    assert found(project) == [
        f"{T}:2:8: warning: title: title is the original's, untranslated; write it in Korean"
    ]


def test_an_english_summary_in_the_korean_file_even_when_reworded(project: Project):
    project.add_incident()
    text = translation_text().replace(
        "드라이버 업데이트로 GPU를 못 쓰게 됐습니다.", "A driver update made the GPUs unusable."
    )
    project.write(T, text)
    assert found(project) == [
        f"{T}:3:10: warning: summary: summary reads as English in a Korean file; write it in "
        "Korean (names stay in Latin letters)"
    ]


def test_a_korean_title_in_the_english_original(project: Project):
    project.add_incident(title="애크미: GPU가 버스에서 이탈")
    assert found(project) == [
        f"{P}:3:8: warning: title: title reads as Korean in an English file; write it in English"
    ]


def test_a_summary_over_the_documented_length(project: Project):
    project.add_incident()
    text = (project.incidents / "acme-gpu-outage.md").read_text(encoding="utf-8")
    long = "Driver updates left GPUs unusable" + ", and more" * 20 + "."
    text = text.replace('"Driver updates left GPUs unusable."', f'"{long}"')
    project.write(P, text)
    assert found(project) == [
        f"{P}:4:10: warning: summary: summary is {len(long)} characters; at most 200: one "
        "sentence, what happened and why it matters"
    ]


def test_plain_sentence_endings_in_a_korean_file(project: Project):
    project.add_incident()
    body = BODY_KO.replace(
        "헬스 체크가 실패했습니다.", "헬스 체크가 실패했다. 원인은 드라이버였다."
    )
    project.write(T, translation_text(body=body))
    assert found(project) == [
        f"{T}:16:33: warning: body: 했다체 sentence ending; case files use 합니다체 (…했습니다, …입니다)",
        f"{T}:16:45: warning: body: 했다체 sentence ending; case files use 합니다체 (…했습니다, …입니다)",
    ]


def test_plain_endings_inside_quotes_or_before_a_line_break_are_not_reported(project: Project):
    project.add_incident()
    body = BODY_KO.replace(
        "헬스 체크가 실패했습니다.",
        '운영자는 "노드가 죽었다."라고 적었고, 이전보다\n훨씬 많은 경보가 울렸습니다.',
    )
    project.write(T, translation_text(body=body))
    assert found(project) == []


def test_a_korean_title_ending_like_a_sentence(project: Project):
    project.add_incident()
    project.write(T, translation_text(title="애크미: GPU가 버스에서 떨어졌다"))
    assert found(project) == [
        f"{T}:2:8: warning: title: a title is a noun phrase without a sentence ending "
        "(CONTRIBUTING 4.1)"
    ]


@pytest.mark.parametrize(
    ("url", "host"),
    [
        ("https://example.com/postmortem", "example.com is a placeholder domain"),
        ("https://status.example.org/x", "status.example.org is under a placeholder domain"),
        ("https://acme.example/report", "acme.example is under a placeholder domain"),
    ],
)
def test_placeholder_sources_are_errors(project: Project, url: str, host: str):
    project.add_incident(url=url)
    assert found(project) == [
        f"{P}:18:10: sources[0].url: {host}; cite the public report the case is written from"
    ]


def test_tbd_as_a_source_title(project: Project):
    project.add_incident()
    text = (project.incidents / "acme-gpu-outage.md").read_text(encoding="utf-8")
    project.write(P, text.replace('title: "Postmortem"', "title: TBD"))
    assert found(project) == [
        f"{P}:19:12: sources[0].title: 'TBD' is a placeholder; write the source's title as published"
    ]


def test_a_parent_listed_beside_its_child(project: Project):
    project.add_incident(cause="[hardware-failure, gpu-failure]")
    assert found(project) == [
        f"{P}:11:9: warning: cause[0]: 'hardware-failure' is the parent of 'gpu-failure', also "
        "listed; list only the narrower term"
    ]


def test_the_review_survives_the_check_cache(project: Project):
    """`incidents check` keeps only summaries between runs: the comparison of the two
    languages must come out the same from them."""
    from click.testing import CliRunner

    from generator.cli import main
    from generator.pipeline.check_cache import CACHE_FILE, cache_folder

    project.add_incident(body=BODY_EN.replace("Drained the hosts.", "Drained 384 hosts."))
    runner = CliRunner()
    args = ["check", "--root", str(project.root)]
    first = runner.invoke(main, args)
    assert (cache_folder(project.root) / CACHE_FILE).exists()
    second = runner.invoke(main, args)
    assert "384 is not in the Korean text" in first.output
    assert first.output == second.output


def test_contributing_states_the_limits_the_checker_applies():
    """The documented summary length and placeholder hosts are the checker's own."""
    from conftest import REPO

    from generator.validate import review

    text = (REPO / "CONTRIBUTING.md").read_text(encoding="utf-8")
    assert f"최대 {review.SUMMARY_LIMIT}자" in text
    assert f"at most {review.SUMMARY_LIMIT} characters" in text
    for host in ("example.com", "*.example", "*.test", "*.invalid", "localhost"):
        assert text.count(f"`{host}`") >= 2, host  # both languages
    assert review.placeholder_reason("https://a.example/") and review.placeholder_reason(
        "https://x.test/"
    )


# The review's scans are written for speed; these are their plain definitions, and each scan
# must find exactly what its definition finds.
_REFERENCE_NUMBER = re.compile(r"(?<![\d.,])\d{1,3}(?:,\d{3})+(?:\.\d+)?|(?<![\d.,])\d+(?:\.\d+)?")
_REFERENCE_URL = re.compile(r"\]\([^)\s]*\)|<?https?://[^\s)>]+>?")
_NATIVE = sorted(review._KO_NATIVE, key=len, reverse=True)
_OTHERS = sorted(set(review._KO_WORDS) - set(review._KO_NATIVE), key=len, reverse=True)
_REFERENCE_KO = re.compile(
    r"(?<![가-힣])(" + "|".join(_NATIVE) + r")"
    r"(?=\s?(?:" + review._KO_COUNTERS + r"))|(" + "|".join(_OTHERS) + ")"
)
_PIECES = (
    "0",
    "1",
    "08",
    "4,088",
    "1,23",
    "3.5",
    "1.2.3",
    ".",
    ",",
    " ",
    "\n",
    "a",
    "May",
    "may",
    "Second",
    "eight",
    "twice",
    "한",
    "세",
    "다섯",
    "번",
    " 번",
    "대",
    "하나",
    "셋",
    "천",
    "가",
    "](",
    ")",
    "<",
    ">",
    "https://x.io/2/",
    "`",
    "“",
    "”",
)


def _reference_numbers(text: str) -> dict[str, tuple[int, int]]:
    bare = _REFERENCE_URL.sub(lambda m: " " * len(m.group()), text)
    found: dict[str, tuple[int, int]] = {}
    for match in _REFERENCE_NUMBER.finditer(bare):
        value = review._normal(match.group())
        row = bare.count("\n", 0, match.start())
        start = bare.rfind("\n", 0, match.start()) + 1
        found.setdefault(value, (3 + row, (5 if row == 0 else 1) + match.start() - start))
    return found


def _reference_spelled(text: str, lang: str) -> set[str]:
    if lang == "en":
        numbers = [
            review._MONTH_NUMBERS.get(word, review._EN_WORDS.get(word.lower()))
            for word in re.findall(r"[A-Za-z]+", text)
        ]
        return {str(n) for n in numbers if n is not None}
    return {str(review._KO_WORDS[m.group(1) or m.group(2)]) for m in _REFERENCE_KO.finditer(text)}


def _assert_scans_agree(text: str) -> None:
    numbers: dict[str, tuple[int, int]] = {}
    review._collect_numbers(text, 3, 5, numbers)
    assert numbers == _reference_numbers(text)
    for lang in ("en", "ko"):
        assert review._spelled(text, lang) == _reference_spelled(text, lang)
    letters = review._latin_letters(text)
    assert letters == len(text) - len(re.sub(r"[A-Za-z]", "", text))
    assert review._URL.sub("#", text) == _REFERENCE_URL.sub("#", text)


@settings(max_examples=400, deadline=None)
@given(st.lists(st.sampled_from(_PIECES), max_size=40).map("".join))
def test_the_fast_scans_find_what_their_definitions_find(text: str):
    _assert_scans_agree(text)


def test_the_fast_scans_agree_on_the_library():
    for path in sorted(Path(__file__).parents[2].glob("incidents/*.md")):
        _assert_scans_agree(path.read_text(encoding="utf-8"))


def test_no_korean_number_word_begins_another():
    """The Korean scan takes the first word that matches and, past a refused numeral, goes on
    after it. That finds what the plain pattern finds only while no word begins another and no
    word starts inside another (a word added to the table must keep both)."""
    words = list(review._KO_WORDS)
    assert [(a, b) for a in words for b in words if a != b and b.startswith(a)] == []
    firsts = {w[0] for w in words}
    assert [w for w in words if firsts.intersection(w[1:])] == []
    assert {w[0] for w in review._KO_NATIVE}.isdisjoint(
        w[0] for w in review._KO_WORDS if w not in review._KO_NATIVE
    )


def test_a_section_that_only_says_the_sources_are_silent(project: Project):
    """CONTRIBUTING's rule: such a section is left out and listed in not_in_sources."""
    detection_en = "Health checks failed on 511 hosts with 4,088 GPUs."
    detection_ko = "호스트 511대, GPU 4,088개에서 헬스 체크가 실패했습니다."
    project.add_incident(
        body=BODY_EN.replace(
            detection_en,
            "The report does not say how the failure was first noticed (511 hosts, 4,088 GPUs).",
        )
    )
    silent_ko = "보고서에는 처음 어떻게 감지했는지 나오지 않습니다(호스트 511대, GPU 4,088개)."
    project.write(T, translation_text(body=BODY_KO.replace(detection_ko, silent_ko)))
    assert found(project) == [
        f"{T}:16:1: warning: section '감지': '## 감지' only says that the sources do not cover "
        "it: leave the section out of both languages and add detection to not_in_sources",
        f"{P}:34:1: warning: section 'Detection': '## Detection' only says that the sources do "
        "not cover it: leave the section out of both languages and add detection to "
        "not_in_sources",
    ]


def test_a_sentence_about_the_report_or_the_case_itself(project: Project):
    lessons = (
        "Check every host. The postmortem doesn't\nmention who approved the update, "
        "and the part of the report this entry draws on ends there."
    )
    project.add_incident(body=BODY_EN.replace("Check every host.", lessons))
    project.write(
        T,
        translation_text(
            body=BODY_KO.replace(
                "모든 호스트를 확인합니다.",
                "모든 호스트를 확인합니다. 이 항목이 참고한 부분에는 승인 과정이 없습니다.",
            )
        ),
    )
    assert found(project) == [
        f"{T}:28:16: warning: section '교훈': talks about this case itself, not the incident: "
        "say what happened",
        f"{P}:46:19: warning: section 'Lessons': talks about the report, not the incident: "
        "leave out what the sources do not cover (a whole section goes in not_in_sources)",
        f"{P}:47:38: warning: section 'Lessons': talks about this case itself, not the "
        "incident: say what happened",
    ]


def test_what_a_source_gives_instead_of_a_date_may_be_said(project: Project):
    project.add_incident(
        body=BODY_EN.replace(
            "A driver update.", "A driver update. The paper does not say on what date."
        )
    )
    project.write(
        T,
        translation_text(
            body=BODY_KO.replace(
                "드라이버 업데이트.", "드라이버 업데이트. 논문에는 날짜가 나오지 않습니다."
            )
        ),
    )
    assert found(project) == []


@pytest.mark.parametrize(
    ("text", "lang", "about"),
    [
        ("The postmortem does not name the configurations.", "en", True),
        ("How it was noticed is not described in the report.", "en", True),
        ("The sources are silent on detection.", "en", True),
        # Each letter a match may begin with (voice.py looks ahead for them), in either case.
        ("Their report never says how it was noticed.", "en", True),
        ("Its announcement didn't give a count.", "en", True),
        ("Our postmortem did not record it.", "en", True),
        ("Any source doesn't list the hosts.", "en", True),
        ("The cause was not stated by any source.", "en", True),
        ("Sources are silent on the cause.", "en", True),
        ("THE REPORT DOES NOT SAY WHY.", "en", True),
        ("NCCL does not say which rank hung.", "en", False),  # a program, not a report
        ("The paper does not date the incidents; 2021 is its year of publication.", "en", False),
        ("포스트모템은 어떤 구성인지는 밝히지 않습니다.", "ko", True),
        ("출처에는 하나의 촉발 요인이 나오지 않습니다.", "ko", True),
        ("논문은 각 장애가 언제 일어났는지 적지 않습니다.", "ko", False),  # dates may be explained
        ("오버레이 항목의 불일치를 찾았습니다.", "ko", False),  # 이 항목 inside a word
        ("보고서는 사고의 원인을 드라이버로 봅니다.", "ko", False),  # what the report says is fine
    ],
)
def test_what_counts_as_talking_about_the_report(text, lang, about):
    from generator.validate.voice import about_the_sources

    assert bool(about_the_sources(text, lang)) is about
