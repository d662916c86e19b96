"""Validation: one test per class of contributor mistake, asserting the exact line they see."""

from __future__ import annotations

import pytest
from conftest import BODY_EN, BODY_KO, TODAY, Project, incident_text, translation_text

from generator.load.project import ProjectPaths
from generator.pipeline.check import check_project

P = "incidents/acme-gpu-outage.md"
T = "incidents/acme-gpu-outage.ko.md"


def messages(project: Project) -> list[str]:
    return [d.format() for d in check_project(ProjectPaths.at(project.root), TODAY).diagnostics]


def test_valid_incident_and_translation(project):
    project.add_incident()
    checked = check_project(ProjectPaths.at(project.root), TODAY)
    assert checked.diagnostics == ()
    (incident,) = checked.result.incidents
    assert [t.lang for t in incident.texts] == ["en", "ko"]
    assert incident.text("ko").title == "애크미: GPU 이탈"
    assert incident.text("en").section("actions") == "- Drained the hosts."
    assert incident.meta.scale.gpus == 4088


@pytest.mark.parametrize(
    ("kwargs", "expected"),
    [
        (
            {"cause": "[gpu-failur]"},
            f"{P}:11:9: cause[0]: unknown cause term 'gpu-failur' (did you mean 'gpu-failure'?)",
        ),
        (
            {"component": "[InfiniBand, gpu-driver]"},
            f"{P}:12:13: component[0]: unknown component term 'InfiniBand' "
            "(did you mean 'infiniband-fabric'?)",
        ),
        (
            {"component": "[인피니밴드]"},
            f"{P}:12:13: component[0]: unknown component term '인피니밴드' "
            "(did you mean 'infiniband-fabric'?)",
        ),
        (
            {"organization": "acmee"},
            f"{P}:8:15: organization: unknown organization term 'acmee' (did you mean 'acme'?)",
        ),
        (
            {"cause": "[solar-flare]"},
            f"{P}:11:9: cause[0]: unknown cause term 'solar-flare'; "
            "terms are reviewed vocabulary: propose it in taxonomy.yml",
        ),
        (
            {"cause": "[gpu-failure, gpu-failure]"},
            f"{P}:11:22: cause[1]: 'gpu-failure' is listed twice",
        ),
        (
            {"symptom": "training-job-failure"},
            f"{P}:10:10: symptom: should be a list, like [a, b], got text 'training-job-failure'",
        ),
        (
            {"symptom": "[]"},
            f"{P}:10:10: symptom: should list at least one",
        ),
        ({"occurred": "2027-01-01"}, f"{P}:6:11: occurred: 2027-01-01 is in the future"),
        ({"occurred": "2024-13"}, f"{P}:6:11: occurred: '2024-13' has no month 13"),
        (
            {"occurred": "2023-02-30"},
            f"{P}:6:11: occurred: '2023-02-30' is not a day of the calendar",
        ),
        (
            {"occurred": "March 2024"},
            f"{P}:6:11: occurred: 'March 2024' is not a date: write YYYY, YYYY-MM or YYYY-MM-DD, "
            "or unknown when the sources give no date",
        ),
        ({"occurred": "Unknown"}, f"{P}:6:11: occurred: 'Unknown': write unknown in lowercase"),
        (
            {"extra": "ended: unknown\n"},
            f"{P}:17:8: ended: 'unknown' is not a date: write YYYY, YYYY-MM or YYYY-MM-DD "
            "(only occurred may be unknown)",
        ),
        (
            {"extra": "ended: 2023-01\n"},
            f"{P}:17:8: ended: 2023-01 is before the incident occurred (2024-03-01)",
        ),
        (
            {"url": "ftp://reports.acme.dev/x"},
            f"{P}:18:10: sources[0].url: 'ftp://reports.acme.dev/x' is not an http(s) URL",
        ),
        (
            {"url": "javascript:alert(1)"},
            f"{P}:18:10: sources[0].url: 'javascript:alert(1)' is not an http(s) URL",
        ),
        ({"extra": "sumary: x\n"}, f"{P}:17:1: sumary: unknown field (did you mean 'summary'?)"),
        (
            {"title": "<b>Acme</b>"},
            f"{P}:3:8: title: HTML tags are not allowed here; write plain text",
        ),
        (
            {"extra": "scale: {gpus: -1}\n"},
            f"{P}:14:15: scale.gpus: should be greater than 0",
        ),
    ],
)
def test_front_matter_mistakes(project, kwargs, expected):
    if "scale" in kwargs.get("extra", ""):
        project.write(
            P, incident_text(**kwargs).replace("scale:\n  gpus: 4088\n  hosts: 511\n", "", 1)
        )
        project.write(T, translation_text())
    else:
        project.add_incident(**kwargs)
    assert expected in messages(project)


