"""The library page's data (generator/outputs/search_data.py): `terms_payload` (facets with their
descriptive, byline and checklist flags, terms with every name and count, the interface
strings, the search rules), `index_payload` (every term's cases, in library order), the
vocabulary parts, one text file per case, the compact lists of positions they all use, and
`as_script`, which can never close the script element it is loaded in. Incidents in memory."""

from __future__ import annotations

import json

import pytest
from conftest import TAXONOMY

from generator.load.front_matter import parse_yaml
from generator.load.taxonomy import build_taxonomy
from generator.model.incident import SECTIONS, CaseText, Incident, Section, incident_model
from generator.model.library import build_library
from generator.outputs.search_data import (
    as_script,
    decode_positions,
    encode_positions,
    index_payload,
    part_file,
    search_files,
    stamp,
    terms_payload,
    text_payload,
    vocabulary_parts,
)
from generator.pages.build import FULL_CARDS
from generator.render.renderer import ROOT_MARK
from generator.render.strings import strings_for
from generator.search.analyzer import browser_rules
from generator.search.corpus import build_corpora
from generator.search.engine import start_of

TAX = build_taxonomy(parse_yaml(TAXONOMY, "taxonomy.yml"), "taxonomy.yml")[0]
MODEL = incident_model(TAX)


def make(incident_id: str, occurred: str, *, langs=("en", "ko"), **terms) -> Incident:
    values = {
        "organization": "acme",
        "domain": ("ai-infra",),
        "symptom": ("training-job-failure",),
        "cause": ("gpu-failure",),
        "component": ("gpu-driver",),
    } | terms
    meta = MODEL.model_validate(
        {
            "id": incident_id,
            "title": f"Title of {incident_id}",
            "summary": "Summary.",
            "lang": langs[0],
            "occurred": occurred,
            "published": "2024-04-02",
            "sources": [
                {
                    "url": "https://reports.acme.dev/r",
                    "title": "R",
                    "publisher": "P",
                    "date": "2024",
                }
            ],
            **values,
        }
    )
    texts = tuple(
        CaseText(
            lang,
            f"{incident_id} title {lang}",
            f"{incident_id} summary {lang}",
            tuple(
                Section(key, f"**{key}** see [the report](https://reports.acme.dev/x) `code`", n)
                for n, key in enumerate(SECTIONS)
            ),
            f"incidents/{incident_id}.md",
        )
        for lang in langs
    )
    return Incident(meta, f"incidents/{incident_id}.md", texts)


LIBRARY = build_library(
    TAX,
    [
        make("a", "2024-01", component=("gpu-driver", "infiniband-fabric")),
        make("b", "2024-02", langs=("en",), organization="globex", cause=("faulty-change",)),
    ],
)
CORPORA = build_corpora(LIBRARY)


