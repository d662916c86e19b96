"""The co-occurrence tables as HTML (templates/matrix.html) and the Korean particles of their
labels (render/strings.py `particle`, which `t` applies): 와 or 과, 이 or 가… by the sound the
value ends in, for Hangul, digits, acronyms and Latin words; each cell with cases has a tooltip
and an accessible label, an empty one a "0" for screen readers; shades, the legend, headers and
the data matrix.js reads, in both languages. Incidents are made in memory; HTML is read with
selectolax."""

from __future__ import annotations

import pytest
from conftest import TAXONOMY, memory_incident
from selectolax.lexbor import LexborHTMLParser as HTMLParser

from generator.load.front_matter import parse_yaml
from generator.load.taxonomy import build_taxonomy
from generator.model.library import build_library
from generator.pages.build import SiteOptions, build_pages
from generator.render import strings
from generator.render.renderer import Renderer

TAX = build_taxonomy(parse_yaml(TAXONOMY, "taxonomy.yml"), "taxonomy.yml")[0]
OPTIONS = SiteOptions(site_url="https://example.org/")


class TestParticles:
    @pytest.mark.parametrize(
        ("word", "wa", "ga", "ro"),
        [
            ("잘못된 변경", "과", "이", "으로"),  # 경: ㅇ
            ("소프트웨어 버그", "와", "가", "로"),
            ("GPU 고장", "과", "이", "으로"),
            ("하드웨어 고장", "과", "이", "으로"),
            ("전력·냉각", "과", "이", "으로"),
            ("InfiniBand 패브릭", "과", "이", "으로"),
            ("호스트 메모리", "와", "가", "로"),
            ("리눅스 커널", "과", "이", "로"),  # 널: ㄹ takes 로
            ("코드형 인프라(IaC)", "와", "가", "로"),  # read up to 라
            ("‘잘못된 변경’", "과", "이", "으로"),
            # acronyms end as their last letter is named
            ("GPU", "와", "가", "로"),  # 유
            ("클러스터 DNS", "와", "가", "로"),  # 에스
            ("NCCL", "과", "이", "로"),  # 엘
            ("RDMA NIC", "와", "가", "로"),  # 씨
            ("ML", "과", "이", "로"),
            # Latin words, as Korean writes them
            ("etcd", "와", "가", "로"),  # 엣시디
            ("systemd", "와", "가", "로"),
            ("kubelet", "과", "이", "으로"),  # 큐블릿
            ("Admission webhook", "과", "이", "으로"),  # 웹훅
            ("Kubernetes", "와", "가", "로"),
            ("kube-apiserver", "와", "가", "로"),  # 서버
            ("Modal", "과", "이", "로"),
            ("Google", "과", "이", "로"),
            ("DeepSeek", "와", "가", "로"),  # 딥시크
            ("Moonlight", "와", "가", "로"),  # 문라이트
            ("Jetstack", "과", "이", "으로"),  # 젯스택
            # digits as read: 십, 칠, 이
            ("10", "과", "이", "으로"),
            ("7", "과", "이", "로"),
            ("2", "와", "가", "로"),
        ],
    )
    def test_the_form_fits_the_sound_before_it(self, word, wa, ga, ro):
        assert strings.particle(word, "와(과)") == strings.particle(word, "과(와)") == wa
        assert strings.particle(word, "이(가)") == ga
        assert strings.particle(word, "(으)로") == ro
        assert strings.particle(word, "은(는)") == ("은" if ga == "이" else "는")
        assert strings.particle(word, "을(를)") == ("을" if ga == "이" else "를")

    def test_t_puts_the_form_after_a_placeholder(self):
        assert strings.tn("matrix_cell", "ko", 6, row="잘못된 변경", col="etcd") == (
            "잘못된 변경과 etcd: 사례 6건"
        )
        assert strings.tn("matrix_cell", "ko", 1, row="소프트웨어 버그", col="GPU") == (
            "소프트웨어 버그와 GPU: 사례 1건"
        )
        assert strings.tn("matrix_cell", "en", 1, row="Faulty change", col="etcd") == (
            "Faulty change and etcd: 1 case"
        )
        assert strings.tn("matrix_cell", "en", 6, row="Faulty change", col="etcd") == (
            "Faulty change and etcd: 6 cases"
        )

    def test_a_string_without_values_keeps_its_text(self):
        assert strings.t("matrix_cell", "ko") == "{row}와(과) {col}: 사례 {n}건"


def make(incident_id: str, **terms):
    return memory_incident(TAX, incident_id, **terms)


# gpu-failure × gpu-driver: 3 cases; × InfiniBand fabric: 1; faulty-change × etcd: 2
LIBRARY = build_library(
    TAX,
    [
        make("a", component=("gpu-driver", "infiniband-fabric")),
        make("b"),
        make("c"),
        make("d", cause=("faulty-change",), component=("etcd",)),
        make("e", cause=("faulty-change",), component=("etcd",), organization="globex"),
    ],
)
RENDERER = Renderer(LIBRARY, OPTIONS)
PAGES = {p.url: p for p in build_pages(LIBRARY, OPTIONS)}


def parse(url: str) -> HTMLParser:
    return HTMLParser(RENDERER.render(PAGES[url]))