def test_every_problem_is_reported_in_one_run(project):
    project.add_incident(cause="[gpu-failur]", occurred="2027-01-01", url="ftp://x")
    project.add_incident("globex-down", organization="globx", title="<i>x</i>")
    found = messages(project)
    assert len(found) == 6  # future date, published before occurred, term, URL, title, organization
    assert all(m.startswith("incidents/") for m in found)


def test_missing_required_field_points_at_the_front_matter(project):
    project.write(P, incident_text().replace("lang: en\n", ""))
    project.write(T, translation_text())
    assert messages(project) == [f"{P}:2:1: lang: required field is missing"]


def test_id_must_equal_file_name(project):
    project.write("incidents/other-name.md", incident_text("acme-gpu-outage"))
    project.write("incidents/other-name.ko.md", translation_text())
    assert messages(project) == [
        "incidents/other-name.md:2:5: id: id 'acme-gpu-outage' differs from the file name; "
        "rename the file or set id: other-name"
    ]


def test_duplicate_ids_in_subfolders(project):
    project.add_incident()
    project.write("incidents/2024/acme-gpu-outage.md", incident_text())
    assert (
        f"{P}:1:1: id: duplicate id 'acme-gpu-outage' (also incidents/2024/acme-gpu-outage.md)"
        in messages(project)
    )


def test_bad_file_name(project):
    project.write("incidents/Acme.GPU.x.md", incident_text())
    assert messages(project) == [
        "incidents/Acme.GPU.x.md:1:1: file name must be '<id>.md' or '<id>.<ko|en>.md'"
    ]


def test_front_matter_that_is_not_a_mapping(project):
    project.write(P, "---\n- a\n- b\n---\n" + BODY_EN)
    assert messages(project) == [
        f"{P}:2:1: front matter must be a mapping of fields, like 'id: my-incident'"
    ]


class TestSections:
    def test_missing(self, project):
        project.add_incident(
            body=BODY_EN.replace(
                "## Detection\n\nHealth checks failed on 511 hosts with 4,088 GPUs.\n\n", ""
            )
        )
        assert messages(project) == [
            f"{P}:43:1: body: section '## Detection' is missing; if no public source covers it, add detection to not_in_sources"
        ]

    def test_out_of_order(self, project):
        swapped = (
            BODY_EN.replace("## Trigger", "## X")
            .replace("## Symptoms", "## Trigger")
            .replace("## X", "## Symptoms")
        )
        project.add_incident(body=swapped)
        assert messages(project) == [
            f"{P}:28:1: section 'Symptoms': out of order: 'Symptoms' must come before 'Trigger'"
        ]

    def test_misspelled_heading(self, project):
        project.add_incident(body=BODY_EN.replace("## Lessons", "## Lesson"))
        assert messages(project) == [
            f"{P}:44:1: section 'Lesson': unknown section; sections are Symptoms, Trigger, Detection, "
            "Actions, Follow-ups, Lessons (did you mean 'Lessons'?)"
        ]

    def test_heading_in_the_other_language(self, project):
        project.add_incident(lang="ko", body=BODY_KO.replace("## 교훈", "## Lessons"))
        assert messages(project) == [
            f"{P}:44:1: section 'Lessons': heading is in the wrong language for a Korean body (did you mean '교훈'?)"
        ]

    def test_empty(self, project):
        project.add_incident(body=BODY_EN.replace("A driver update.", ""))
        assert messages(project) == [f"{P}:28:1: section 'Trigger': section is empty"]

    def test_text_before_first_section(self, project):
        project.add_incident(body="Intro\n\n" + BODY_EN)
        assert messages(project) == [
            f"{P}:23:1: body: text before the first section; the body starts with '## Symptoms'"
        ]

    def test_headings_inside_code_fences_are_text(self, project):
        project.add_incident(body=BODY_EN.replace("Check every host.", "```\n## Symptoms\n```"))
        assert messages(project) == []