class TestTermsPayload:
    def test_top_level(self):
        payload = terms_payload(LIBRARY, "en")
        assert list(payload) == [
            "lang",
            "total",
            "graph",
            "full_cards",
            "page_size",
            "pages_around",
            "root_mark",
            "facets",
            "filter_order",
            "stamp",
            "strings",
            "rules",
        ]
        assert (payload["full_cards"], payload["root_mark"]) == (FULL_CARDS, ROOT_MARK)
        # applied filters list what the cases are about first, then their context
        assert payload["filter_order"] == [
            *(f.id for f in LIBRARY.taxonomy.descriptive),
            *(f.id for f in LIBRARY.taxonomy.context),
        ]
        assert payload["rules"] == browser_rules()
        assert (payload["lang"], payload["total"]) == ("en", 2)
        assert payload["graph"] == ["cause", "component", "symptom", "contributing_factor"]
        assert payload["strings"] == strings_for("en")
        assert terms_payload(LIBRARY, "ko")["strings"]["library"] == "전체 사례"

    def test_facets_with_their_flags(self):
        facets = terms_payload(LIBRARY, "en")["facets"]
        flags = {f["id"]: (f["descriptive"], f["byline"], f["checklist"]) for f in facets}
        assert flags == {
            "domain": (False, False, False),
            "organization": (False, True, False),
            "symptom": (True, False, False),
            "cause": (True, False, False),
            "component": (True, False, True),
            "contributing_factor": (True, False, False),
        }
        assert [f["id"] for f in facets] == list(TAX.ids)
        assert facets[3]["label"] == "Cause"
        assert terms_payload(LIBRARY, "ko")["facets"][3]["label"] == "원인"

    def test_terms_with_names_counts_and_urls(self):
        facets = {f["id"]: f for f in terms_payload(LIBRARY, "ko")["facets"]}
        infiniband = next(t for t in facets["component"]["terms"] if t["id"] == "infiniband-fabric")
        assert infiniband == {
            "id": "infiniband-fabric",
            "label": "InfiniBand 패브릭",
            "names": [
                "IB",
                "InfiniBand fabric",
                "InfiniBand 패브릭",
                "infiniband-fabric",
                "인피니밴드",
            ],
            "count": 1,
            "url": "component/infiniband-fabric.html",  # relative to the language's folder
        }
        counts = {t["id"]: t["count"] for t in facets["cause"]["terms"]}
        assert counts == {"hardware-failure": 0, "gpu-failure": 1, "faulty-change": 1}
        assert [t["id"] for t in facets["cause"]["terms"]] == [
            t.id for t in TAX.facet("cause").terms
        ]

    def test_names_are_sorted_without_case_and_without_repeats(self):
        etcd = next(
            t
            for f in terms_payload(LIBRARY, "en")["facets"]
            if f["id"] == "component"
            for t in f["terms"]
            if t["id"] == "etcd"
        )
        assert etcd["names"] == ["etcd"]  # id and both labels are the same word
        for facet in terms_payload(LIBRARY, "en")["facets"]:
            for term in facet["terms"]:
                names = term["names"]
                assert names == sorted(set(names), key=lambda n: (n.casefold(), n))


class TestPositions:
    CASES = (
        [],
        [0],
        [31],
        [32],
        [0, 1, 2, 3],
        [5, 40, 1_000, 1_031, 1_032, 33_000, 1_048_575, 1_048_576],
        list(range(0, 20_000, 7)),
    )

    def test_round_trip(self):
        for positions in self.CASES:
            assert decode_positions(encode_positions(positions)) == positions

    def test_a_small_gap_is_one_character(self):
        """Consecutive cases cost a character each; so does any gap under 32."""
        assert encode_positions([0, 1, 2]) == "000"
        assert encode_positions([31]) == "V"
        assert encode_positions([32]) == "X0"  # 32 = 1 × 32 + 0
        assert len(encode_positions(range(0, 10_000, 31))) == len(range(0, 10_000, 31))

    def test_only_increasing_positions(self):
        with pytest.raises(ValueError, match="must increase"):
            encode_positions([3, 3])

    def test_json_safe(self):
        text = encode_positions(list(range(0, 2_000_000, 9_999)))
        assert json.dumps(text) == f'"{text}"'


