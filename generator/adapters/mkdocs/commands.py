"""`incidents build` and `incidents serve`: MkDocs' own commands, run for the project.

After a build, the published site must carry the plugin's marker: a shell that reads mkdocs.yml
but silently ignores plugins it does not know (Zensical does) would otherwise "succeed" with a
site that has no incidents in it.
"""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import yaml

from ...load.inputs import input_problems
from ...load.project import ProjectPaths
from .plugin import MARKER


def _command(paths: ProjectPaths, *args: str) -> list[str]:
    return [sys.executable, "-m", "mkdocs", *args, "-f", str(paths.root / "mkdocs.yml")]


def built_with_plugin(site: Path) -> bool:
    """Whether the site's root page was made with the incident-library plugin."""
    page = site / "index.html"
    return page.is_file() and MARKER in page.read_text(encoding="utf-8", errors="replace")


def build_site(paths: ProjectPaths, strict: bool = False, site_dir: Path | None = None) -> int:
    """Run MkDocs' `build` for the project, in this process; the exit code of the build.

    A build that cannot write (a full disk, a read-only or immutable folder) ends with one line
    naming the problem, not a traceback; the published site is left as it was."""
    from click.exceptions import Abort, ClickException
    from mkdocs.__main__ import cli

    # MkDocs reads mkdocs.yml before the plugin runs: a link out of the project is refused here.
    outside = input_problems(paths.root, [paths.root / "mkdocs.yml"])
    if outside:
        print("\n".join(f"error: {p.format()}" for p in outside), file=sys.stderr)
        return 1
    args = ["build", "--clean", "-f", str(paths.root / "mkdocs.yml")]
    if strict:
        args.append("--strict")
    if site_dir is not None:
        args += ["--site-dir", str(site_dir)]
    try:
        cli.main(args, standalone_mode=False)
    except Abort:
        return 1
    except ClickException as exc:
        # MkDocs has logged why (an error, or the warnings --strict refuses); this line says
        # that the build stopped, which for --strict it does not print by itself here.
        print(f"error: {exc.format_message()}", file=sys.stderr)
        return 1
    except SystemExit as exc:
        if exc.code:
            return int(exc.code) if isinstance(exc.code, int) else 1
    except OSError as exc:
        where = f" ({exc.filename})" if exc.filename else ""
        print(f"error: the site could not be written: {exc.strerror}{where}", file=sys.stderr)
        return 1
    site = site_dir if site_dir is not None else paths.root / _site_dir(paths)
    if not built_with_plugin(site):
        print(
            f"error: {site}/index.html was built without the incident-library plugin; the "
            "shell ran but did not run the plugin (mkdocs.yml lists it under plugins)",
            file=sys.stderr,
        )
        return 1
    return 0


def _site_dir(paths: ProjectPaths) -> str:
    try:
        config = yaml.load((paths.root / "mkdocs.yml").read_text(encoding="utf-8"), _Loader)
    except (OSError, yaml.YAMLError):
        return "site"
    return str((config or {}).get("site_dir") or "site")


class _Loader(yaml.SafeLoader):
    """Reads mkdocs.yml's plain keys; its `!ENV` tags are left to MkDocs."""


_Loader.add_multi_constructor("!", lambda loader, suffix, node: None)


def serve_site(paths: ProjectPaths, dev_addr: str) -> int:
    outside = input_problems(paths.root, [paths.root / "mkdocs.yml"])
    if outside:
        print("\n".join(f"error: {p.format()}" for p in outside), file=sys.stderr)
        return 1
    # --dirty: after the first build, only the pages an edit changed are written again
    server = subprocess.Popen(_command(paths, "serve", "--dirty", "-a", dev_addr), cwd=paths.root)
    return wait_passing_signals(server)


# How long a preview server gets to stop by itself before it is killed.
STOP_SECONDS = 10


def wait_passing_signals(child: subprocess.Popen) -> int:
    """Wait for `child`, passing on the signals that stop this process: SIGTERM or SIGHUP (a
    service manager, a closed terminal, `kill`) would otherwise end this process alone and leave
    the preview server running, holding its port. Ctrl-C in a terminal reaches both; the child
    is given time to stop by itself. The exit status is the child's, or for a child stopped by a
    signal, 128 plus its number (as a shell gives it)."""
    import signal

    def forward(signum, frame) -> None:
        if child.poll() is None:
            child.send_signal(signum)

    stopping = (signal.SIGTERM, signal.SIGHUP)
    previous = {signum: signal.signal(signum, forward) for signum in stopping}
    try:
        code = child.wait()
    except KeyboardInterrupt:
        code = _stop(child, signal.SIGINT, grace=2)
    finally:
        for signum, handler in previous.items():
            signal.signal(signum, handler)
        if child.poll() is None:
            _stop(child, signal.SIGTERM)
    return 128 - code if code < 0 else code


def _stop(child: subprocess.Popen, signum: int, grace: float = 0) -> int:
    """Let `child` stop by itself for `grace` seconds (it may have had the signal already),
    then send it `signum`, then kill it after STOP_SECONDS; its exit status."""
    for wait, then in ((grace, child.send_signal), (STOP_SECONDS, None)):
        try:
            return child.wait(timeout=wait)
        except subprocess.TimeoutExpired:
            if then is not None:
                then(signum)
    child.kill()
    return child.wait()