class TestTranslations:
    def test_missing_translation_is_a_warning(self, project):
        project.add_incident(translate=False)
        assert messages(project) == [
            f"{P}:1:1: warning: translation: no Korean translation: add {T}; "
            "the site shows the original with a notice until then"
        ]

    def test_translation_without_original(self, project):
        project.add_incident()
        project.write("incidents/acme-gpu-outag.en.md", translation_text("en"))
        assert messages(project) == [
            "incidents/acme-gpu-outag.en.md:1:1: translation of 'acme-gpu-outag', "
            "but there is no acme-gpu-outag.md (did you mean 'acme-gpu-outage'?)"
        ]

    def test_translation_cannot_repeat_structured_fields(self, project):
        project.add_incident(translate=False)
        project.write(
            T, translation_text().replace("---\n\n", "cause: [gpu-failure]\nsumary: x\n---\n\n", 1)
        )
        assert messages(project) == [
            f"{T}:4:1: cause: belongs only in the original file; a translation holds only title and summary",
            f"{T}:5:1: sumary: unknown field; the fields here are title, summary (did you mean 'summary'?)",
        ]

    def test_translation_in_the_same_language(self, project):
        project.add_incident(translate=False)
        project.write("incidents/acme-gpu-outage.en.md", translation_text("en"))
        assert (
            "incidents/acme-gpu-outage.en.md:1:1: the original is already English; a translation must be in the other language"
            in messages(project)
        )

    def test_unknown_language_suffix(self, project):
        project.add_incident()
        project.write("incidents/acme-gpu-outage.kr.md", translation_text())
        assert messages(project) == [
            "incidents/acme-gpu-outage.kr.md:1:1: unknown language 'kr' in the file name; use .ko.md or .en.md"
        ]

    def test_translation_sections_are_checked_in_its_language(self, project):
        project.add_incident(translate=False)
        project.write(T, translation_text(body=BODY_KO.replace("## 감지", "## 탐지")))
        assert messages(project) == [
            f"{T}:14:1: section '탐지': unknown section; sections are 증상, 촉발, 감지, 조치, 후속 조치, 교훈",
            f"{T}:29:1: body: section '## 감지' is missing; the original has '## Detection' "
            "(acme-gpu-outage.md:32): translate it here",
        ]


class TestFiles:
    def test_empty_file(self, project):
        project.write(P, "")
        assert messages(project) == [f"{P}:1:1: file is empty; start it with '---' front matter"]

    def test_not_utf8(self, project):
        project.write(P, incident_text().encode("utf-8").replace(b"Acme: GPUs", b"Acme\xff GPUs"))
        assert messages(project) == [
            f"{P}:3:13: file is not valid UTF-8 (byte 0xff); save it as UTF-8"
        ]

    def test_yaml_error_is_reported_with_the_file_line(self, project):
        project.write(
            P, incident_text().replace('title: "Acme: GPUs fall off the bus"', "title: [x")
        )
        (message,) = messages(project)
        assert message.startswith(f"{P}:4:8: invalid YAML: ")

    def test_readme_in_incidents_is_not_an_incident(self, project):
        project.write("incidents/README.md", "# How to add an incident\n")
        assert messages(project) == []


