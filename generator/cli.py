"""The `incidents` command: check, new, schema, build, serve, mcp and the rest."""

from __future__ import annotations

import sys
from datetime import date
from pathlib import Path
from typing import TYPE_CHECKING

import click

from .languages import LANGS
from .load.files import ProjectPaths, incident_stem, only_files, select_incident_files
from .pipeline.check_cache import Report, ResultStore
from .validate.diagnostics import printable

if TYPE_CHECKING:
    from .validate.diagnostics import Diagnostic

# The models, YAML and the checks are imported by the commands that use them: `incidents check`
# of an unchanged library answers from its stored report without them (pipeline/check_cache.py).

ROOT_OPTION = click.option(
    "--root",
    type=click.Path(file_okay=False, path_type=Path),
    default=Path("."),
    show_default=True,
    help="Project folder holding taxonomy.yml and incidents/.",
)

FORMAT_OPTION = click.option(
    "--format",
    "output_format",
    type=click.Choice(["text", "github"]),
    default="text",
    show_default=True,
    help="github prints GitHub Actions annotations.",
)


class _Commands(click.Group):
    """Every command ends a failed write or read of the file system (a read-only checkout, a
    full disk, a folder where a file should be) with one line, never a traceback."""

    def invoke(self, ctx: click.Context):
        try:
            return super().invoke(ctx)
        except OSError as exc:
            where = f": {printable(str(exc.filename))}" if exc.filename else ""
            reason = exc.strerror or type(exc).__name__
            click.echo(f"incidents {ctx.invoked_subcommand}: {reason}{where}", err=True)
            sys.exit(1)


@click.group(cls=_Commands, context_settings={"help_option_names": ["-h", "--help"]})
def main() -> None:
    """Validate and publish the Incident Library."""


@main.command()
@click.argument("paths", nargs=-1, type=click.Path(path_type=Path))
@ROOT_OPTION
@click.option("--strict", is_flag=True, help="Treat warnings as errors.")
@FORMAT_OPTION
@click.option(
    "--no-cache", is_flag=True, help="Parse every file again, ignoring the cache of earlier checks."
)
@click.option(
    "--changed",
    is_flag=True,
    help="Only the incidents changed since the branch left main (committed or not).",
)
def check(
    paths: tuple[Path, ...],
    root: Path,
    strict: bool,
    output_format: str,
    no_cache: bool,
    changed: bool,
) -> None:
    """Validate the taxonomy and incidents (or only PATHS), reporting every problem."""
    project = ProjectPaths.at(root)
    only = None
    if changed:
        from .adapters.git import changed_incident_files

        found, problem = changed_incident_files(project.root)
        if problem:
            click.echo(f"check --changed: {problem}", err=True)
            sys.exit(2)
        if not found:
            click.echo("ok: no incident changed since the branch left main", err=True)
            return
        paths = (*paths, *found)
    if paths:
        only = _selected(project, paths, "check")
    today = date.today()
    store = None if no_cache else ResultStore(project, today)
    report = store.lookup() if store is not None else None
    if report is None:
        from .pipeline.check import check_project
        from .pipeline.check_cache import CACHE_FILE, CheckCache, cache_folder
        from .pipeline.executor import default_executor

        cache = (
            None
            if no_cache
            else CheckCache(cache_folder(project.root) / CACHE_FILE, summaries=True)
        )
        checked = check_project(project, today, None, cache, default_executor(), summaries=True)
        from .audit.catalogue import check_project_checks

        count = max(checked.result.checked, len(checked.result.incidents))
        audit_checks = check_project_checks(project, checked.taxonomy) if checked.taxonomy else ()
        report = Report((*checked.diagnostics, *audit_checks), count)
        if store is not None:
            store.save(report)
    diagnostics = report.diagnostics if only is None else only_files(report.diagnostics, only)
    _report(diagnostics, output_format)
    errors = [d for d in diagnostics if d.severity == "error"]
    warnings = [d for d in diagnostics if d.severity == "warning"]
    count = report.checked
    noun = "incident" if count == 1 else "incidents"
    summary = f"{count} {noun} checked, {len(errors)} error(s), {len(warnings)} warning(s)"
    if errors or (strict and warnings):
        click.echo(
            f"check failed: {summary}" + (" (--strict)" if strict and not errors else ""), err=True
        )
        sys.exit(1)
    click.echo(f"ok: {summary}", err=True)


