"""Shared fixtures: small projects written into temporary folders from inline text."""

from __future__ import annotations

import shutil
import textwrap
from dataclasses import dataclass
from datetime import date
from pathlib import Path

import pytest
import yaml

# Tests marked `alone` (they fork) run where no other thread runs: tests/alone.py.
from alone import pytest_configure, pytest_pyfunc_call  # noqa: F401 - pytest's hooks

REPO = Path(__file__).resolve().parent.parent
TODAY = date(2026, 11, 30)


@pytest.fixture(scope="session", autouse=True)
def _user_cache(tmp_path_factory):
    """`incidents check` keeps its cache in the user's cache folder: the tests' goes in a
    temporary one (commands the tests start inherit it), never the machine's `~/.cache`."""
    folder = tmp_path_factory.mktemp("user-cache")
    with pytest.MonkeyPatch.context() as patch:
        patch.setenv("XDG_CACHE_HOME", str(folder))
        yield folder


# The test files that take longest, measured under `make test` (bench/README.md), in the order
# they start: pytest-xdist hands each worker whole files in collection order, so with these
# first the last file to start is a short one and the workers finish together. Order only; a
# test checks every name is a test file.
SLOWEST_FIRST = [
    "tests/test_contributor_workflow.py",
    "tests/site/test_site_search.py",
    "tests/site/test_site_browser.py",
    "tests/site/test_site_case_page.py",
    "tests/site/test_site_reader.py",
    "tests/site/test_site_header.py",
    "tests/site/test_site_library_page.py",
    "tests/site/test_site_graph.py",
    "tests/site/test_site_matrix.py",
    "tests/adapters/test_adapters_publish.py",
    "tests/validate/test_broken_inputs.py",
    "tests/adapters/test_adapters_mcp.py",
    "tests/test_workflows.py",
    "tests/agent/test_agent_catalogue.py",
]


def pytest_collection_modifyitems(items) -> None:
    rank = {name: n for n, name in enumerate(SLOWEST_FIRST)}
    items.sort(key=lambda item: rank.get(item.nodeid.split("::")[0], len(rank)))


