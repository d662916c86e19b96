"""The files pages load (generator/outputs/assets.py): `facet_styles` writes one rule per facet
with the colour taxonomy.yml gives it; `asset_files` ships every browser file of the package,
the stylesheets and scripts pages name, and the theme scripts the overrides load."""

from __future__ import annotations

import re
from importlib import resources

from conftest import REPO, TAXONOMY

from generator.load.front_matter import parse_yaml
from generator.load.taxonomy import build_taxonomy
from generator.model.taxonomy import Facet, Taxonomy
from generator.outputs.assets import SCRIPTS, STYLESHEETS, asset_files, facet_styles

TAX = build_taxonomy(parse_yaml(TAXONOMY, "taxonomy.yml"), "taxonomy.yml")[0]
RULE = re.compile(r"^(?P<selectors>[^{]+) \{ --il-facet: (?P<color>#[0-9a-f]{6}); \}$")


def rules(css: str) -> dict[str, str]:
    out = {}
    for line in css.splitlines()[1:]:
        match = RULE.match(line)
        assert match, line
        out[match["selectors"]] = match["color"]
    return out


class TestFacetStyles:
    def test_one_rule_per_facet_with_its_colour(self):
        found = rules(facet_styles(TAX))
        assert list(found.values()) == [f.color for f in TAX.facets]
        assert found[".il-chip--cause, .il-swatch--cause, .il-node--cause"] == "#7b3fa0"
        assert (
            found[
                ".il-chip--contributing_factor, .il-swatch--contributing_factor, "
                ".il-node--contributing_factor"
            ]
            == "#8a5a00"
        )

    def test_a_comment_says_where_it_comes_from(self):
        css = facet_styles(TAX)
        assert css.startswith("/* Written by the build from taxonomy.yml")
        assert css.endswith("; }\n")
        assert css.count("--il-facet:") == len(TAX.facets) == 6

    def test_colours_are_written_lower_case_from_the_taxonomy(self):
        text = TAXONOMY.replace('color: "#7b3fa0"', 'color: "#ABCDEF"')
        taxonomy = build_taxonomy(parse_yaml(text, "t.yml"), "t.yml")[0]
        assert ".il-chip--cause, .il-swatch--cause, .il-node--cause { --il-facet: #abcdef; }" in (
            facet_styles(taxonomy)
        )

    def test_a_new_facet_gets_a_rule(self):
        extra = Facet("accelerator", "가속기", "Accelerator", "", "", (), color="#123456")
        css = facet_styles(Taxonomy((*TAX.facets, extra)))
        assert (
            ".il-chip--accelerator, .il-swatch--accelerator, .il-node--accelerator { --il-facet: #123456; }"
            in css
        )

    def test_the_chip_classes_are_those_the_renderer_writes(self):
        from generator.render.renderer import chip

        html = chip(TAX.term("cause", "gpu-failure"), "en", lambda url: url)
        assert 'class="il-chip il-chip--cause"' in html
        assert ".il-chip--cause," in facet_styles(TAX)


class TestAssetFiles:
    def test_every_shipped_browser_file(self):
        files = asset_files(TAX)
        folder = resources.files("generator.outputs") / "assets"
        shipped = {f"assets/{p.name}" for p in folder.iterdir() if p.name.endswith((".js", ".css"))}
        assert set(files) == shipped | {"assets/facets.css"}
        for path, content in files.items():
            assert isinstance(content, bytes) and content, path
        assert files["assets/library.js"] == (folder / "library.js").read_bytes()

    def test_the_facet_stylesheet_is_written_from_the_taxonomy(self):
        files = asset_files(TAX)
        assert files["assets/facets.css"] == facet_styles(TAX).encode("utf-8")

    def test_pages_name_only_files_that_ship(self):
        files = asset_files(TAX)
        assert set(STYLESHEETS) | set(SCRIPTS) <= set(files)
        assert STYLESHEETS == ("assets/library.css", "assets/facets.css")  # facet colours last

    def test_the_theme_scripts_the_overrides_load_ship(self):
        files = asset_files(TAX)
        overrides = "".join(
            p.read_text(encoding="utf-8") for p in (REPO / "overrides").rglob("*.html")
        )
        named = set(re.findall(r"'(assets/[a-z-]+\.js)'", overrides))
        assert {"assets/theme.js", "assets/theme-body.js"} <= named
        assert named <= set(files)

    def test_the_same_files_for_every_build(self):
        assert asset_files(TAX) == asset_files(TAX)