def _selected(project: ProjectPaths, paths: tuple[Path, ...], command: str) -> frozenset[str]:
    """The incident files PATHS name (display paths), or exit 1 naming each path that names
    none."""
    only, problems = select_incident_files(project, list(paths))
    for problem in problems:
        click.echo(problem)
    if problems:
        noun = "path names" if len(problems) == 1 else "paths name"
        click.echo(f"{command} failed: {len(problems)} {noun} no incident file", err=True)
        sys.exit(1)
    return only


def _cell(value: object) -> object:
    """A CSV cell a spreadsheet shows as text: a label starting with = + - @ (or a tab or
    carriage return) would be read as a formula, so it gets a leading apostrophe."""
    if isinstance(value, str) and value[:1] in ("=", "+", "-", "@", "\t", "\r"):
        return "'" + value
    return value


def _report(diagnostics: tuple[Diagnostic, ...], output_format: str, err: bool = False) -> None:
    for diagnostic in diagnostics:
        line = diagnostic.format_github() if output_format == "github" else diagnostic.format()
        click.echo(line, err=err)


def _load_library(root: Path, err: bool = False):
    """The validated library, or exit 1 with the problems that stop it from loading (on
    standard error with `err`, when standard output is a protocol's)."""
    from .model.library import build_library
    from .pipeline.check import check_project
    from .pipeline.executor import default_executor

    checked = check_project(ProjectPaths.at(root), date.today())
    errors = [d for d in checked.diagnostics if d.severity == "error"]
    if errors or checked.taxonomy is None:
        _report(tuple(errors), "text", err)
        click.echo(f"the library has {len(errors)} error(s); run 'incidents check'", err=True)
        sys.exit(1)
    return build_library(checked.taxonomy, checked.result.incidents, default_executor())


@main.command("check-links")
@click.argument("site", type=click.Path(file_okay=False, path_type=Path), default=Path("site"))
def check_links(site: Path) -> None:
    """Check that every internal link and anchor of a built SITE resolves."""
    from .adapters.link_check import broken_links

    if not site.is_dir():
        click.echo(f"{site}: no such folder; build the site first (incidents build)", err=True)
        sys.exit(1)
    broken = broken_links(site)
    for line in broken:
        click.echo(line)
    pages = sum(1 for _ in site.rglob("*.html"))
    if broken:
        click.echo(f"{len(broken)} broken link(s) in {pages} pages", err=True)
        sys.exit(1)
    click.echo(f"ok: every internal link and anchor of {pages} pages resolves", err=True)


@main.command()
@ROOT_OPTION
def status(root: Path) -> None:
    """Translation coverage, and terms that no incident uses yet."""
    from .outputs.report import status_lines

    for line in status_lines(_load_library(root)):
        click.echo(line)


@main.command()
@ROOT_OPTION
@click.option("--format", "output_format", type=click.Choice(["text", "csv"]), default="text")
def stats(root: Path, output_format: str) -> None:
    """Number of incidents per facet and term."""
    from .outputs.report import stats_lines, stats_rows

    library = _load_library(root)
    if output_format == "csv":
        import csv

        writer = csv.writer(sys.stdout, lineterminator="\n")
        writer.writerow(["facet", "term", "label_en", "label_ko", "incidents"])
        writer.writerows(tuple(map(_cell, row)) for row in stats_rows(library))
        return
    for line in stats_lines(library):
        click.echo(line)


@main.command()
@ROOT_OPTION
@click.option("--check", "check_only", is_flag=True, help="Fail if the committed schema is stale.")
def schema(root: Path, check_only: bool) -> None:
    """Write the JSON Schema of incident front matter into schema/."""
    from .load.front_matter import LoadError
    from .load.project import load_taxonomy
    from .outputs.schema import render_schemas

    project = ProjectPaths.at(root)
    try:
        taxonomy, _ = load_taxonomy(project)
    except LoadError as exc:
        _report(tuple(exc.diagnostics), "text")
        sys.exit(1)
    stale = []
    for name, text in render_schemas(taxonomy).items():
        target = project.root / "schema" / name
        current = target.read_text(encoding="utf-8") if target.exists() else None
        if current == text:
            continue
        stale.append(name)
        if not check_only:
            target.parent.mkdir(parents=True, exist_ok=True)
            target.write_text(text, encoding="utf-8")
    if check_only and stale:
        click.echo(f"schema is stale: {', '.join(stale)}; run 'incidents schema'", err=True)
        sys.exit(1)
    click.echo(
        "schema is current" if not stale else f"wrote {', '.join('schema/' + s for s in stale)}",
        err=True,
    )


