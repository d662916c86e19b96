"""Link integrity of a built site (generator/adapters/link_check.py): `broken_links` on a small
folder of HTML files written here reports a missing page, a missing anchor and a link out of
the site, and ignores Material's own toggles (#__drawer), other hosts, mailto and data links,
and the 404 page."""

from __future__ import annotations

from pathlib import Path

import pytest

from generator.adapters.link_check import broken_links


def write(site: Path, files: dict[str, str]) -> Path:
    for relative, body in files.items():
        path = site / relative
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(f"<!doctype html><html><head></head><body>{body}</body></html>", "utf-8")
    return site


@pytest.fixture
def site(tmp_path: Path) -> Path:
    return write(
        tmp_path / "site",
        {
            "index.html": '<a href="en/index.html">en</a><a href="ko/index.html">ko</a>',
            "en/index.html": (
                '<h2 id="results">Results</h2>'
                '<a href="cases/a.html">a</a> <a href="cases/a.html#sources">sources</a> '
                '<a href="#results">top</a> <a href="../index.html">root</a> '
                '<link rel="stylesheet" href="../assets/library.css">'
                '<script src="../assets/library.js"></script>'
            ),
            "ko/index.html": '<a href="../en/index.html#results">en</a>',
            "en/cases/a.html": (
                '<section id="sources"><a name="cite"></a></section>'
                '<a href="../index.html">library</a> <a href="a.html#cite">cite</a> '
                '<a href="%61.html">encoded</a>'
            ),
        },
    )


def add_assets(site: Path) -> None:
    (site / "assets").mkdir(exist_ok=True)
    (site / "assets" / "library.css").write_text("", "utf-8")
    (site / "assets" / "library.js").write_text("", "utf-8")


def test_a_whole_site_has_no_broken_links(site):
    add_assets(site)
    assert broken_links(site) == []


def test_a_missing_asset_is_broken(site):
    assert broken_links(site) == [
        "en/index.html: ../assets/library.css",
        "en/index.html: ../assets/library.js",
    ]


def test_a_missing_page(site):
    add_assets(site)
    write(site, {"en/cases/b.html": '<a href="c.html">c</a> <a href="../cases/a.html">a</a>'})
    assert broken_links(site) == ["en/cases/b.html: c.html"]


def test_a_missing_anchor(site):
    add_assets(site)
    write(
        site,
        {
            "en/cases/b.html": (
                '<a href="a.html#related">no such anchor</a> <a href="#nowhere">nor here</a> '
                '<a href="a.html#sources">there is one</a>'
            )
        },
    )
    assert broken_links(site) == ["en/cases/b.html: #nowhere", "en/cases/b.html: a.html#related"]


def test_materials_own_toggles_are_not_anchors(site):
    add_assets(site)
    write(site, {"en/cases/b.html": '<a href="#__drawer">menu</a> <a href="a.html#__search">s</a>'})
    assert broken_links(site) == []


@pytest.mark.parametrize(
    "href",
    [
        "https://reports.acme.dev/missing.html",
        "http://reports.acme.dev/#nowhere",
        "//cdn.reports.acme.dev/x.js",
        "mailto:sre@reports.acme.dev",
        "data:text/plain,hello",
    ],
)
def test_external_links_are_ignored(site, href):
    add_assets(site)
    write(site, {"en/cases/b.html": f'<a href="{href}">out</a>'})
    assert broken_links(site) == []


def test_a_link_out_of_the_site_is_broken(site):
    add_assets(site)
    (site.parent / "outside.html").write_text("<p>outside</p>", "utf-8")
    write(site, {"en/cases/b.html": '<a href="../../../outside.html">out</a>'})
    assert broken_links(site) == ["en/cases/b.html: ../../../outside.html"]


def test_images_and_frames_are_checked_and_the_output_is_sorted(site):
    add_assets(site)
    write(
        site,
        {
            "z.html": '<img src="missing.png"><iframe src="en/index.html#results"></iframe>',
            "b.html": '<a href="nowhere.html">x</a>',
        },
    )
    assert broken_links(site) == ["b.html: nowhere.html", "z.html: missing.png"]


def test_the_404_page_is_not_checked(site):
    add_assets(site)
    write(site, {"404.html": '<a href="/absolute/on/purpose.html">home</a>'})
    assert broken_links(site) == []


def test_a_link_with_a_query_checks_the_file(site):
    add_assets(site)
    write(
        site,
        {
            "en/matrix/x.html": (
                '<a href="../index.html?cause=gpu-failure&amp;component=etcd">cell</a>'
                '<a href="../missing.html?x=1">gone</a>'
            )
        },
    )
    assert broken_links(site) == ["en/matrix/x.html: ../missing.html?x=1"]


def test_a_link_to_the_sites_parent_folder_is_broken(site):
    add_assets(site)
    write(site, {"en/cases/b.html": '<a href="../../..">up and out</a>'})
    assert broken_links(site) == ["en/cases/b.html: ../../.."]


def test_markdown_for_language_models_is_checked_too(site):
    add_assets(site)
    (site / "llms.txt").write_text(
        "# L\n\n- [a](en/cases/a.md): a case\n- [gone](en/cases/gone.md)\n- [x](https://x.org/)\n",
        "utf-8",
    )
    (site / "en" / "cases" / "a.md").write_text("# a\n\n[page](a.html) [up](../../llms.txt)\n")
    (site / "en" / "cases" / "b.md").write_text("[missing](nowhere.html)\n", "utf-8")
    assert broken_links(site) == ["en/cases/b.md: nowhere.html", "llms.txt: en/cases/gone.md"]
