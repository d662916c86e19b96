"""The tables, views and indexes of `api/incidents.db` (outputs/database.py), declared once with
what each column means in both languages: the database's schema and its Datasette metadata are
both made from these declarations.
"""

from __future__ import annotations

from dataclasses import dataclass

from ..model.incident import SECTION_HEADINGS, SECTIONS


@dataclass(frozen=True)
class Column:
    name: str
    kind: str  # SQL type and constraints
    en: str
    ko: str


@dataclass(frozen=True)
class Table:
    name: str
    en: str
    ko: str
    columns: tuple[Column, ...]
    constraints: tuple[str, ...] = ()
    facets: tuple[str, ...] = ()  # Datasette's suggested facets
    by_key: bool = False  # short rows, stored in the order of a primary key of several columns


def _c(name: str, kind: str, en: str, ko: str) -> Column:
    return Column(name, kind, en, ko)


_SECTION_COLUMNS = tuple(
    _c(
        key,
        "TEXT NOT NULL",
        f"The {SECTION_HEADINGS['en'][key]} section, as Markdown ('' where it has none).",
        f"{SECTION_HEADINGS['ko'][key]} 절(Markdown, 없으면 '').",
    )
    for key in SECTIONS
)

TABLES: tuple[Table, ...] = (
    Table(
        "facets",
        "The ways cases are classified (taxonomy.yml).",
        "사례를 분류하는 기준(taxonomy.yml).",
        (
            _c("id", "TEXT PRIMARY KEY", "Facet id.", "분류 기준 id."),
            _c("position", "INTEGER NOT NULL", "Order in the taxonomy.", "분류 체계 안의 순서."),
            _c("label_en", "TEXT NOT NULL", "Label in English.", "영어 이름."),
            _c("label_ko", "TEXT NOT NULL", "Label in Korean.", "한국어 이름."),
            _c("description_en", "TEXT NOT NULL", "Description in English.", "영어 설명."),
            _c("description_ko", "TEXT NOT NULL", "Description in Korean.", "한국어 설명."),
            _c(
                "terms_per_case",
                "TEXT NOT NULL",
                "one or many.",
                "사례당 하나(one) 또는 여럿(many).",
            ),
            _c("required", "INTEGER NOT NULL", "1 if every case has one.", "모든 사례에 있으면 1."),
            _c(
                "role",
                "TEXT NOT NULL",
                "context or descriptive.",
                "맥락(context) 또는 서술(descriptive).",
            ),
        ),
    ),
    Table(
        "terms",
        "The reviewed vocabulary of each facet, with how many cases use each term.",
        "분류 기준별로 검토한 용어와 각 용어를 쓰는 사례 수.",
        (
            _c("facet", "TEXT NOT NULL REFERENCES facets(id)", "Facet id.", "분류 기준 id."),
            _c("id", "TEXT NOT NULL", "Term id.", "용어 id."),
            _c("position", "INTEGER NOT NULL", "Order in its facet.", "분류 기준 안의 순서."),
            _c("label_en", "TEXT NOT NULL", "Label in English.", "영어 이름."),
            _c("label_ko", "TEXT NOT NULL", "Label in Korean.", "한국어 이름."),
            _c("description_en", "TEXT NOT NULL", "Description in English.", "영어 설명."),
            _c("description_ko", "TEXT NOT NULL", "Description in Korean.", "한국어 설명."),
            _c(
                "parent",
                "TEXT",
                "The broader term of the same facet.",
                "같은 분류 기준의 상위 용어.",
            ),
            _c("cases", "INTEGER NOT NULL", "Cases tagged with it.", "이 용어가 붙은 사례 수."),
        ),
        ("PRIMARY KEY (facet, id)", "FOREIGN KEY (facet, parent) REFERENCES terms(facet, id)"),
        ("facet",),
        by_key=True,
    ),
    Table(
        "aliases",
        "Other names readers use for a term, by language.",
        "독자가 용어를 부르는 다른 이름(언어별).",
        (
            _c("facet", "TEXT NOT NULL", "Facet id.", "분류 기준 id."),
            _c("term", "TEXT NOT NULL", "Term id.", "용어 id."),
            _c("lang", "TEXT NOT NULL", "ko or en.", "ko 또는 en."),
            _c("alias", "TEXT NOT NULL", "The other name.", "다른 이름."),
        ),
        (
            "PRIMARY KEY (facet, term, lang, alias)",
            "FOREIGN KEY (facet, term) REFERENCES terms(facet, id)",
        ),
        ("facet", "lang"),
        by_key=True,
    ),
    Table(
        "incidents",
        "One row per case, newest first (position 0).",
        "사례마다 한 행, 최근 사례부터(position 0).",
        (
            _c("id", "TEXT PRIMARY KEY", "Case id.", "사례 id."),
            _c(
                "position",
                "INTEGER NOT NULL UNIQUE",
                "Place in the library's order.",
                "라이브러리 순서.",
            ),
            _c(
                "occurred",
                "TEXT NOT NULL",
                "When it happened: YYYY, YYYY-MM or YYYY-MM-DD.",
                "발생 시점(YYYY, YYYY-MM, YYYY-MM-DD).",
            ),
            _c(
                "occurred_year", "INTEGER", "The year it happened, when known.", "발생 연도(알 때)."
            ),
            _c("ended", "TEXT", "When it ended, when known.", "끝난 시점(알 때)."),
            _c(
                "published",
                "TEXT NOT NULL",
                "When its first source was published.",
                "첫 출처가 공개된 날.",
            ),
            _c(
                "original_language",
                "TEXT NOT NULL",
                "The language it was written in.",
                "처음 쓴 언어.",
            ),
            _c("gpus", "INTEGER", "GPUs involved, when known.", "관련 GPU 수(알 때)."),
            _c(
                "hosts", "INTEGER", "Physical hosts involved, when known.", "관련 호스트 수(알 때)."
            ),
            _c(
                "nodes",
                "INTEGER",
                "Kubernetes nodes involved, when known.",
                "관련 Kubernetes 노드 수(알 때).",
            ),
            _c("clusters", "INTEGER", "Clusters involved, when known.", "관련 클러스터 수(알 때)."),
            _c(
                "page_en",
                "TEXT NOT NULL",
                "Its page in English, from the site's root.",
                "영어 페이지(사이트 루트 기준).",
            ),
            _c(
                "page_ko",
                "TEXT NOT NULL",
                "Its page in Korean, from the site's root.",
                "한국어 페이지(사이트 루트 기준).",
            ),
        ),
        (),
        ("original_language", "occurred_year"),
    ),
    Table(
        "texts",
        "Each case's text in each language it is written in (the original and its translation).",
        "사례마다 쓰인 언어별 본문(원문과 번역).",
        (
            _c("incident", "TEXT NOT NULL REFERENCES incidents(id)", "Case id.", "사례 id."),
            _c("lang", "TEXT NOT NULL", "ko or en.", "ko 또는 en."),
            _c(
                "translated",
                "INTEGER NOT NULL",
                "1 for a translation, 0 for the original.",
                "번역이면 1, 원문이면 0.",
            ),
            _c("title", "TEXT NOT NULL", "Title.", "제목."),
            _c("summary", "TEXT NOT NULL", "One-sentence summary.", "한 문장 요약."),
            *_SECTION_COLUMNS,
        ),
        ("PRIMARY KEY (incident, lang)",),
        ("lang", "translated"),
    ),
    Table(
        "incident_terms",
        "The terms each case is tagged with, by facet.",
        "사례마다 붙은 용어(분류 기준별).",
        (
            _c("incident", "TEXT NOT NULL REFERENCES incidents(id)", "Case id.", "사례 id."),
            _c("facet", "TEXT NOT NULL", "Facet id.", "분류 기준 id."),
            _c("term", "TEXT NOT NULL", "Term id.", "용어 id."),
            _c(
                "position",
                "INTEGER NOT NULL",
                "Order among the case's terms of the facet.",
                "사례 안에서 그 분류 기준 용어의 순서.",
            ),
        ),
        (
            "PRIMARY KEY (incident, facet, term)",
            "FOREIGN KEY (facet, term) REFERENCES terms(facet, id)",
        ),
        ("facet", "term"),
        by_key=True,
    ),
    Table(
        "sources",
        "The public reports each case is written from.",
        "사례를 쓴 근거인 공개 보고서.",
        (
            _c("incident", "TEXT NOT NULL REFERENCES incidents(id)", "Case id.", "사례 id."),
            _c("position", "INTEGER NOT NULL", "Order among its sources.", "출처 순서."),
            _c("url", "TEXT NOT NULL", "Address of the report.", "보고서 주소."),
            _c("title", "TEXT NOT NULL", "Title as published.", "공개된 제목."),
            _c("publisher", "TEXT NOT NULL", "Who published it.", "발행처."),
            _c("date", "TEXT NOT NULL", "When it was published.", "공개 날짜."),
        ),
        ("PRIMARY KEY (incident, position)",),
        ("publisher",),
        by_key=True,
    ),
    Table(
        "not_in_sources",
        "Sections of a case its sources do not cover.",
        "출처가 다루지 않는 사례의 절.",
        (
            _c("incident", "TEXT NOT NULL REFERENCES incidents(id)", "Case id.", "사례 id."),
            _c("section", "TEXT NOT NULL", "Section key.", "절 키."),
        ),
        ("PRIMARY KEY (incident, section)",),
        ("section",),
        by_key=True,
    ),
    Table(
        "summary_only",
        "Sections of a case whose facts come only from a secondary summary of its source.",
        "출처 자체가 아니라 출처의 2차 요약에서만 온 사실을 담은 사례의 절.",
        (
            _c("incident", "TEXT NOT NULL REFERENCES incidents(id)", "Case id.", "사례 id."),
            _c("section", "TEXT NOT NULL", "Section key.", "절 키."),
        ),
        ("PRIMARY KEY (incident, section)",),
        ("section",),
        by_key=True,
    ),
    Table(
        "related",
        "Cases that share the most descriptive terms with each case, best first.",
        "서술 용어를 가장 많이 공유하는 사례(가까운 순).",
        (
            _c("incident", "TEXT NOT NULL REFERENCES incidents(id)", "Case id.", "사례 id."),
            _c("position", "INTEGER NOT NULL", "Rank, 0 the closest.", "순위(0이 가장 가까움)."),
            _c(
                "related",
                "TEXT NOT NULL REFERENCES incidents(id)",
                "The related case.",
                "관련 사례.",
            ),
            _c(
                "shared",
                "INTEGER NOT NULL",
                "Descriptive terms they share.",
                "공유하는 서술 용어 수.",
            ),
        ),
        ("PRIMARY KEY (incident, position)",),
        by_key=True,
    ),
    Table(
        "distinct_from",
        "Cases that look alike but were reviewed as different incidents.",
        "비슷해 보이지만 다른 사고로 검토된 사례.",
        (
            _c("incident", "TEXT NOT NULL REFERENCES incidents(id)", "Case id.", "사례 id."),
            _c("other", "TEXT NOT NULL", "The case it is not.", "다른 사례."),
        ),
        ("PRIMARY KEY (incident, other)",),
        by_key=True,
    ),
)