@main.command()
@click.argument("incident_id", required=False)
@ROOT_OPTION
@click.option("--lang", type=click.Choice(list(LANGS)), help="Language of the original text.")
@click.option("--title", help="Title in the original language.")
@click.option("--organization", help="The byline term (who had the incident).")
@click.option("--domain", multiple=True, help="A domain term id; repeat for more.")
@click.option(
    "--term",
    "terms",
    multiple=True,
    metavar="FACET=ID",
    help="A term of any facet, e.g. --term cause=gpu-failure; repeat for more.",
)
@click.option(
    "--occurred",
    help="When it happened: YYYY, YYYY-MM or YYYY-MM-DD, or unknown when the sources give no date.",
)
@click.option(
    "--published", help="When the first public report appeared: YYYY, YYYY-MM or YYYY-MM-DD."
)
@click.option("--source-url", help="URL of the public report.")
@click.option("--force", is_flag=True, help="Overwrite existing files.")
@click.option(
    "--interactive/--no-interactive",
    default=None,
    help="Ask for missing values (default: when run in a terminal).",
)
def new(
    incident_id,
    root,
    lang,
    title,
    organization,
    domain,
    terms,
    occurred,
    published,
    source_url,
    force,
    interactive,
) -> None:
    """Scaffold an incident and its translation with every field and section.

    Values are checked as `incidents check` checks them; what is not given is left as a TODO
    that the checker flags."""
    from .adapters import scaffold
    from .load.front_matter import LoadError
    from .load.project import load_taxonomy

    project = ProjectPaths.at(root)
    try:
        taxonomy, _ = load_taxonomy(project)
    except LoadError as exc:
        _report(tuple(exc.diagnostics), "text")
        sys.exit(1)
    if interactive is None:
        interactive = sys.stdin.isatty()

    def ask(value, prompt, default=""):
        if value or not interactive:
            return value or default
        return click.prompt(prompt, default=default or "", show_default=bool(default))

    incident_id = ask(incident_id, "Incident id (e.g. acme-etcd-quorum-loss-2024)")
    if not incident_id:
        raise click.UsageError("missing the incident id: incidents new <id>")
    lang = ask(lang, "Language of the original (ko/en)", "en")
    title = ask(title, "Title")
    given: dict[str, tuple[str, ...]] = {}
    for entry in terms:
        facet, _, term_id = entry.partition("=")
        if not term_id:
            raise click.UsageError(f"--term {entry}: write FACET=ID, e.g. cause=gpu-failure")
        given[facet] = (*given.get(facet, ()), term_id)
    byline = taxonomy.byline
    if byline is not None:
        value = ask(organization, f"{byline.label_en} term id")
        if value:
            given[byline.id] = (value,)
    if taxonomy.has_facet("domain"):
        value = domain or tuple(
            ask("", "Domain term ids, comma-separated").replace(",", " ").split()
        )
        if value:
            given["domain"] = (*given.get("domain", ()), *value)
    spec = scaffold.Scaffold(
        id=incident_id,
        lang=lang,
        title=title,
        occurred=ask(
            occurred,
            "When it happened (YYYY, YYYY-MM or YYYY-MM-DD; unknown if the sources give none)",
        ),
        published=ask(published, "When the first report appeared"),
        source_url=ask(source_url, "Source URL"),
        terms=given,
    )
    problems = scaffold.problems(spec, taxonomy, project, force)
    for problem in problems:
        click.echo(problem, err=True)
    if problems:
        click.echo(f"nothing written: {len(problems)} problem(s)", err=True)
        sys.exit(1)
    for note in scaffold.notes(spec, taxonomy):
        click.echo(note, err=True)
    written = scaffold.write_scaffold(project, spec, taxonomy)
    for path in written:
        click.echo(f"created {path}")
    click.echo("Fill in every TODO, then run: incidents check --strict " + " ".join(written))


@main.command()
@ROOT_OPTION
@click.option("--strict", is_flag=True, help="Fail on warnings (such as a missing translation).")
@click.option("--site-dir", type=click.Path(file_okay=False, path_type=Path), default=None)
def build(root: Path, strict: bool, site_dir: Path | None) -> None:
    """Validate, then build the site with MkDocs (same result as `mkdocs build`)."""
    from .adapters.mkdocs.commands import build_site

    sys.exit(build_site(ProjectPaths.at(root), strict=strict, site_dir=site_dir))


