"""What `incidents audit` and the agent server's audit tool share: the library and its checks,
validated; the input read; the cases' titles and addresses in the reader's language."""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass
from datetime import date
from pathlib import Path

from ..load.project import ProjectPaths
from ..model.library import Library
from ..pages import urls
from .catalogue import Catalogue, Check, load_checks
from .cluster import Cluster
from .engine import Outcome, audit
from .manifests import read_manifests
from .report import CaseLink, Cases, CheckUrl


class AuditError(Exception):
    """The audit cannot run: the library or its checks have errors, or a check id is unknown."""


@dataclass(frozen=True)
class Checker:
    """The library and its validated checks, ready to audit any number of inputs."""

    library: Library
    catalogue: Catalogue
    site_url: str = ""

    @classmethod
    def of_project(cls, root: Path, site_url: str = "") -> Checker:
        from ..model.library import build_library
        from ..pipeline.check import check_project

        checked = check_project(ProjectPaths.at(root), date.today())
        errors = [d for d in checked.diagnostics if d.severity == "error"]
        if errors or checked.taxonomy is None:
            lines = "\n".join(d.format() for d in errors[:20])
            raise AuditError(
                f"the library has {len(errors)} error(s); run 'incidents check'\n{lines}"
            )
        library = build_library(checked.taxonomy, checked.result.incidents)
        ids = frozenset(i.id for i in library.incidents)
        catalogue = load_checks(ProjectPaths.at(root).root, library.taxonomy, ids)
        if catalogue.diagnostics:
            lines = "\n".join(d.format() for d in catalogue.diagnostics[:20])
            count = len(catalogue.diagnostics)
            raise AuditError(f"the checks have {count} error(s); run 'incidents check'\n{lines}")
        return cls(library, catalogue, site_url)

    @classmethod
    def of_library(cls, root: Path, library: Library, site_url: str = "") -> Checker:
        """The checks of the project at `root` for a library already validated."""
        ids = frozenset(i.id for i in library.incidents)
        catalogue = load_checks(ProjectPaths.at(root).root, library.taxonomy, ids)
        if catalogue.diagnostics:
            count = len(catalogue.diagnostics)
            raise AuditError(f"the checks have {count} error(s); run 'incidents check'")
        return cls(library, catalogue, site_url)

    def select(self, only: Iterable[str] = ()) -> tuple[Check, ...]:
        wanted = tuple(only)
        known = {c.id for c in self.catalogue.checks}
        unknown = [c for c in wanted if c not in known]
        if unknown:
            raise AuditError(f"no check {', '.join(unknown)}; 'incidents audit --list' shows them")
        return tuple(c for c in self.catalogue.checks if not wanted or c.id in wanted)

    def run(self, cluster: Cluster, only: Iterable[str] = ()) -> Outcome:
        return audit(self.select(only), cluster)

    def cases(self) -> Cases:
        def link(incident_id: str, lang: str) -> CaseLink:
            text = self.library.incident(incident_id).text(lang)
            return CaseLink(incident_id, text.title, self._url(urls.case(lang, incident_id)))

        return link

    def check_urls(self) -> CheckUrl:
        def url(check_id: str, lang: str) -> str:
            return self._url(urls.check(lang, check_id) if check_id else urls.checks(lang))

        return url

    def _url(self, path: str) -> str:
        if not self.site_url:
            return path  # a page of the built site (site/<path>)
        return self.site_url.rstrip("/") + "/" + path


def manifests_cluster(paths: Iterable[str | Path], whole: bool = False):
    """(Cluster, problems as lines, files read) of manifests."""
    read = read_manifests(paths)
    return Cluster(read.resources, whole), [p.format() for p in read.problems], read.files