class TestPossibleDuplicates:
    """Both files of a pair get the warning, each at its own field that matches (so a check of
    either file alone shows it), and `distinct_from` says two cases are different incidents."""

    def test_same_organization_and_day(self, project):
        project.add_incident()
        project.add_incident(
            "acme-other", url="https://reports.acme.dev/other", extra="", occurred="2024-03-01"
        )
        assert messages(project) == [
            f"{P}:6:11: warning: occurred: same organization (acme) and day as 'acme-other' "
            "(incidents/acme-other.md); is it the same incident? If they are different "
            "incidents, add distinct_from: [acme-other]",
            "incidents/acme-other.md:6:11: warning: occurred: same organization (acme) and day as "
            f"'acme-gpu-outage' ({P}); is it the same incident? If they are different incidents, "
            "add distinct_from: [acme-gpu-outage]",
        ]

    def test_a_copy_under_a_new_id_is_reported_on_the_copy_whatever_the_names(self, project):
        """A verbatim copy has the same dates and sources: nothing tells which file is new, so
        `aaa-new` (which sorts first) is warned about as well as the case it copies, and a check
        of the new file alone reports it."""
        project.add_incident()
        project.write("incidents/aaa-new.md", incident_text(incident_id="aaa-new"))
        project.write("incidents/aaa-new.ko.md", translation_text())
        expected = [
            "incidents/aaa-new.md:6:11: warning: occurred: same organization (acme) and day as "
            f"'acme-gpu-outage' ({P}); is it the same incident? If they are different incidents, "
            "add distinct_from: [acme-gpu-outage]",
            "incidents/aaa-new.md:18:10: warning: sources[0].url: also cited by 'acme-gpu-outage' "
            f"({P}); is it the same incident? If they are different incidents, add "
            "distinct_from: [acme-gpu-outage]",
        ]
        assert [m for m in messages(project) if m.startswith("incidents/aaa-new.md")] == expected
        only = frozenset({"incidents/aaa-new.md"})
        checked = check_project(ProjectPaths.at(project.root), TODAY, only)
        assert [d.format() for d in checked.diagnostics] == expected

    def test_shared_source(self, project):
        project.add_incident()
        project.add_incident("globex-x", organization="globex", occurred="2023-01-01")
        assert messages(project) == [
            f"{P}:18:10: warning: sources[0].url: also cited by 'globex-x' "
            "(incidents/globex-x.md); is it the same incident? If they are different incidents, "
            "add distinct_from: [globex-x]",
            "incidents/globex-x.md:18:10: warning: sources[0].url: also cited by 'acme-gpu-outage' "
            f"({P}); is it the same incident? If they are different incidents, add "
            "distinct_from: [acme-gpu-outage]",
        ]

    def test_distinct_from_silences_the_warning_and_must_name_a_case(self, project):
        project.add_incident()
        project.add_incident(
            "globex-x",
            organization="globex",
            occurred="2023-01-01",
            extra="distinct_from: [acme-gpu-outage]\n",
        )
        assert messages(project) == []
        project.add_incident(
            "globex-y",
            organization="globex",
            occurred="2023-02-01",
            url="https://reports.acme.dev/y",
            extra="distinct_from: [acme-gpu-outag]\n",
        )
        assert messages(project) == [
            "incidents/globex-y.md:17:17: warning: distinct_from[0]: 'acme-gpu-outag' is not an "
            "incident (did you mean 'acme-gpu-outage'?)"
        ]

    def test_same_year_is_not_a_duplicate(self, project):
        project.add_incident(occurred="2024")
        project.add_incident("acme-other", occurred="2024", url="https://reports.acme.dev/other")
        assert messages(project) == []


def test_scaffold_placeholders_must_be_filled_in(project):
    project.add_incident(
        title="TODO: a title", body=BODY_EN.replace("A driver update.", "TODO: what set it off.")
    )
    assert messages(project) == [
        f"{P}:3:8: title: placeholder 'TODO' is still here; fill it in",
        f"{P}:30:1: body: placeholder 'TODO' is still here; fill it in",
    ]


