"""Hostile content from an unknown contributor never runs in a reader's browser."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest
from browser import PageWatch, serve
from conftest import BODY_EN, REPO, TODAY, Project, incident_text, translation_text
from selectolax.lexbor import LexborHTMLParser as HTMLParser
from sitebuild import CHECKER, REPOSITORY, build_fixture_site, write_fixture_library

from generator.load.front_matter import parse_yaml
from generator.load.project import ProjectPaths
from generator.load.taxonomy import build_taxonomy
from generator.model.incident import CaseText, Incident, Section, Source, incident_model
from generator.model.library import build_library
from generator.pages.build import SiteOptions, build_pages
from generator.pages.kinds import CasePage
from generator.pipeline.check import check_project
from generator.render.renderer import Renderer

HOSTILE = "acme-hostile"
# Raw HTML a contributor may write (the check passes it: it is shown as text). Markdown links to
# other schemes and images are refused by the check itself (tests/validate), and the renderer
# drops them too (tests/render/test_render_prose.py).
HOSTILE_BODY = BODY_EN.replace(
    "Jobs {name} stopped.",
    "Jobs stopped.\n\n"
    "<script>window.__pwned = 'script'</script>\n\n"
    '<img src="x" onerror="window.__pwned = \'onerror\'">\n\n'
    "<a href=\"javascript:window.__pwned='raw-link'\">raw link</a>\n\n"
    "<iframe src=\"javascript:window.__pwned='iframe'\"></iframe>\n\n"
    "<svg onload=\"window.__pwned='svg'\"></svg> <details open ontoggle=\"window.__pwned='toggle'\">x</details>",
)


@pytest.fixture(scope="module")
def site(tmp_path_factory) -> Path:
    project = Project(tmp_path_factory.mktemp("hostile") / "project")
    write_fixture_library(project)
    project.add_incident(
        HOSTILE, url="https://reports.acme.dev/hostile", occurred="2024-03-02", body=HOSTILE_BODY
    )
    return build_fixture_site(project.root)


def test_hostile_markup_is_shown_as_text_not_markup(site):
    tree = HTMLParser((site / "en" / "cases" / f"{HOSTILE}.html").read_text(encoding="utf-8"))
    article = tree.css_first("article.il-case")
    assert article.css("script, iframe, svg, img, details") == []
    for node in article.css("*"):
        assert not any(name.startswith("on") for name in node.attributes), node.html
        href = node.attributes.get("href") or ""
        assert not href.lower().startswith(("javascript:", "data:")), node.html
    text = article.css_first("#symptoms").text()
    assert "<script>window.__pwned = 'script'</script>" in text  # readable, inert
    assert "raw link" in text


@pytest.mark.parametrize("transport", ["http", "file"])
def test_nothing_executes_in_the_browser(chromium, site, transport):
    def run(base: str) -> None:
        context = chromium.new_context()
        page = context.new_page()
        dialogs: list[str] = []
        page.on("dialog", lambda d: (dialogs.append(d.message), d.dismiss()))
        watch = PageWatch(page)
        page.goto(f"{base}en/cases/{HOSTILE}.html")
        page.wait_for_timeout(300)
        for link in page.locator(
            "article.il-case #symptoms a, article.il-case #symptoms span"
        ).all():
            link.click(timeout=2000)
        page.wait_for_timeout(200)
        assert page.evaluate("() => window.__pwned === undefined")
        assert dialogs == []
        assert [e for e in watch.errors if "Content Security Policy" in e] == []
        assert watch.foreign_requests(base) == []
        context.close()

    if transport == "file":
        run(site.as_uri() + "/")
    else:
        with serve(site) as base:
            run(base)


def test_every_page_carries_a_policy_without_unsafe_inline(site):
    for path in site.rglob("*.html"):
        html = path.read_text(encoding="utf-8")
        head = html[: html.index("</head>")]
        assert '<meta http-equiv="Content-Security-Policy"' in head, path
        assert "unsafe-inline" not in head and "unsafe-eval" not in head, path
        assert (
            " on" not in "".join(HTMLParser(html).css_first("body").html.split('"'))[:0]
        )  # structure only


@pytest.mark.parametrize(
    ("field", "kwargs", "expected"),
    [
        (
            "title",
            {"title": "<img src=x onerror=alert(1)>"},
            "3:8: title: HTML tags are not allowed here; write plain text",
        ),
        (
            "url",
            {"url": "javascript:alert(1)"},
            "18:10: sources[0].url: 'javascript:alert(1)' is not an http(s) URL",
        ),
    ],
)
def test_validator_rejects_markup_and_script_urls_in_fields(project, field, kwargs, expected):
    project.add_incident(**kwargs)
    lines = [d.format() for d in check_project(ProjectPaths.at(project.root), TODAY).diagnostics]
    assert f"incidents/acme-gpu-outage.md:{expected}" in lines


def test_validator_rejects_markup_in_source_titles_and_aliases(project):
    project.write(
        "incidents/acme-gpu-outage.md",
        incident_text().replace('title: "Postmortem"', 'title: "<script>alert(1)</script>"'),
    )
    project.write("incidents/acme-gpu-outage.ko.md", translation_text())
    taxonomy = (project.root / "taxonomy.yml").read_text(encoding="utf-8")
    project.write(
        "taxonomy.yml",
        taxonomy.replace(
            "aliases: {ko: [인피니밴드], en: [IB]}",
            'aliases: {ko: [인피니밴드], en: ["<b onmouseover=x>IB</b>"]}',
        ),
    )
    lines = [d.format() for d in check_project(ProjectPaths.at(project.root), TODAY).diagnostics]
    assert lines == [
        "taxonomy.yml:88:37: component.infiniband-fabric.aliases.en[0]: HTML tags are not allowed here; write plain text"
    ]
    project.write("taxonomy.yml", taxonomy)
    lines = [d.format() for d in check_project(ProjectPaths.at(project.root), TODAY).diagnostics]
    assert lines == [
        "incidents/acme-gpu-outage.md:19:12: sources[0].title: HTML tags are not allowed here; write plain text"
    ]


def test_templates_escape_whatever_reaches_them():
    """Even a value that skipped validation is printed as text: autoescaping is always on."""
    from conftest import TAXONOMY

    taxonomy, _ = build_taxonomy(parse_yaml(TAXONOMY, "taxonomy.yml"), "taxonomy.yml")
    evil = '<script>window.__pwned=1</script>"><img src=x onerror=alert(1)>'
    meta = incident_model(taxonomy).model_construct(
        id="evil",
        title=evil,
        summary=evil,
        lang="en",
        occurred="2024",
        ended=None,
        published="2024",
        organization="acme",
        domain=("ai-infra",),
        symptom=("service-outage",),
        cause=("gpu-failure",),
        component=("etcd",),
        contributing_factor=(),
        scale=None,
        sources=(
            Source.model_construct(
                url="https://e.com/" + evil, title=evil, publisher=evil, date="2024"
            ),
        ),
    )
    sections = tuple(
        Section(key, "text", 1)
        for key in ("symptoms", "trigger", "detection", "actions", "follow_ups", "lessons")
    )
    incident = Incident(
        meta, "incidents/evil.md", (CaseText("en", evil, evil, sections, "incidents/evil.md"),)
    )
    library = build_library(taxonomy, [incident])
    page = next(p for p in build_pages(library) if isinstance(p, CasePage) and p.lang == "en")
    html = Renderer(library, SiteOptions()).render(page)
    assert "<script>window.__pwned" not in html and "<img src=x" not in html
    assert "&lt;script&gt;window.__pwned=1&lt;/script&gt;" in html


REFRESH = '0;url=https://evil.example/" http-equiv="refresh'


def test_quotes_in_summaries_and_descriptions_stay_inside_their_attribute(tmp_path):
    """A double quote in a summary or a taxonomy description cannot add attributes to the
    page's <meta name="description"> (a meta refresh would send every reader elsewhere)."""
    project = Project(tmp_path / "project")
    write_fixture_library(project)
    taxonomy = (project.root / "taxonomy.yml").read_text(encoding="utf-8")
    taxonomy = taxonomy.replace(
        "description: {ko: 얽힌 구성 요소., en: Components involved.}",
        f"description: {{ko: '{REFRESH}', en: '{REFRESH}'}}",
    ).replace(
        "description: {ko: GPU 드라이버., en: The GPU driver.}",
        f"description: {{ko: '{REFRESH}', en: '{REFRESH}'}}",
    )
    project.write("taxonomy.yml", taxonomy)
    hostile = incident_text("acme-refresh", occurred="2024-03-03", url="https://reports.acme.dev/r")
    hostile = hostile.replace(
        'summary: "Driver updates left GPUs unusable."', f"summary: '{REFRESH}'"
    )
    project.write("incidents/acme-refresh.md", hostile)
    project.write(
        "incidents/acme-refresh.ko.md",
        translation_text().replace(
            'summary: "드라이버 업데이트로 GPU를 못 쓰게 됐습니다."', f"summary: '{REFRESH}'"
        ),
    )
    site = build_fixture_site(project.root)
    pages = [
        "en/cases/acme-refresh.html",
        "ko/cases/acme-refresh.html",
        "en/component/index.html",
        "ko/component/gpu-driver.html",
    ]
    for url in pages:
        tree = HTMLParser((site / url).read_text(encoding="utf-8"))
        equivs = [m.attributes.get("http-equiv") for m in tree.css("meta[http-equiv]")]
        assert equivs == ["Content-Security-Policy"], url
        description = tree.css_first('meta[name="description"]').attributes["content"]
        assert description == REFRESH, url


