"""The checks of `incidents audit` on a default build of this repository, in a real Chromium,
over http and from disk, in both languages: the "check your cluster" block on a case page
(Imbue's) and under filtered results, the index of checks and a check's page."""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest
from browser import serious_violations
from conftest import REPO
from sitebuild import build_fixture_site

CHECK_COUNT = len([p for p in (REPO / "checks").iterdir() if p.is_dir()])
BLOCK = {"ko": "내 클러스터에도 있는지 확인하기", "en": "Check whether your cluster has it too"}


@pytest.fixture(scope="module")
def site(tmp_path_factory) -> Path:
    """The repository built as it is, settings untouched (no other checker configured)."""
    root = tmp_path_factory.mktemp("checks") / "project"
    root.mkdir()
    for name in ("mkdocs.yml", "taxonomy.yml"):
        shutil.copy(REPO / name, root / name)
    for folder in ("docs", "overrides", "incidents", "checks"):
        shutil.copytree(REPO / folder, root / folder)
    return build_fixture_site(root)


def visible_checks(page) -> list[str]:
    return page.eval_on_selector_all(
        "#check-your-cluster li:not([hidden]) a[href*='checks/']",
        "as => as.filter(a => a.offsetParent !== null).map(a => a.getAttribute('href').split('/').pop())",
    )


@pytest.mark.parametrize("lang", ["ko", "en"])
def test_the_imbue_case_page_lists_the_checks_drawn_from_it(pages, base, lang):
    url = base + f"{lang}/cases/imbue-h100-cluster-bring-up.html"
    context, page, watch = pages.open(url, bypass_csp=True)  # axe is injected below
    block = page.locator("#check-your-cluster")
    assert block.locator("h2").inner_text() == BLOCK[lang]
    shown = visible_checks(page)
    assert shown[:2] == ["gpu-metrics-exporter-missing.html", "gpu-stack-unpinned.html"]
    assert "incidents audit --live" in block.locator("pre").inner_text()
    page.click("#check-your-cluster a[href$='gpu-stack-unpinned.html']")
    page.wait_for_selector("#check-title")
    assert page.url.endswith(f"{lang}/checks/gpu-stack-unpinned.html")
    cited = page.eval_on_selector_all("#cases a", "as => as.map(a => a.getAttribute('href'))")
    assert "../cases/imbue-h100-cluster-bring-up.html" in cited
    assert "nvcr.io/nvidia/k8s-device-plugin:latest" in page.inner_text("#example pre")
    assert watch.errors == []
    if base.startswith("http"):  # axe reads the stylesheets, which a file:// page may not
        assert serious_violations(page) == []
    context.close()


@pytest.mark.parametrize("lang", ["ko", "en"])
def test_the_block_under_the_results_follows_the_filters(pages, base, lang):
    context, page, watch = pages.open(base + f"{lang}/index.html?organization=jetstack")
    page.wait_for_selector("[data-il-library][data-il-ready='true']")
    shown = visible_checks(page)
    assert "webhook-fail-closed-system-namespaces.html" in shown
    assert "gpu-stack-unpinned.html" not in shown
    page.goto(base + f"{lang}/index.html?organization=imbue")
    page.wait_for_selector("[data-il-library][data-il-ready='true']")
    shown = visible_checks(page)
    assert "gpu-stack-unpinned.html" in shown and "webhook-matches-everything.html" not in shown
    assert watch.errors == []
    context.close()


def test_without_javascript_the_block_lists_the_checks_of_the_top_components(pages, base):
    context, page, _ = pages.open(base + "en/index.html", java_script_enabled=False)
    shown = visible_checks(page)
    assert shown and "checkpoint-on-node-local-storage.html" in shown
    context.close()


@pytest.mark.parametrize("lang", ["ko", "en"])
def test_the_index_lists_every_check(pages, base, lang):
    context, page, watch = pages.open(base + f"{lang}/checks/index.html", bypass_csp=True)
    listed = page.eval_on_selector_all(".il-checks__item > a", "as => as.map(a => a.href)")
    assert len(listed) == CHECK_COUNT
    assert watch.errors == []
    if base.startswith("http"):
        assert serious_violations(page) == []
    context.close()