class TestNotInSources:
    """Sections no public source covers are listed in the front matter and left out."""

    NO_FOLLOW_UPS_EN = BODY_EN.replace("## Follow-ups\n\n- Added a burn-in test.\n\n", "")
    NO_FOLLOW_UPS_KO = BODY_KO.replace("## 후속 조치\n\n- 번인 테스트를 넣었습니다.\n\n", "")

    def test_listed_sections_may_be_left_out_in_both_languages(self, project):
        project.add_incident(
            extra="not_in_sources: [follow_ups]\n", body=self.NO_FOLLOW_UPS_EN, translate=False
        )
        project.write(
            "incidents/acme-gpu-outage.ko.md", translation_text(body=self.NO_FOLLOW_UPS_KO)
        )
        assert messages(project) == []
        checked = check_project(ProjectPaths.at(project.root), TODAY)
        assert checked.result.incidents[0].meta.not_in_sources == ("follow_ups",)

    def test_a_section_dropped_in_the_translation_is_to_be_translated(self, project):
        """The original writes Follow-ups, so listing it in not_in_sources would be an error:
        the advice is to translate the original's section."""
        project.add_incident(translate=False)
        project.write(
            "incidents/acme-gpu-outage.ko.md", translation_text(body=self.NO_FOLLOW_UPS_KO)
        )
        assert messages(project) == [
            f"{T}:25:1: body: section '## 후속 조치' is missing; the original has "
            "'## Follow-ups' (acme-gpu-outage.md:40): translate it here"
        ]

    def test_a_section_missing_in_both_languages_is_to_be_listed(self, project):
        """Then listing it is right; the translation waits for the original to be fixed."""
        project.add_incident(body=self.NO_FOLLOW_UPS_EN, translate=False)
        project.write(
            "incidents/acme-gpu-outage.ko.md", translation_text(body=self.NO_FOLLOW_UPS_KO)
        )
        assert messages(project) == [
            f"{P}:43:1: body: section '## Follow-ups' is missing; if no public source covers it, "
            "add follow_ups to not_in_sources",
        ]

    def test_a_listed_section_that_has_text_is_an_error(self, project):
        project.add_incident(extra="not_in_sources: [follow_ups]\n")
        assert messages(project) == [
            f"{P}:17:18: not_in_sources[0]: 'follow_ups' is listed as not covered by the sources, "
            "but the body has a 'follow_ups' section (line 41); remove one of them"
        ]

    def test_symptoms_cannot_be_listed(self, project):
        body = BODY_EN.replace("## Symptoms\n\nJobs {name} stopped.\n\n", "")
        project.add_incident(extra="not_in_sources: [symptoms]\n", body=body, translate=False)
        found = messages(project)
        assert (
            f"{P}:17:18: not_in_sources[0]: every case describes its symptoms; 'symptoms' cannot "
            "be listed here" in found
        )
        assert f"{P}:44:1: body: section '## Symptoms' is missing" in found

    def test_an_unknown_section_name_is_reported(self, project):
        project.add_incident(extra="not_in_sources: [aftermath]\n")
        found = messages(project)
        assert len(found) == 1 and found[0].startswith(
            f"{P}:17:18: not_in_sources[0]: should be 'symptoms'"
        )


class TestSummaryOnly:
    """Sections whose facts were read only through a secondary summary are written as usual and
    named in the front matter, so the page can say so."""

    def test_listed_sections_are_kept_on_the_incident(self, project):
        project.add_incident(extra="summary_only: [trigger, actions]\n")
        assert messages(project) == []
        checked = check_project(ProjectPaths.at(project.root), TODAY)
        assert checked.result.incidents[0].meta.summary_only == ("trigger", "actions")

    def test_a_section_the_case_does_not_record_cannot_come_from_a_summary(self, project):
        project.add_incident(
            extra="not_in_sources: [follow_ups]\nsummary_only: [follow_ups]\n",
            body=TestNotInSources.NO_FOLLOW_UPS_EN,
            translate=False,
        )
        project.write(
            "incidents/acme-gpu-outage.ko.md",
            translation_text(body=TestNotInSources.NO_FOLLOW_UPS_KO),
        )
        assert messages(project) == [
            f"{P}:18:16: summary_only[0]: 'follow_ups' is also in not_in_sources: a section the "
            "case does not record has no facts to come from a summary; remove it from one of the "
            "two"
        ]

    def test_a_section_named_twice_or_unknown_is_reported(self, project):
        project.add_incident(extra="summary_only: [trigger, trigger]\n")
        assert messages(project) == [f"{P}:17:25: summary_only[1]: 'trigger' is listed twice"]
        project.add_incident(extra="summary_only: [aftermath]\n")
        found = messages(project)
        assert len(found) == 1 and found[0].startswith(
            f"{P}:17:16: summary_only[0]: should be 'symptoms'"
        )


def test_a_section_too_long_for_prose_is_refused(project):
    """Markdown's work grows faster than its input on some texts: a section is bounded."""
    project.add_incident(body=BODY_EN.replace("A driver update.", "word " * 4_100))
    assert messages(project) == [
        f"{P}:28:1: section 'Trigger': section is too long (20,499 characters in 1 line(s); at "
        "most 20,000 characters and 400 lines): shorten it"
    ]


