"""The site's URLs (generator/pages/urls.py): one function per kind of page, `relative` links
(same folder, up, down, across languages, fragments) checked against posixpath, `counterpart`,
`source_path`, and the reserved names that keep ids from overwriting the site's own pages."""

from __future__ import annotations

import posixpath

import pytest
from conftest import TAXONOMY
from hypothesis import given
from hypothesis import strategies as st

from generator.load.front_matter import parse_yaml
from generator.load.taxonomy import build_taxonomy
from generator.model.taxonomy import Term
from generator.pages import urls

TAX = build_taxonomy(parse_yaml(TAXONOMY, "taxonomy.yml"), "taxonomy.yml")[0]
GPU_FAILURE = TAX.term("cause", "gpu-failure")
UNVERIFIED = TAX.term("contributing_factor", "unverified-assumption")


class TestUrlFunctions:
    def test_root(self):
        assert urls.root() == "index.html"

    def test_home_and_its_pages(self):
        assert urls.home("ko") == "ko/index.html"
        assert urls.home("en", 1) == "en/index.html"
        assert urls.home("en", 2) == "en/page/2.html"
        assert urls.home("ko", 13) == "ko/page/13.html"

    def test_case(self):
        assert urls.case("en", "acme-gpu-outage") == "en/cases/acme-gpu-outage.html"

    def test_facet_by_object_or_id(self):
        facet = TAX.facet("contributing_factor")
        assert urls.facet("en", facet) == "en/contributing-factor/index.html"
        assert urls.facet("ko", "contributing_factor") == "ko/contributing-factor/index.html"
        assert urls.facet("ko", "cause") == "ko/cause/index.html"

    def test_term_and_its_pages(self):
        assert urls.term("en", GPU_FAILURE) == "en/cause/gpu-failure.html"
        assert urls.term("en", GPU_FAILURE, 1) == "en/cause/gpu-failure.html"
        assert urls.term("ko", GPU_FAILURE, 2) == "ko/cause/gpu-failure/2.html"
        assert urls.term("en", UNVERIFIED) == "en/contributing-factor/unverified-assumption.html"

    def test_matrix(self):
        assert urls.matrix("en", "cause", "component") == "en/matrix/cause-x-component.html"
        assert (
            urls.matrix("ko", "component", "contributing_factor")
            == "ko/matrix/component-x-contributing-factor.html"
        )

    def test_every_url_names_an_html_file(self):
        made = [
            urls.root(),
            urls.home("en"),
            urls.home("en", 3),
            urls.case("en", "x"),
            urls.facet("en", "cause"),
            urls.term("en", GPU_FAILURE),
            urls.term("en", GPU_FAILURE, 4),
            urls.matrix("en", "cause", "symptom"),
        ]
        assert all(url.endswith(".html") and not url.startswith("/") for url in made)
        assert len(set(made)) == len(made)

    def test_page_size(self):
        assert urls.PAGE_SIZE == 20


