"""The co-occurrence tables' colour scale and header (generator/pages/build.py count_scale,
head_height, MatrixPage.shade): steps that cover every count from 1 to the fullest cell, grow
geometrically, and always end on the darkest shade; the shade of each cell; a header tall
enough for the longest slanted label. Incidents are made in memory; nothing is rendered."""

from __future__ import annotations

import pytest
from conftest import TAXONOMY, memory_incident

from generator.load.front_matter import parse_yaml
from generator.load.taxonomy import build_taxonomy
from generator.model.library import build_library
from generator.pages.build import (
    HEAD_HEIGHTS,
    SHADES,
    SiteOptions,
    build_pages,
    count_scale,
    head_height,
)
from generator.pages.kinds import MatrixPage, ScaleStep

TAX = build_taxonomy(parse_yaml(TAXONOMY, "taxonomy.yml"), "taxonomy.yml")[0]


def steps(maximum: int) -> list[tuple[int, int, int]]:
    return [(s.shade, s.low, s.high) for s in count_scale(maximum)]


class TestCountScale:
    @pytest.mark.parametrize(
        ("maximum", "expected"),
        [
            # the real library's tables: most cells 1 or 2, a few up to 15
            (15, [(1, 1, 1), (2, 2, 2), (3, 3, 5), (4, 6, 8), (5, 9, 15)]),
            (11, [(1, 1, 1), (2, 2, 2), (3, 3, 4), (4, 5, 6), (5, 7, 11)]),
            (8, [(1, 1, 1), (2, 2, 2), (3, 3, 3), (4, 4, 5), (5, 6, 8)]),
            (100, [(1, 1, 2), (2, 3, 6), (3, 7, 15), (4, 16, 39), (5, 40, 100)]),
            # five counts or fewer: a step each, spread so the fullest is the darkest
            (5, [(1, 1, 1), (2, 2, 2), (3, 3, 3), (4, 4, 4), (5, 5, 5)]),
            (3, [(2, 1, 1), (4, 2, 2), (5, 3, 3)]),
            (2, [(3, 1, 1), (5, 2, 2)]),
            (1, [(5, 1, 1)]),
            (0, []),
        ],
    )
    def test_steps(self, maximum, expected):
        assert steps(maximum) == expected

    def test_powers_that_land_just_below_a_whole_number_still_count(self):
        # 32 ** 0.2 is 2 exactly, 1000 ** (1/3) is 9.999…: both are steps' tops
        assert steps(32)[0] == (1, 1, 2)
        assert [high for _, _, high in steps(1000)] == [3, 15, 63, 251, 1000]

    def test_every_count_has_exactly_one_step_and_the_top_is_darkest(self):
        for maximum in range(1, 2000):
            scale = count_scale(maximum)
            assert scale[0].low == 1 and scale[-1].high == maximum
            assert all(s.low <= s.high for s in scale)
            assert all(b.low == a.high + 1 for a, b in zip(scale, scale[1:], strict=False))
            shades = [s.shade for s in scale]
            assert shades == sorted(set(shades)) and shades[-1] == SHADES
            assert len(scale) == min(SHADES, maximum)

    def test_steps_grow(self):
        # a geometric scale: each step at least as wide as the one before it
        for maximum in (20, 50, 300):
            widths = [s.high - s.low + 1 for s in count_scale(maximum)]
            assert widths == sorted(widths), maximum


class TestShade:
    def test_a_cell_takes_the_shade_of_its_step(self):
        page = MatrixPage(url="en/matrix/a-x-b.html", lang="en", title="", scale=count_scale(15))
        assert [page.shade(n) for n in (0, 1, 2, 3, 5, 6, 8, 9, 15)] == [0, 1, 2, 3, 3, 4, 4, 5, 5]

    def test_an_empty_table_has_no_shades(self):
        page = MatrixPage(url="en/matrix/a-x-b.html", lang="en", title="")
        assert page.scale == () and page.shade(0) == 0


class TestHeadHeight:
    def test_longer_labels_need_a_taller_header(self):
        short = head_height(["GPU", "CNI"])
        long = head_height(["kube-controller-manager"])
        korean = head_height(["호스트 내부 인터커넥트"])
        assert short == HEAD_HEIGHTS[0] < korean <= long < HEAD_HEIGHTS[1]

    def test_bounded(self):
        assert head_height([]) == HEAD_HEIGHTS[0]
        assert head_height(["x" * 400]) == HEAD_HEIGHTS[1]


def make(incident_id: str, **terms):
    return memory_incident(TAX, incident_id, **terms)


def test_matrix_pages_carry_the_scale_of_their_counts():
    # gpu-failure × gpu-driver in 3 cases, faulty-change × etcd in 1
    library = build_library(
        TAX,
        [make("a"), make("b"), make("c"), make("d", cause=("faulty-change",), component=("etcd",))],
    )
    pages = {p.url: p for p in build_pages(library, SiteOptions())}
    for lang in ("en", "ko"):
        matrix = pages[f"{lang}/matrix/cause-x-component.html"]
        assert matrix.scale == (ScaleStep(2, 1, 1), ScaleStep(4, 2, 2), ScaleStep(5, 3, 3))
        assert matrix.shade(matrix.cells[("gpu-failure", "gpu-driver")]) == 5
        assert matrix.shade(matrix.cells[("faulty-change", "etcd")]) == 2
        assert HEAD_HEIGHTS[0] <= matrix.head_height <= HEAD_HEIGHTS[1]
