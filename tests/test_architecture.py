"""docs/ARCHITECTURE.md is the map of the code: every file it names exists, and its diagram names
every module of generator/ under its package."""

from __future__ import annotations

import re

from conftest import REPO

DOC = REPO / "docs" / "ARCHITECTURE.md"
# Not the repository's own files: tools' folders, the built site, the cases.
SKIPPED = {
    ".git",
    ".venv",
    "node_modules",
    "site",
    ".cache",
    "incidents",
    "incident_library.egg-info",
}
EXTENSIONS = "py|js|yml|yaml|html|css|md|json|toml"
FILE = re.compile(rf"(?:[\w.-]+/)*[\w-]+\.(?:{EXTENSIONS})\b")
BUILT = REPO / "tests" / "golden" / "expected"  # what the build writes, for names of its files


def known_paths() -> set[str]:
    """Every file and folder of the repository (and of the golden site), relative."""
    found: set[str] = set()
    for base in (REPO, BUILT):
        for path in base.rglob("*"):
            parts = path.relative_to(base).parts
            if parts[0] not in SKIPPED and "__pycache__" not in parts:
                found.add("/".join(parts) + ("/" if path.is_dir() else ""))
    return found


def cited(text: str) -> set[str]:
    """The files and folders the document names: in code spans (`x.py`, `x.py::name`,
    `x/y.Name`, `folder/`, `text/<position>.js`: the folder of a pattern) and in its prose."""
    names: set[str] = set()
    for span in re.findall(r"`([^`\n]+)`", text):
        span = span.split("::")[0]
        if "<" in span:
            names.add(span[: span.index("<")])
        elif (span.endswith("/") and " " not in span) or FILE.fullmatch(span):
            names.add(span)
        elif re.fullmatch(r"[\w/]+/\w+\.[A-Z]\w*", span):  # a module's class
            names.add(span.rsplit(".", 1)[0] + ".py")
    names.update(FILE.findall(re.sub(r"`[^`\n]+`", "", text)))
    return names


def test_every_file_the_architecture_names_exists():
    paths = known_paths()
    missing = [
        name
        for name in sorted(cited(DOC.read_text(encoding="utf-8")))
        if not any(p == name or p.endswith("/" + name) for p in paths)
    ]
    assert missing == [], f"docs/ARCHITECTURE.md names what is not there: {missing}"


def diagram() -> dict[str, set[str]]:
    """The diagram's packages (folders of generator/, "" for its top level) and the names
    listed under each: every file name under a package, and every folder that starts a column
    (two spaces before it)."""
    text = DOC.read_text(encoding="utf-8")
    block = text.split("## The pipeline", 1)[1].split("```", 2)[1]
    listed: dict[str, set[str]] = {}
    package = None
    for line in block.splitlines():
        entry = re.match(r"\s*[├└]─ (\S+)", line)
        if entry:
            name = entry.group(1)
            package = name.rstrip("/") if name.endswith("/") else ""
            listed.setdefault(package, set())
            if not name.endswith("/"):
                listed[""].add(name)
            line = line[entry.end() :]
        if package is not None:
            files = re.findall(rf"[\w/]+\.(?:{EXTENSIONS})\b", line)
            listed[package].update([*files, *re.findall(r"(?<=\s\s)\w+/(?=\s|$)", line)])
    return listed


def test_the_diagram_names_every_module_under_its_package():
    listed = diagram()
    generator = REPO / "generator"
    for package, names in listed.items():
        for name in names:
            assert (generator / package / name).exists(), f"{package}/: {name} is not there"
    modules: dict[str, set[str]] = {}
    for module in generator.rglob("*.py"):
        relative = module.relative_to(generator)
        if module.name == "__init__.py" or "__pycache__" in relative.parts:
            continue
        package = relative.parts[0] if len(relative.parts) > 1 else ""
        inside = "/".join(relative.parts[1:]) if package else relative.name
        modules.setdefault(package, set()).add(inside)
    for package, inside in modules.items():
        assert package in listed, f"the diagram has no {package}/"
        assert inside <= listed[package], (
            f"{package}/: not in the diagram: {inside - listed[package]}"
        )


def test_the_readme_and_the_contributing_guide_link_it():
    for name in ("README.md", "CONTRIBUTING.md"):
        text = (REPO / name).read_text(encoding="utf-8")
        assert "(docs/ARCHITECTURE.md)" in text, name