class TestRelative:
    @pytest.mark.parametrize(
        ("start", "target", "expected"),
        [
            ("en/cases/a.html", "en/cases/b.html", "b.html"),
            ("en/cases/a.html", "en/index.html", "../index.html"),
            ("en/cases/a.html", "index.html", "../../index.html"),
            ("en/cause/gpu-failure/2.html", "en/cases/a.html", "../../cases/a.html"),
            ("en/index.html", "en/cause/gpu-failure.html", "cause/gpu-failure.html"),
            ("index.html", "en/cases/a.html", "en/cases/a.html"),
            ("index.html", "index.html", "index.html"),
            ("en/cases/a.html", "ko/cases/a.html", "../../ko/cases/a.html"),
            ("en/page/2.html", "en/page/3.html", "3.html"),
            # a folder named like the file it sits beside
            ("en/cause/gpu-failure/2.html", "en/cause/gpu-failure.html", "../gpu-failure.html"),
            ("en/cause/x.html", "en/cause/x/2.html", "x/2.html"),
            ("en/cases/a.html", "en/search/terms.js", "../search/terms.js"),
            ("en/cases/a.html", "en", "../../en"),  # a target named like a folder above
        ],
    )
    def test_paths(self, start, target, expected):
        assert urls.relative(start, target) == expected

    @pytest.mark.parametrize(
        ("start", "target", "expected"),
        [
            ("en/cases/a.html", "#sources", "a.html#sources"),
            ("en/cases/a.html", "en/cases/a.html#cite", "a.html#cite"),
            ("en/cases/a.html", "en/cases/b.html#related", "b.html#related"),
            ("en/index.html", "en/cause/index.html#terms", "cause/index.html#terms"),
            ("en/cases/a.html", "en/index.html#", "../index.html"),
        ],
    )
    def test_fragments(self, start, target, expected):
        assert urls.relative(start, target) == expected

    @given(
        st.lists(st.sampled_from(["en", "ko", "cases", "cause", "x"]), max_size=3),
        st.lists(st.sampled_from(["en", "ko", "cases", "cause", "x"]), max_size=3),
        st.sampled_from(["a.html", "x.html", "index.html"]),
        st.sampled_from(["b.html", "x.html", "index.html"]),
    )
    def test_resolves_to_the_target_from_the_start(self, start_dirs, target_dirs, start, target):
        start_url = "/".join([*start_dirs, start])
        target_url = "/".join([*target_dirs, target])
        link = urls.relative(start_url, target_url)
        resolved = posixpath.normpath(posixpath.join(posixpath.dirname(start_url), link))
        assert resolved == target_url
        assert link == posixpath.relpath(target_url, posixpath.dirname(start_url) or ".")


class TestCounterpartAndSourcePath:
    @pytest.mark.parametrize(
        ("url", "lang", "expected"),
        [
            ("ko/cases/x.html", "en", "en/cases/x.html"),
            ("en/index.html", "ko", "ko/index.html"),
            ("en/cause/gpu-failure/2.html", "ko", "ko/cause/gpu-failure/2.html"),
            ("ko/cases/x.html", "ko", "ko/cases/x.html"),
            ("index.html", "en", "index.html"),  # the root belongs to no language
            ("assets/library.css", "en", "assets/library.css"),
            ("english/index.html", "ko", "english/index.html"),
        ],
    )
    def test_counterpart(self, url, lang, expected):
        assert urls.counterpart(url, lang) == expected

    def test_source_path(self):
        assert urls.source_path("ko/cases/x.html") == "ko/cases/x.md"
        assert urls.source_path("index.html") == "index.md"
        assert urls.source_path("en/cause/x/2.html") == "en/cause/x/2.md"


class TestReservedNames:
    def test_the_folders_of_the_sites_own_pages_are_reserved_facet_slugs(self):
        folders = {
            urls.case("en", "x").split("/")[1],
            urls.home("en", 2).split("/")[1],
            urls.matrix("en", "cause", "component").split("/")[1],
        }
        assert folders == {"cases", "page", "matrix"}
        assert folders <= urls.RESERVED_FACET_SLUGS
        assert {"search", "assets", "api", "index"} <= urls.RESERVED_FACET_SLUGS

    def test_a_term_called_index_would_be_its_facets_page(self):
        assert "index" in urls.RESERVED_TERM_IDS
        index = Term(3, "index", "cause", "", "", "", "", (), (), None)
        assert urls.term("en", index) == urls.facet("en", "cause")

    def test_a_facet_slug_that_is_reserved_would_mix_with_the_sites_pages(self):
        cases = Term(0, "x", "cases", "", "", "", "", (), (), None)
        assert urls.term("en", cases) == urls.case("en", "x")
        assert "cases" in urls.RESERVED_FACET_SLUGS

    def test_an_incident_called_index(self):
        assert "index" in urls.RESERVED_INCIDENT_IDS
        assert urls.case("en", "index") == "en/cases/index.html"