TAXONOMY = """\
graph: [cause, component, symptom, contributing_factor]
matrices:
  - [cause, component]
  - [symptom, cause]
  - [symptom, component]
  - [cause, contributing_factor]
  - [component, contributing_factor]
facets:
  - id: domain
    label: {ko: 분야, en: Domain}
    description: {ko: 인프라 갈래., en: Kind of infrastructure.}
    terms_per_case: many
    required: true
    role: context
    color: "#2f6b3a"
    terms:
      - id: kubernetes
        label: {ko: Kubernetes, en: Kubernetes}
        description: {ko: 쿠버네티스 사고., en: Kubernetes incidents.}
        aliases: {ko: [쿠버네티스], en: [k8s]}
      - id: ai-infra
        label: {ko: AI 인프라, en: AI infrastructure}
        description: {ko: GPU 클러스터 사고., en: GPU cluster incidents.}
  - id: organization
    label: {ko: 조직, en: Organization}
    description: {ko: 보고한 조직., en: Who reported it.}
    terms_per_case: one
    required: true
    role: context
    color: "#4a4a4a"
    byline: true
    terms:
      - id: acme
        label: {ko: 애크미, en: Acme}
        description: {ko: 가상의 회사., en: A made-up company.}
      - id: globex
        label: {ko: 글로벡스, en: Globex}
        description: {ko: 또 다른 가상의 회사., en: Another made-up company.}
  - id: symptom
    label: {ko: 증상, en: Symptom}
    description: {ko: 보인 현상., en: What was seen.}
    terms_per_case: many
    required: true
    role: descriptive
    color: "#b3261e"
    case_section: symptoms
    terms:
      - id: training-job-failure
        label: {ko: 학습 작업 실패, en: Training job failure}
        description: {ko: 학습 작업이 멈췄다., en: Training jobs failed.}
      - id: service-outage
        label: {ko: 서비스 중단, en: Service outage}
        description: {ko: 서비스가 멈췄다., en: The service was down.}
  - id: cause
    label: {ko: 원인, en: Cause}
    description: {ko: 근본 원인., en: Root cause.}
    terms_per_case: many
    required: true
    role: descriptive
    color: "#7b3fa0"
    terms:
      - id: hardware-failure
        label: {ko: 하드웨어 고장, en: Hardware failure}
        description: {ko: 하드웨어가 고장 났다., en: Hardware failed.}
      - id: gpu-failure
        parent: hardware-failure
        label: {ko: GPU 고장, en: GPU failure}
        description: {ko: GPU가 고장 났다., en: A GPU failed.}
      - id: faulty-change
        label: {ko: 잘못된 변경, en: Faulty change}
        description: {ko: 변경이 장애를 냈다., en: A change broke it.}
  - id: component
    label: {ko: 구성 요소, en: Component}
    description: {ko: 얽힌 구성 요소., en: Components involved.}
    terms_per_case: many
    required: true
    role: descriptive
    color: "#0b6a8f"
    checklist: true
    terms:
      - id: gpu-driver
        label: {ko: GPU 드라이버, en: GPU driver}
        description: {ko: GPU 드라이버., en: The GPU driver.}
        aliases: {ko: [엔비디아 드라이버], en: [NVIDIA driver]}
      - id: infiniband-fabric
        label: {ko: InfiniBand 패브릭, en: InfiniBand fabric}
        description: {ko: IB 네트워크., en: The IB network.}
        aliases: {ko: [인피니밴드], en: [IB]}
      - id: etcd
        label: {ko: etcd, en: etcd}
        description: {ko: 키-값 저장소., en: The key-value store.}
  - id: contributing_factor
    label: {ko: 기여 요인, en: Contributing factor}
    description: {ko: 키운 조건., en: What made it worse.}
    terms_per_case: many
    required: false
    role: descriptive
    color: "#8a5a00"
    terms:
      - id: unverified-assumption
        label: {ko: 미검증 가정, en: Unverified assumption}
        description: {ko: 확인하지 않은 가정., en: Never checked.}
      - id: missing-safeguard
        label: {ko: 안전장치 부재, en: Missing safeguard}
        description: {ko: 가드레일이 없었다., en: No guard rail.}
"""

BODY_EN = """\
## Symptoms

Jobs {name} stopped.

## Trigger

A driver update.

## Detection

Health checks failed on 511 hosts with 4,088 GPUs.

## Actions

- Drained the hosts.

## Follow-ups

- Added a burn-in test.

## Lessons

Check every host.
"""

BODY_KO = """\
## 증상

{name} 작업이 멈췄습니다.

## 촉발

드라이버 업데이트.

## 감지

호스트 511대, GPU 4,088개에서 헬스 체크가 실패했습니다.

## 조치

- 호스트를 뺐습니다.

## 후속 조치

- 번인 테스트를 넣었습니다.

## 교훈

모든 호스트를 확인합니다.
"""


def incident_text(
    incident_id: str = "acme-gpu-outage",
    *,
    lang: str = "en",
    title: str | None = None,
    occurred: str = "2024-03-01",
    organization: str = "acme",
    domain: str = "[ai-infra]",
    symptom: str = "[training-job-failure]",
    cause: str = "[gpu-failure]",
    component: str = "[gpu-driver, infiniband-fabric]",
    contributing_factor: str = "[unverified-assumption]",
    url: str = "https://reports.acme.dev/postmortem",
    extra: str = "",
    body: str | None = None,
) -> str:
    body = body if body is not None else (BODY_EN if lang == "en" else BODY_KO)
    title = title if title is not None else TITLES[lang]
    return (
        "---\n"
        f"id: {incident_id}\n"
        f'title: "{title}"\n'
        f'summary: "{SUMMARIES[lang]}"\n'
        f"lang: {lang}\n"
        f"occurred: {occurred}\n"
        "published: 2024-04-02\n"
        f"organization: {organization}\n"
        f"domain: {domain}\n"
        f"symptom: {symptom}\n"
        f"cause: {cause}\n"
        f"component: {component}\n"
        f"contributing_factor: {contributing_factor}\n"
        "scale:\n"
        "  gpus: 4088\n"
        "  hosts: 511\n"
        f"{extra}"
        "sources:\n"
        f"  - url: {url}\n"
        '    title: "Postmortem"\n'
        "    publisher: Acme\n"
        "    date: 2024-04-02\n"
        "---\n\n" + body.format(name=incident_id)
    )