def cells(tree: HTMLParser) -> dict[tuple[str, str], dict]:
    cols = [th.attributes["data-term"] for th in tree.css("thead th[data-term]")]
    out = {}
    for tr in tree.css("tbody tr"):
        for col, td in zip(cols, tr.css("td"), strict=True):
            a = td.css_first("a")
            out[(tr.attributes["data-term"], col)] = {
                "class": td.attributes["class"],
                "text": td.text(),
                **(
                    {
                        "href": a.attributes["href"],
                        "title": a.attributes.get("title"),
                        "label": a.attributes.get("aria-label"),
                    }
                    if a
                    else {}
                ),
            }
    return out


@pytest.mark.parametrize(
    ("lang", "labels"),
    [
        (
            "ko",
            {
                ("gpu-driver", "gpu-failure"): "GPU 드라이버와 GPU 고장: 사례 3건",
                ("infiniband-fabric", "gpu-failure"): "InfiniBand 패브릭과 GPU 고장: 사례 1건",
                ("etcd", "faulty-change"): "etcd와 잘못된 변경: 사례 2건",
            },
        ),
        (
            "en",
            {
                ("gpu-driver", "gpu-failure"): "GPU driver and GPU failure: 3 cases",
                ("infiniband-fabric", "gpu-failure"): "InfiniBand fabric and GPU failure: 1 case",
                ("etcd", "faulty-change"): "etcd and Faulty change: 2 cases",
            },
        ),
    ],
)
def test_cells_have_a_tooltip_a_label_and_a_shade(lang, labels):
    # three components used and two causes: the components run down the side
    tree = parse(f"{lang}/matrix/cause-x-component.html")
    found = cells(tree)
    hits = {key: cell for key, cell in found.items() if "href" in cell}
    assert {key: cell["title"] for key, cell in hits.items()} == labels
    assert {key: cell["label"] for key, cell in hits.items()} == labels
    # max 3: one step per count, the fullest darkest
    assert {key: cell["class"] for key, cell in hits.items()} == {
        ("gpu-driver", "gpu-failure"): "il-num il-matrix__hit il-matrix__c5",
        ("infiniband-fabric", "gpu-failure"): "il-num il-matrix__hit il-matrix__c2",
        ("etcd", "faulty-change"): "il-num il-matrix__hit il-matrix__c4",
    }
    # the address names the terms in the taxonomy's order, whichever runs down the side
    assert (
        hits[("etcd", "faulty-change")]["href"]
        == "../index.html?cause=faulty-change&component=etcd"
    )
    empty = [cell for cell in found.values() if "href" not in cell]
    assert len(empty) == 3
    assert all(cell["text"] == "0" and cell["class"] == "il-num" for cell in empty)
    assert "와(과)" not in tree.html


@pytest.mark.parametrize(
    ("lang", "legend"), [("ko", ["1건", "2건", "3건"]), ("en", ["1", "2", "3"])]
)
def test_legend_shows_each_step_and_its_counts(lang, legend):
    tree = parse(f"{lang}/matrix/cause-x-component.html")
    items = tree.css("[data-il-matrix-legend] li")
    assert [li.text() for li in items] == legend
    assert [li.attributes["class"] for li in items] == [
        "il-matrix__c2",
        "il-matrix__c4",
        "il-matrix__c5",
    ]
    title = tree.css_first("#il-matrix-legend").text()
    assert title == ("칸의 색: 사례 수" if lang == "ko" else "Cell colour: number of cases")


def test_a_legend_step_of_several_counts_names_its_range():
    many = build_library(TAX, [make(f"x{n}") for n in range(15)] + [make("y", component=("etcd",))])
    pages = {p.url: p for p in build_pages(many, OPTIONS)}
    renderer = Renderer(many, OPTIONS)
    for lang, expected in (
        ("ko", ["1건", "2건", "3~5건", "6~8건", "9~15건"]),
        ("en", ["1", "2", "3–5", "6–8", "9–15"]),
    ):
        tree = HTMLParser(renderer.render(pages[f"{lang}/matrix/cause-x-component.html"]))
        assert [li.text() for li in tree.css("[data-il-matrix-legend] li")] == expected


def test_headers_and_the_data_the_script_reads():
    tree = parse("ko/matrix/cause-x-component.html")
    box = tree.css_first("[data-il-matrix]")
    assert box.attributes["data-rows"] == "component" and box.attributes["data-cols"] == "cause"
    assert box.attributes["data-il-home"] == "../index.html"
    assert box.attributes["data-il-graph-src"] == "../../ko/search/graph.js"
    assert (
        f"il-matrix--head-{PAGES['ko/matrix/cause-x-component.html'].head_height}"
        in (box.attributes["class"])
    )
    # column labels slant in a span; a row label's words each in a span that never breaks
    assert [a.text() for a in tree.css("thead th .il-matrix__slant a")] == [
        "GPU 고장",
        "잘못된 변경",
    ]
    row = tree.css_first('tbody tr[data-term="infiniband-fabric"] th')
    assert [s.text() for s in row.css(".il-matrix__word")] == ["InfiniBand", "패브릭"]
    assert row.text() == "InfiniBand 패브릭"
    # the corner names both facets; the controls wait for the script, which comes last
    assert tree.css_first(".il-matrix__corner").text() == "원인 →구성 요소 ↓"
    assert tree.css_first("h1").text() == "함께 나오는 분류 표: 원인 × 구성 요소"  # as declared
    assert "hidden" in tree.css_first("[data-il-matrix-tools]").attributes
    scripts = [s.attributes["src"] for s in tree.css("script")]
    assert scripts == ["../../ko/search/terms.js", "../../assets/matrix.js"]
    assert tree.css_first("[data-il-matrix-only]").parent.text().strip() == (
        "사례가 있는 행과 열만 보기"
    )