@main.command()
@ROOT_OPTION
@click.option(
    "--dev-addr",
    default="127.0.0.1:8000",
    show_default=True,
    metavar="HOST:PORT",
    help="Address and port to serve the preview on.",
)
def serve(root: Path, dev_addr: str) -> None:
    """Preview the site with live reload (same as `mkdocs serve`)."""
    from .adapters.mkdocs.commands import serve_site

    sys.exit(serve_site(ProjectPaths.at(root), dev_addr))


@main.command()
@ROOT_OPTION
@click.option(
    "--from",
    "exports",
    type=click.Path(path_type=Path),
    default=None,
    help="Read a built or downloaded site's api/ folder (or its incidents.json) instead.",
)
@click.option("--site-url", default=None, help="Base of the URLs given (default: mkdocs.yml).")
def mcp(root: Path, exports: Path | None, site_url: str | None) -> None:
    """Serve the library to coding agents over the Model Context Protocol (stdio).

    Register it with an agent as a command: `incidents mcp --root /path/to/repo`. Problems are
    reported on standard error; standard output carries the protocol. The server answers at once
    and reads the library behind it; incidents whose files have errors are left out."""
    from .adapters import mcp as server
    from .agent import loading

    def report(line: str) -> None:
        click.echo(line, err=True)

    try:
        if exports is not None:
            source = loading.from_export(exports, site_url, report)
        else:
            url = site_url if site_url is not None else server.site_url_of(root)
            source = loading.from_root(root, url, report)
    except loading.StartError as exc:
        for line in exc.lines:
            click.echo(line, err=True)
        click.echo("incidents mcp: cannot start", err=True)
        sys.exit(1)
    server.run(source)


@main.command()
@click.argument("paths", nargs=-1, type=click.Path(path_type=Path))
@ROOT_OPTION
@click.option("--timeout", type=float, default=15.0, show_default=True, help="Seconds per URL.")
@click.option("--jobs", type=int, default=8, show_default=True, help="URLs asked for at once.")
@FORMAT_OPTION
def links(
    paths: tuple[Path, ...], root: Path, timeout: float, jobs: int, output_format: str
) -> None:
    """Ask every source URL the cases cite (or only those of PATHS, as `check` takes them)
    whether it is still there (goes to the network; never part of check, build or the tests).
    Gone or unreachable: an error; refused or a server error: a warning. Offline, it says the
    network is unreachable (exit 2) instead of reporting every source gone."""
    from .adapters.source_links import Unreachable, check_links, sources_of

    project = ProjectPaths.at(root)
    only = _selected(project, paths, "links") if paths else None
    library = _load_library(root)
    wanted = None if only is None else {incident_stem(p) for p in only}
    chosen = [i for i in library.incidents if wanted is None or incident_stem(i.path) in wanted]
    ids = {i.meta.id for i in chosen}
    others = [s.url for i in library.incidents if i.meta.id not in ids for s in i.meta.sources]
    sources = sources_of(chosen, project.root)
    try:
        problems = check_links(sources, timeout, jobs, others=others)
    except Unreachable as exc:
        click.echo(f"links: {exc}", err=True)
        sys.exit(2)
    _report(tuple(problems), output_format)
    errors = sum(1 for p in problems if p.severity == "error")
    urls = len({s.url for s in sources})
    summary = f"{urls} source URL(s) asked for, {errors} gone, {len(problems) - errors} to look at"
    click.echo(("links failed: " if errors else "ok: ") + summary, err=True)
    sys.exit(1 if errors else 0)