def translation_text(lang: str = "ko", title: str | None = None, body: str | None = None) -> str:
    body = body if body is not None else (BODY_KO if lang == "ko" else BODY_EN)
    title = title if title is not None else TITLES[lang]
    return f'---\ntitle: "{title}"\nsummary: "{SUMMARIES[lang]}"\n---\n\n' + body.format(name="x")


# A case's title and summary in each language (a file's own language, or the checker warns).
TITLES = {"en": "Acme: GPUs fall off the bus", "ko": "애크미: GPU 이탈"}
SUMMARIES = {
    "en": "Driver updates left GPUs unusable.",
    "ko": "드라이버 업데이트로 GPU를 못 쓰게 됐습니다.",
}


@dataclass
class Project:
    root: Path

    @property
    def incidents(self) -> Path:
        return self.root / "incidents"

    def write(self, relative: str, text: str | bytes) -> Path:
        path = self.root / relative
        path.parent.mkdir(parents=True, exist_ok=True)
        if isinstance(text, bytes):
            path.write_bytes(text)
        else:
            path.write_text(text, encoding="utf-8")
        return path

    def add_incident(
        self, incident_id: str = "acme-gpu-outage", translate: bool = True, **kwargs
    ) -> Path:
        lang = kwargs.get("lang", "en")
        path = self.write(f"incidents/{incident_id}.md", incident_text(incident_id, **kwargs))
        if translate:
            other = "ko" if lang == "en" else "en"
            self.write(f"incidents/{incident_id}.{other}.md", translation_text(other))
        return path


@pytest.fixture(scope="session")
def chromium():
    """Debian's Chromium driven by Playwright, shared by every browser test of the run."""
    from browser import CHROMIUM, CHROMIUM_ARGS
    from playwright.sync_api import sync_playwright

    with sync_playwright() as playwright:
        browser = playwright.chromium.launch(executable_path=CHROMIUM, args=CHROMIUM_ARGS)
        yield browser
        browser.close()


@pytest.fixture(scope="session")
def pages(chromium):
    """Pages in contexts of their own, reused between tests once reset (tests/browser.py)."""
    from browser import Pages

    pool = Pages(chromium)
    yield pool
    pool.close()


@pytest.fixture
def project(tmp_path: Path) -> Project:
    """An empty project with the small test taxonomy."""
    p = Project(tmp_path / "project")
    p.write("taxonomy.yml", TAXONOMY)
    (p.root / "incidents").mkdir()
    return p


@pytest.fixture
def site_project(project: Project) -> Project:
    """A project that can be built with MkDocs: the repository's theme and config, test content."""
    for name in ("mkdocs.yml",):
        shutil.copy(REPO / name, project.root / name)
    for folder in ("overrides", "docs"):
        shutil.copytree(REPO / folder, project.root / folder)
    return project


def dedent(text: str) -> str:
    return textwrap.dedent(text).lstrip("\n")


# The library's search queries with the cases each should find (tests/site/search_queries.yml),
# shared by the tests of every engine that answers them.
SEARCH_QUERIES: dict = yaml.safe_load(
    (REPO / "tests/site/search_queries.yml").read_text(encoding="utf-8")
)
# Whole questions as readers type them (tests/site/search_questions.yml), with the cases expected
# first; and both sets, for the tests that compare engines.
SEARCH_QUESTIONS: dict = yaml.safe_load(
    (REPO / "tests/site/search_questions.yml").read_text(encoding="utf-8")
)
SEARCH_ALL: dict = {lang: SEARCH_QUERIES[lang] + SEARCH_QUESTIONS[lang] for lang in SEARCH_QUERIES}