def test_no_inline_script_runs_whatever_a_page_holds(chromium, tmp_path):
    """The policy allows no inline script at all (Material's helpers are files), so a script in
    a hand-written page does not run, over http and from disk."""
    project = Project(tmp_path / "project")
    write_fixture_library(project)
    about = project.root / "docs" / "en" / "about.md"
    about.write_text(
        about.read_text(encoding="utf-8") + "\n<script>window.__pwned = 'about'</script>\n",
        encoding="utf-8",
    )
    site = build_fixture_site(project.root)
    html = (site / "en" / "about.html").read_text(encoding="utf-8")
    assert "<script>window.__pwned = 'about'</script>" in html  # MkDocs passed it through
    policy = HTMLParser(html).css_first('meta[http-equiv="Content-Security-Policy"]')
    assert "sha256-" not in policy.attributes["content"]
    assert "'unsafe-inline'" not in policy.attributes["content"]
    inline = [s for s in HTMLParser(html).css("script") if "src" not in s.attributes]
    assert [
        s.attributes.get("type") for s in inline if s.text().strip() != "window.__pwned = 'about'"
    ] == ["application/json"]
    for base in (None, "file"):
        context = chromium.new_context()
        page = context.new_page()
        watch = PageWatch(page)
        if base is None:
            with serve(site) as url:
                page.goto(url + "en/about.html")
                page.wait_for_timeout(300)
                assert page.evaluate("() => window.__pwned === undefined")
                assert page.evaluate("() => typeof __md_get === 'function'")  # theme.js ran
        else:
            page.goto((site / "en" / "about.html").as_uri())
            page.wait_for_timeout(300)
            assert page.evaluate("() => window.__pwned === undefined")
        assert [e for e in watch.errors if "Content Security Policy" in e]
        context.close()