class TestValuesThatLookRightButAreNot:
    def test_yes_is_not_a_number_of_gpus(self, project):
        """YAML reads `yes` as true, which a lax integer turns into 1."""
        project.add_incident()
        path = project.incidents / "acme-gpu-outage.md"
        path.write_text(path.read_text().replace("gpus: 4088", "gpus: yes"), encoding="utf-8")
        found = messages(project)
        assert len(found) == 1 and found[0].startswith(f"{P}:15:9: scale.gpus: ")

    @pytest.mark.parametrize("url", ['https://e.com/a"b', "https://e.com/<x>", "https://e.com/'"])
    def test_a_source_address_with_quotes_or_angle_brackets_is_refused(self, project, url):
        project.add_incident(url=f"'{url}'" if "'" not in url else f'"{url}"')
        found = messages(project)
        assert (
            len(found) == 1 and "sources[0].url" in found[0] and "is not an http(s) URL" in found[0]
        )

    def test_invisible_and_bidirectional_characters_are_refused(self, project):
        project.add_incident(title="Acme: GPUs\u200b fall off the bus")
        assert messages(project) == [
            f"{P}:3:19: file contains the invisible character U+200B (ZERO WIDTH SPACE); delete it"
        ]
        project.add_incident(title="Acme: GPUs \u202efall off the bus")
        assert messages(project) == [
            f"{P}:3:20: file contains a bidirectional control U+202E; delete it"
        ]

    @pytest.mark.parametrize(
        ("char", "name"),
        [
            ("\U000e0049", "TAG LATIN CAPITAL LETTER I"),
            ("\u3164", "HANGUL FILLER"),
            ("\u034f", "COMBINING GRAPHEME JOINER"),
            ("\ufe0f", "VARIATION SELECTOR-16"),
            ("\u2800", "BRAILLE PATTERN BLANK"),
        ],
    )
    def test_text_no_reader_sees_is_refused_wherever_it_is(self, project, char, name):
        """Unicode's invisible characters, in the front matter or the body (tag characters
        would carry instructions to language models through llms.txt unseen)."""
        project.add_incident(body=BODY_EN.replace("A driver update.", f"A driver{char} update."))
        assert messages(project) == [
            f"{P}:30:9: file contains the invisible character U+{ord(char):04X} ({name}); delete it"
        ]

    @pytest.mark.parametrize(
        ("title", "expected"),
        [
            ("ᏀᏢՍ failure at Acme", "the word 'ᏀᏢՍ' mixes letters of several scripts"),
            ("Acme: ТОР of rack fails", "the word 'ТОР' is written in Cyrillic letters"),
        ],
    )
    def test_lookalike_words_are_refused(self, project, title, expected):
        project.add_incident(title=title)
        [problem] = messages(project)
        assert problem.startswith(f"{P}:3:8: title: {expected}"), problem

    def test_decomposed_korean_is_read_as_composed(self, project):
        """Text saved in NFD (as some editors do) is the same text as NFC once loaded."""
        import unicodedata

        project.add_incident(translate=False)
        nfd = unicodedata.normalize("NFD", translation_text())
        project.write("incidents/acme-gpu-outage.ko.md", nfd)
        assert messages(project) == []
        checked = check_project(ProjectPaths.at(project.root), TODAY)
        title = checked.result.incidents[0].text("ko").title
        assert title == unicodedata.normalize("NFC", title) == "애크미: GPU 이탈"


def test_a_term_of_another_facet_says_where_it_belongs(project):
    """Proposing it again would make a duplicate; the message says which facet has it."""
    project.add_incident(symptom="[gpu-failure]")
    assert messages(project) == [
        f"{P}:10:11: symptom[0]: unknown symptom term 'gpu-failure'; "
        "it is a term of 'cause': list it there"
    ]


def test_a_body_in_the_other_language_is_one_error_on_lang(project):
    """`lang: en` over Korean headings: the language is wrong, not six headings."""
    project.write(P, incident_text(body=BODY_KO))
    project.write(T.replace(".ko.", ".ko."), translation_text())
    found = messages(project)
    assert found[0] == (
        f"{P}:5:7: lang: lang is 'en', but the body's section headings are Korean (## 증상 …): "
        "set lang: ko, or write the English headings (did you mean 'ko'?)"
    )
    assert not any("wrong language" in line for line in found)


def test_one_heading_in_the_other_language_is_still_named(project):
    body = BODY_EN.replace("## Detection", "## 감지")
    project.write(P, incident_text(body=body))
    project.write(T, translation_text())
    assert any(
        "section '감지': heading is in the wrong language for an English body (did you mean "
        "'Detection'?)" in line
        for line in messages(project)
    )