INDEXES = (
    "CREATE INDEX incident_terms_by_term ON incident_terms (facet, term)",
    "CREATE INDEX incidents_by_year ON incidents (occurred_year)",
    "CREATE INDEX texts_by_lang ON texts (lang)",
    "CREATE INDEX related_by_related ON related (related)",
    "CREATE INDEX terms_by_parent ON terms (facet, parent)",
)


@dataclass(frozen=True)
class View:
    name: str
    en: str
    ko: str
    sql: str
    facets: tuple[str, ...] = ()


VIEWS: tuple[View, ...] = (
    View(
        "cases_per_term_and_year",
        "How many cases each term has in each year they occurred.",
        "용어별·발생 연도별 사례 수.",
        """SELECT it.facet, it.term, t.label_en, t.label_ko, i.occurred_year AS year,
       COUNT(*) AS cases
FROM incident_terms it
JOIN incidents i ON i.id = it.incident
JOIN terms t ON t.facet = it.facet AND t.id = it.term
GROUP BY it.facet, it.term, i.occurred_year""",
        ("facet", "year"),
    ),
    View(
        "cooccurring_terms",
        "Pairs of terms of different facets (each pair both ways) and how many cases have both.",
        "서로 다른 분류 기준의 용어 쌍(양방향)과 둘 다 있는 사례 수.",
        """SELECT a.facet AS facet_a, a.term AS term_a, b.facet AS facet_b, b.term AS term_b,
       COUNT(*) AS cases
FROM incident_terms a
JOIN incident_terms b ON a.incident = b.incident AND a.facet <> b.facet
GROUP BY a.facet, a.term, b.facet, b.term""",
        ("facet_a", "facet_b"),
    ),
    View(
        "case_titles",
        "Each case with its title and summary in both languages (the original where untranslated).",
        "사례별 두 언어의 제목과 요약(번역이 없으면 원문).",
        """SELECT i.id, i.position, i.occurred, i.original_language,
       COALESCE(en.title, orig.title) AS title_en, COALESCE(ko.title, orig.title) AS title_ko,
       COALESCE(en.summary, orig.summary) AS summary_en,
       COALESCE(ko.summary, orig.summary) AS summary_ko
FROM incidents i
JOIN texts orig ON orig.incident = i.id AND orig.translated = 0
LEFT JOIN texts en ON en.incident = i.id AND en.lang = 'en'
LEFT JOIN texts ko ON ko.incident = i.id AND ko.lang = 'ko'""",
        ("original_language",),
    ),
)