class TestIndexPayload:
    def test_every_term_with_its_cases_in_library_order(self):
        payload = index_payload(LIBRARY, CORPORA["en"])
        assert payload["count"] == 2  # b, then a (library order)
        cases = dict(zip(payload["terms"], map(decode_positions, payload["cases"]), strict=True))
        for key in (
            "domain:ai-infra",
            "organization:acme",
            "symptom:training-job-failure",
            "cause:gpu-failure",
            "component:gpu-driver",
            "component:infiniband-fabric",
        ):
            assert 1 in cases[key], key
        assert cases["organization:acme"] == [1]
        assert cases["organization:globex"] == [0]

    def test_how_often_each_case_names_its_terms(self):
        """`named` lists, for each term, how often each of its cases (in the order of `cases`)
        says one of the term's names: what the browser breaks ties of equal scores with."""
        payload = index_payload(LIBRARY, CORPORA["en"])
        documents = CORPORA["en"].corpus.documents
        for key, found, named in zip(
            payload["terms"], map(decode_positions, payload["cases"]), payload["named"], strict=True
        ):
            digits = "".join(str(documents[at].named.get(key, 0)) for at in found)
            assert named == digits.rstrip("0"), key

    def test_no_ids_nor_lead_words(self):
        """A case's id is in its card and in ids.js, its lead and title words in the vocabulary
        parts: at 10,000 cases the ids made this file 510 KB larger, the lead words 6.7 MB."""
        payload = index_payload(LIBRARY, CORPORA["en"])
        assert set(payload) == {
            "lang", "count", "terms", "cases", "named", "synonyms", "termNames", "termPhrases",
            "starts",
        }  # fmt: skip
        assert all(isinstance(found, str) for found in payload["cases"])

    def test_the_stamp_follows_the_index_and_the_order(self):
        index = index_payload(LIBRARY, CORPORA["en"])
        assert stamp(index, ["b", "a"]) == stamp(index, ["b", "a"])
        assert stamp(index, ["b", "a"]) != stamp(index, ["a", "b"])
        assert stamp(index, ["b", "a"]) != stamp({**index, "count": 3}, ["b", "a"])
        files = dict(search_files(LIBRARY, CORPORA))
        terms = json.loads(files["en/search/terms.js"].split(".terms=", 1)[1].rstrip(";\n"))
        assert terms["stamp"] == stamp(index, ["b", "a"])

    def test_the_parts_say_which_cases_have_each_word_in_their_lead_and_titles(self):
        for lang in ("ko", "en"):
            corpus = CORPORA[lang].corpus
            lead: dict[int, set[str]] = {}
            title: dict[int, set[str]] = {}
            for part in vocabulary_parts(CORPORA[lang]).values():
                assert len(part["lead"]) == len(part["title"]) == len(part["words"])
                for word, has_lead, has_title, cases in zip(
                    part["words"],
                    map(decode_positions, part["lead"]),
                    map(decode_positions, part["title"]),
                    map(decode_positions, part["postings"]),
                    strict=True,
                ):
                    assert set(has_title) <= set(has_lead) <= set(cases)
                    for at in has_lead:
                        lead.setdefault(at, set()).add(word)
                    for at in has_title:
                        title.setdefault(at, set()).add(word)
            for at, document in enumerate(corpus.documents):
                assert lead.get(at, set()) == set(document.lead)
                assert title.get(at, set()) == set(document.title)

    def test_synonyms_come_from_the_corpus(self):
        payload = index_payload(LIBRARY, CORPORA["ko"])
        assert payload["synonyms"] == {
            w: list(o) for w, o in sorted(CORPORA["ko"].corpus.synonyms.items())
        }


class TestVocabularyParts:
    def test_every_word_in_the_part_of_its_start_with_its_cases(self):
        corpus = CORPORA["en"].corpus
        parts = vocabulary_parts(CORPORA["en"])
        assert [w for part in parts.values() for w in part["words"]] == list(corpus.vocabulary)
        for start, part in parts.items():
            assert all(start_of(word) == start for word in part["words"])
            assert part["words"] == sorted(part["words"])
        infiniband = parts["in"]["postings"][parts["in"]["words"].index("infiniband")]
        assert decode_positions(infiniband) == [
            1
        ]  # only "a" (second in library order) has the fabric
        assert "인" in parts and len("인") == 1  # Korean parts start with one syllable

    def test_how_cases_write_a_stem(self):
        parts = vocabulary_parts(CORPORA["en"])
        # every case's sections say "symptoms"; the index has its stem
        assert "symptom" in parts["sy"]["words"]
        assert parts["sy"]["shown"]["symptom"] == "symptoms"
        assert "report" not in parts["re"]["shown"]  # a word that is its own stem
        assert all(w in part["words"] for part in parts.values() for w in part["shown"])

    def test_file_names_spell_korean(self):
        assert part_file("in") == "in.js"
        assert part_file("인") == "q07032.js"