def test_dates_in_the_wrong_order_name_the_date_once(project):
    project.add_incident(occurred="2024-05-01")
    assert messages(project) == [
        f"{P}:7:12: published: 2024-04-02 is before the incident occurred (2024-05-01)"
    ]


def test_plain_words_for_the_validation_librarys_messages(project):
    project.add_incident()
    project.write(P, incident_text(extra="  tokens: 5\n").replace("gpus: 4088", "gpus: many"))
    found = messages(project)
    assert f"{P}:15:9: scale.gpus: should be a whole number, got text 'many'" in found
    assert (
        f"{P}:17:3: scale.tokens: unknown field; the fields here are gpus, hosts, nodes, "
        "clusters" in found
    )


@pytest.mark.parametrize(
    ("prose", "line", "expected"),
    [
        ("See ![the graph](https://tracker.example/pixel.png).", 32, "images are not shown"),
        ("See [the notes](javascript:alert(1)).", 32, "links may only go to http(s) or mailto"),
        ("See <data:text/html,hi>.", 32, "links may only go to http(s) or mailto"),
        ("See [the notes][n].\n\n[n]: vbscript:run", 34, "links may only go to http(s) or"),
    ],
)
def test_prose_may_not_fetch_or_run_anything(project, prose: str, line: int, expected: str):
    """The page drops images and unsafe links; the check says so at their line, because the
    Markdown exports (read by language models) carry the prose as written."""
    project.add_incident(body=BODY_EN.replace("A driver update.", "A driver update.\n\n" + prose))
    project.write(T, translation_text())
    [problem] = messages(project)
    assert problem.startswith(f"{P}:{line}:1: section 'Trigger': {expected}"), problem


def test_prose_with_safe_links_and_code_passes(project):
    prose = "See [the notes](https://example.org/n) and `![not an image](x)` or <https://x.org>."
    project.add_incident(body=BODY_EN.replace("A driver update.", "A driver update.\n\n" + prose))
    project.write(T, translation_text())
    assert messages(project) == []


@pytest.mark.parametrize(
    ("url", "expected"),
    [
        ("http://127.0.0.1/postmortem", "not an IP address or local name"),
        ("http://2130706433/", "not an IP address or local name"),
        ("http://169.254.169.254/latest/meta-data/", "not an IP address or local name"),
        ("http://[::1]/x", "not an IP address or local name"),
        ("http://10.0.0.7/wiki", "not an IP address or local name"),
        ("https://wiki.corp.internal/pm", "is a local name"),
        ("http://localhost:8000/r", "not an IP address or local name"),
        ("https://reports.acme.dev\\\\@127.0.0.1/", "a backslash is not allowed"),
        ("https://user:secret@reports.acme.dev/pm", "user name or password"),
    ],
)
def test_a_source_must_name_a_public_host(project, url, expected):
    project.add_incident(url=f'"{url}"')
    [problem] = messages(project)
    assert problem.startswith(f"{P}:18:10: sources[0].url: ") and expected in problem, problem


@pytest.mark.parametrize(
    ("word", "pool", "expected"),
    [
        ("acmee", ["acme", "globex"], "acme"),
        ("gpu-failur", ["gpu-failure", "hardware-failure"], "gpu-failure"),
        ("etdc", ["etcd", "coredns"], "etcd"),
        ("apiserver", ["kube-apiserver", "etcd"], "kube-apiserver"),
        ("infiniband", ["infiniband-fabric", "nvlink"], "infiniband-fabric"),
        # New names that only share a few letters with a term: the hint to propose a term is
        # right, a suggestion would be wrong.
        ("mosaicml", ["modal", "meta", "microsoft"], None),
        ("tencent", ["bytedance", "google"], None),
        ("xai", ["ai2", "openai"], None),
    ],
)
def test_a_suggestion_is_offered_only_when_it_is_likely_right(word, pool, expected):
    from generator.validate.diagnostics import closest

    assert closest(word, pool) == expected


def test_a_new_organization_gets_the_hint_to_propose_it(project):
    project.write(
        "taxonomy.yml",
        (project.root / "taxonomy.yml")
        .read_text(encoding="utf-8")
        .replace("      - id: globex", "      - id: modal", 1),
    )
    project.add_incident(organization="mosaicml")
    assert messages(project) == [
        f"{P}:8:15: organization: unknown organization term 'mosaicml'; terms are reviewed "
        "vocabulary: propose it in taxonomy.yml"
    ]
