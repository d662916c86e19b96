"""The golden fixture: a small library whose whole built output is kept in tests/golden/expected/.

    .venv/bin/python tests/golden/golden.py        # rewrite expected/ after an intended change

The output is the core's site without any shell: every page's content area at its URL, and every
other file the build makes (search data, exports, feeds, assets). `tests/pipeline/test_pipeline_site.py`
builds the same library and compares the two folders file by file; review `git diff
tests/golden/expected` before committing a rewrite.
"""

from __future__ import annotations

import shutil
import sys
from datetime import date
from pathlib import Path

HERE = Path(__file__).resolve().parent
LIBRARY = HERE / "library"
EXPECTED = HERE / "expected"
TODAY = date(2026, 11, 30)


def build_files() -> dict[str, bytes]:
    """Every output of the golden library, by site-relative path."""
    from generator.load.project import ProjectPaths
    from generator.pages.build import SiteOptions
    from generator.pipeline.site import build

    site = build(
        ProjectPaths.at(LIBRARY), SiteOptions(site_url="https://example.org/"), today=TODAY
    )
    files = {url: site.content(url).encode("utf-8") for url in site.contents}
    files.update(site.files)
    # A database is kept as the SQL that makes it, which a review can read (its bytes are held
    # to a second build's by tests/outputs/test_outputs_database.py).
    for path in [p for p in files if p.endswith(".db")]:
        files[path + ".sql"] = sql_dump(files.pop(path))
    return dict(sorted(files.items()))


def sql_dump(database: bytes) -> bytes:
    import sqlite3

    connection = sqlite3.connect(":memory:")
    try:
        connection.deserialize(database)
        return ("\n".join(connection.iterdump()) + "\n").encode("utf-8")
    finally:
        connection.close()


def expected_files() -> dict[str, bytes]:
    return {
        p.relative_to(EXPECTED).as_posix(): p.read_bytes()
        for p in sorted(EXPECTED.rglob("*"))
        if p.is_file()
    }


def main() -> None:
    shutil.rmtree(EXPECTED, ignore_errors=True)
    for path, content in build_files().items():
        target = EXPECTED / path
        target.parent.mkdir(parents=True, exist_ok=True)
        target.write_bytes(content)
    print(f"wrote {len(list(EXPECTED.rglob('*.*')))} files into {EXPECTED}", file=sys.stderr)


if __name__ == "__main__":
    sys.path.insert(0, str(HERE.parent.parent))
    main()