class TestTextPayload:
    def test_a_case_card_and_its_sentences(self):
        a = text_payload(LIBRARY, LIBRARY.incident("a"), CORPORA["ko"])
        assert {k: v for k, v in a.items() if k != "sentences"} == {
            "id": "a",
            "url": "cases/a.html",
            "title": "a title ko",
            "summary": "a summary ko",
            "lang": "ko",
            "date": "2024년 1월",  # as the card shows it (render.strings.date_text)
            "org": "애크미",
            "terms": {
                "domain": ["ai-infra"],
                "organization": ["acme"],
                "symptom": ["training-job-failure"],
                "cause": ["gpu-failure"],
                "component": ["gpu-driver", "infiniband-fabric"],
                "contributing_factor": [],
            },
        }
        assert a["sentences"][0] == "a summary ko"
        assert all("**" not in s and "https://" not in s for s in a["sentences"])

    def test_an_untranslated_case_in_its_original(self):
        b = text_payload(LIBRARY, LIBRARY.incident("b"), CORPORA["ko"])
        assert (b["lang"], b["title"], b["org"]) == ("en", "b title en", "글로벡스")

    def test_the_files_of_a_site(self):
        files = dict(search_files(LIBRARY, CORPORA))
        expected = [
            f"{lang}/search/{name}"
            for lang in ("ko", "en")
            for name in ("terms.js", "index.js", "ids.js", "text/0.js", "text/1.js")
        ] + [
            f"{lang}/search/words/{part_file(start)}"
            for lang in ("ko", "en")
            for start in vocabulary_parts(CORPORA[lang])
        ]
        assert sorted(files) == sorted(expected)
        # a card by its position in library order (b, then a), its id inside
        assert files["en/search/text/1.js"].startswith(
            "window.IncidentLibraryData=window.IncidentLibraryData||{};"
            '(window.IncidentLibraryData.text=window.IncidentLibraryData.text||{})["1"]={"id":"a",'
        )
        assert files["en/search/ids.js"].endswith('window.IncidentLibraryData.ids=["b","a"];\n')


class TestAsScript:
    def test_sets_the_variable(self):
        script = as_script("terms", {"a": 1})
        assert script == (
            "window.IncidentLibraryData=window.IncidentLibraryData||{};"
            'window.IncidentLibraryData.terms={"a":1};\n'
        )

    def test_escapes_closing_tags(self):
        payload = {"title": "</script><script>alert(1)</script>", "x": "a</b"}
        script = as_script("cases", payload)
        assert "</" not in script
        assert "<\\/script>" in script
        data = script.split("window.IncidentLibraryData.cases=", 1)[1].rstrip(";\n")
        assert json.loads(data) == payload  # "\/" is still "/" to a JSON or JS reader

    def test_unicode_is_written_as_is(self):
        script = as_script("t", {"ko": "한국어"})
        assert "한국어" in script
        data = script.split("window.IncidentLibraryData.t=", 1)[1].rstrip(";\n")
        assert json.loads(data) == {"ko": "한국어"}

    def test_the_payloads_survive(self):
        for lang in ("ko", "en"):
            for name, payload in (
                ("terms", terms_payload(LIBRARY, lang)),
                ("index", index_payload(LIBRARY, CORPORA[lang])),
            ):
                script = as_script(name, payload)
                data = script.split(f"window.IncidentLibraryData.{name}=", 1)[1].rstrip(";\n")
                assert json.loads(data) == payload


def test_a_word_is_one_string_however_many_cases_have_it():
    """At 10,000 cases the corpus holds 7.5 million (case, word) pairs: a string per pair would
    take about 1.1 GiB more of the build's memory than one string per word."""
    a, b = CORPORA["en"].corpus.documents
    shared = set(a.words) & set(b.words)
    assert shared
    by_value = {word: word for word in a.words}
    assert all(by_value[word] is word for word in b.words if word in shared)


def test_languages_that_share_a_corpus_share_its_vocabulary_parts(monkeypatch):
    """Both languages search one corpus: its parts are worked out once and written for each."""
    from generator.outputs import search_data

    made = []
    parts = search_data.vocabulary_parts

    def counting(search, starts=None):
        made.append(search.lang)
        return parts(search, starts)

    monkeypatch.setattr(search_data, "vocabulary_parts", counting)
    files = dict(search_files(LIBRARY, CORPORA))
    assert CORPORA["ko"].corpus is CORPORA["en"].corpus and len(made) == 1
    words = sorted(
        p.split("/", 1)[1] for p in files if "/search/words/" in p and p.startswith("ko/")
    )
    assert words and all(files[f"ko/{w}"] == files[f"en/{w}"] for w in words)