def _build_cli(root: Path) -> subprocess.CompletedProcess:
    command = [sys.executable, "-m", "generator.cli", "build", "--root", str(root)]
    env = {**os.environ, "NO_MKDOCS_2_WARNING": "1"}
    return subprocess.run(command, cwd=REPO, env=env, capture_output=True, text=True, timeout=600)


@pytest.mark.parametrize(
    ("old", "new", "message"),
    [
        (
            'site_url: !ENV [SITE_URL, ""]',
            'site_url: "javascript:alert(1)//"',
            "site_url",
        ),
        (
            "site_name: Incident Library",
            "site_name: Incident <script>x</script>",
            "site_name in mkdocs.yml must be plain text, without < or >",
        ),
        (
            f'    url: "{CHECKER[1]}"',
            "    url: javascript:alert(1)",
            "extra.check_cluster.url: 'javascript:alert(1)' is not an http(s) address",
        ),
        (
            f'repository: "{REPOSITORY}"',
            'repository: "javascript:alert(1)"',
            "extra.repository (or REPOSITORY_URL): 'javascript:alert(1)' is not an http(s) address",
        ),
        (
            f'    name: "{CHECKER[0]}"',
            '    name: ""',
            "extra.check_cluster in mkdocs.yml has a url but no name",
        ),
    ],
)
def test_settings_that_could_carry_a_script_are_refused(tmp_path, old, new, message):
    project = Project(tmp_path / "project")
    write_fixture_library(project)
    config = project.root / "mkdocs.yml"
    text = config.read_text(encoding="utf-8")
    assert old in text
    config.write_text(text.replace(old, new), encoding="utf-8")
    result = _build_cli(project.root)
    assert result.returncode != 0
    assert message in result.stderr
    assert "Traceback" not in result.stderr
    assert not (project.root / "site").exists()


def test_hostile_markdown_renders_in_bounded_time_and_never_crashes():
    """12,000 `[` took half a minute with Python-Markdown (quadratic link matching); thousands of
    nested list markers exhausted its recursion. cmark renders both at once: the brackets as
    text, lists nested at most a hundred deep and the rest as text, and quotes as deep as
    written, in output that grows with the input, not faster."""
    import time

    from generator.render.prose import to_html

    started = time.perf_counter()
    html = to_html("[" * 12_000)
    assert time.perf_counter() - started < 3.0
    assert html.count("[") == 12_000
    nested = to_html("+ " * 9_999)
    assert nested.count("<li>") <= 100 and nested.count("+") > 9_000
    quoted = to_html("> " * 9_999 + "x")
    assert quoted.count("<blockquote>") == 9_999 and len(quoted) < 30 * 20_000
    assert time.perf_counter() - started < 3.0