@pytest.fixture(scope="session")
def repository_library():
    """This repository's own library, checked and built once per test session."""
    from generator.load.project import ProjectPaths
    from generator.model.library import build_library
    from generator.pipeline.check import check_project

    checked = check_project(ProjectPaths.at(REPO), date.today())
    return build_library(checked.taxonomy, checked.result.incidents)


def memory_incident(taxonomy, incident_id: str, **terms):
    """An incident made in memory, without files: Acme's, with one term per descriptive facet
    unless `terms` say otherwise, every section holding its own key, in English and Korean."""
    from generator.model.incident import SECTIONS, CaseText, Incident, Section, incident_model

    values = {
        "organization": "acme",
        "domain": ("ai-infra",),
        "symptom": ("training-job-failure",),
        "cause": ("gpu-failure",),
        "component": ("gpu-driver",),
    } | terms
    meta = incident_model(taxonomy).model_validate(
        {
            "id": incident_id,
            "title": incident_id,
            "summary": "What happened.",
            "lang": "en",
            "occurred": "2024-03-01",
            "published": "2024-04-02",
            "sources": [
                {
                    "url": "https://reports.acme.dev/r",
                    "title": "Postmortem",
                    "publisher": "Acme",
                    "date": "2024-04-02",
                }
            ],
            **values,
        }
    )
    texts = tuple(
        CaseText(
            lang,
            incident_id,
            "Summary.",
            tuple(Section(key, key, n) for n, key in enumerate(SECTIONS)),
            f"incidents/{incident_id}.md",
        )
        for lang in ("en", "ko")
    )
    return Incident(meta, f"incidents/{incident_id}.md", texts)


# ---- The fixture site the browser tests share ---------------------------------------------
# Built once per run, served over loopback http, and offered both ways (`base`: http, then
# opened from disk). Modules that need another library (the repository's, a wide one, hostile
# settings) define their own `site`, which `base` then serves.


@pytest.fixture(scope="session")
def fixture_site(tmp_path_factory) -> Path:
    from sitebuild import build_fixture_site, write_fixture_library

    project = Project(tmp_path_factory.mktemp("fixture-site") / "project")
    write_fixture_library(project)
    return build_fixture_site(project.root)


@pytest.fixture(scope="session")
def repository_site(tmp_path_factory) -> Path:
    """This repository's own library built with its settings (no SITE_URL), once per session:
    for what only a library of its size shows (search quality, wide matrices, the graph of
    many cases)."""
    from sitebuild import build_fixture_site

    root = tmp_path_factory.mktemp("repository") / "project"
    root.mkdir()
    for name in ("mkdocs.yml", "taxonomy.yml"):
        shutil.copy(REPO / name, root / name)
    for folder in ("docs", "overrides", "incidents"):
        shutil.copytree(REPO / folder, root / folder)
    return build_fixture_site(root)


@pytest.fixture(scope="session")
def fixture_http(fixture_site) -> str:
    from browser import serve

    with serve(fixture_site) as url:
        yield url


@pytest.fixture(scope="module")
def site(fixture_site) -> Path:
    return fixture_site


@pytest.fixture(scope="module")
def http(fixture_site, fixture_http) -> str:
    return fixture_http


@pytest.fixture(scope="module", params=["http", "file"])
def base(request, site, http) -> str:
    """The site over http and from disk (file://); a module with its own `site` serves it."""
    if request.param == "file":
        yield site.as_uri() + "/"
    elif site == request.getfixturevalue("fixture_site"):
        yield http
    else:
        from browser import serve

        with serve(site) as url:
            yield url


@pytest.fixture(scope="module")
def checker():
    """The repository's own library and checks (`incidents audit`'s), loaded once per file."""
    from generator.audit.runner import Checker

    return Checker.of_project(REPO, "https://incidents.example.org/")