@main.command()
@click.argument("paths", nargs=-1)
@ROOT_OPTION
@click.option(
    "--live", is_flag=True, help="Read the cluster of the current kube context (list only)."
)
@click.option("--context", help="With --live: the kube context to read instead of the current one.")
@click.option(
    "--whole-cluster",
    is_flag=True,
    help="The manifests are a whole cluster (a full dump): also run the checks that look for "
    "something missing.",
)
@click.option(
    "--format",
    "output_format",
    type=click.Choice(["text", "json", "sarif"]),
    default="text",
    show_default=True,
)
@click.option("--lang", type=click.Choice(LANGS), default="en", show_default=True)
@click.option(
    "--fail-on",
    type=click.Choice(["high", "medium", "low", "never"]),
    default="high",
    show_default=True,
    help="Exit 1 when a finding is this serious or more.",
)
@click.option(
    "--check", "only", multiple=True, metavar="ID", help="Only this check; repeat for more."
)
@click.option("--list", "list_checks", is_flag=True, help="List the checks and exit.")
@click.option("--print-cluster-role", is_flag=True, help="Print the ClusterRole --live needs.")
@click.option("--site-url", default=None, help="Base of the case URLs given (default: mkdocs.yml).")
def audit(
    paths: tuple[str, ...],
    root: Path,
    live: bool,
    context: str | None,
    whole_cluster: bool,
    output_format: str,
    lang: str,
    fail_on: str,
    only: tuple[str, ...],
    list_checks: bool,
    print_cluster_role: bool,
    site_url: str | None,
) -> None:
    """Check Kubernetes manifests (files, folders, - for standard input) or, with --live, the
    current cluster, against checks drawn from the library's incidents. Read-only."""
    import json

    import yaml

    from .adapters.mcp import site_url_of
    from .audit import live as live_reader
    from .audit.catalogue import SEVERITIES
    from .audit.cluster import Cluster
    from .audit.report import json_report, sarif_report, text_report
    from .audit.runner import AuditError, Checker, manifests_cluster

    if print_cluster_role:
        click.echo(yaml.safe_dump(live_reader.cluster_role(), sort_keys=False), nl=False)
        return
    if not list_checks and not live and not paths:
        raise click.UsageError("name manifests (files, folders or -) or pass --live")
    if live and paths:
        raise click.UsageError("--live reads the cluster; leave out the paths")
    try:
        checker = Checker.of_project(root, site_url if site_url is not None else site_url_of(root))
        checks = checker.select(only)
    except AuditError as exc:
        click.echo(f"incidents audit: {exc}", err=True)
        sys.exit(2)
    if list_checks:
        for check in checks:
            click.echo(f"{check.id:<42} {check.severity:<7} {check.text('title', lang)}")
        return
    problems: list[str] = []
    if live:
        try:
            read = live_reader.read_cluster(live_reader.kubernetes_get(context))
        except live_reader.LiveError as exc:
            click.echo(f"incidents audit: {exc}", err=True)
            sys.exit(2)
        problems = [f"cannot list {line}" for line in read.refused]
        cluster = Cluster(read.resources, whole=True)
    else:
        cluster, problems, _ = manifests_cluster(paths, whole_cluster)
    for problem in problems:
        click.echo(problem, err=True)
    outcome = checker.run(cluster, only)
    cases, check_urls = checker.cases(), checker.check_urls()
    if output_format == "json":
        click.echo(
            json.dumps(json_report(outcome, lang, cases, check_urls), ensure_ascii=False, indent=2)
        )
    elif output_format == "sarif":
        click.echo(
            json.dumps(sarif_report(outcome, lang, cases, check_urls), ensure_ascii=False, indent=2)
        )
    else:
        click.echo(text_report(outcome, lang, cases), nl=False)
    if problems:
        sys.exit(2)
    limit = SEVERITIES.index(fail_on) if fail_on != "never" else -1
    if any(f.check.rank <= limit for f in outcome.findings):
        sys.exit(1)


@main.command()
@click.argument("facet", required=False)
@ROOT_OPTION
@click.option("--lang", type=click.Choice(LANGS), default="en", show_default=True)
def terms(facet: str | None, root: Path, lang: str) -> None:
    """List the vocabulary: every term of FACET (or of every facet), with its case count,
    label and aliases, as a contributor chooses terms for a new incident."""
    from .agent.catalogue import Catalogue, CatalogueError

    catalogue = Catalogue(_load_library(root))
    facets = [facet] if facet else [f.id for f in catalogue.library.taxonomy.facets]
    for name in facets:
        try:
            listed = catalogue.terms(name, lang)
        except CatalogueError as exc:
            click.echo(f"incidents terms: {exc}", err=True)
            sys.exit(2)
        terms = list(listed.terms)
        while listed.next_offset is not None:  # the catalogue answers a page at a time
            listed = catalogue.terms(name, lang, offset=listed.next_offset)
            terms += listed.terms
        click.echo(f"{listed.facet} ({listed.label}): {listed.description}")
        width = max((len(t.id) for t in terms), default=0)
        for term in terms:
            aliases = f"  (also: {', '.join(term.aliases)})" if term.aliases else ""
            parent = f"  [under {term.parent}]" if term.parent else ""
            click.echo(f"  {term.id:<{width}}  {term.cases:>4}  {term.label}{parent}{aliases}")
        click.echo("")


if __name__ == "__main__":  # pragma: no cover
    main()
