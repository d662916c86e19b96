"""The browser code and styles the pages load, shipped with the package, and the stylesheet of
facet colours written from taxonomy.yml. Pure (reads only the package's own files)."""

from __future__ import annotations

from importlib import resources

from ..model.taxonomy import Taxonomy

# In the order pages load them; paths are site-relative.
STYLESHEETS = ("assets/library.css", "assets/facets.css")
SCRIPTS = ("assets/language.js",)  # every page; the library's own are in its templates
_SHIPPED = (
    "library.css",
    "language.js",
    "search-core.js",  # these three by the library's pages only (_scripts.html)
    "library.js",
    "graph.js",
    "case.js",  # loaded by case pages only (case.html)
    "checks.js",  # loaded by the library's pages (home.html), for the checks in view
    "matrix.js",  # loaded by the co-occurrence tables only (matrix.html)
    "theme.js",
    "theme-body.js",
)


def facet_styles(taxonomy: Taxonomy) -> str:
    """Each facet's accent colour (chips, legend swatches, graph nodes), as taxonomy.yml says."""
    lines = ["/* Written by the build from taxonomy.yml: each facet's colour. */"]
    for facet in taxonomy.facets:
        selectors = f".il-chip--{facet.id}, .il-swatch--{facet.id}, .il-node--{facet.id}"
        lines.append(f"{selectors} {{ --il-facet: {facet.color}; }}")
    return "\n".join(lines) + "\n"


def asset_files(taxonomy: Taxonomy) -> dict[str, bytes]:
    """Site-relative path -> content of every asset the pages load."""
    folder = resources.files("generator.outputs") / "assets"
    files = {f"assets/{name}": (folder / name).read_bytes() for name in _SHIPPED}
    files["assets/facets.css"] = facet_styles(taxonomy).encode("utf-8")
    return files
