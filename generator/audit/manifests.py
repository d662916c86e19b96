"""Kubernetes manifests -> resources, each knowing the file and line it came from.

Reads what people actually have: multi-document YAML, JSON, `kind: List` (what `kubectl get -o
yaml` prints), and the output of `helm template`. The data is read in one pass with libyaml; a
finding's exact line is worked out afterwards, only for the documents that have findings, by
reading that one document again (keeping every node's position for 20,000 objects would cost far
more than the rare look-up).
"""

from __future__ import annotations

import json
import os
import sys
from collections.abc import Iterable, Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import yaml

try:  # libyaml is several times faster; PyYAML's wheels ship it.
    _Base: type = yaml.CSafeLoader
except AttributeError:  # pragma: no cover - only on builds without libyaml
    _Base = yaml.SafeLoader


class _Loader(_Base):  # type: ignore[misc, valid-type]
    """YAML as Kubernetes reads it: a plain `=` is the string "=" (YAML 1.1 calls it the
    "value key", which PyYAML cannot construct; CRDs list it among operators)."""


_Loader.add_constructor("tag:yaml.org,2002:value", _Base.construct_yaml_str)

MANIFEST_SUFFIXES = (".yaml", ".yml", ".json")
STDIN = "-"

Path_ = tuple[str | int, ...]  # keys and list indexes from an object's root to a value


@dataclass(frozen=True, eq=False)
class Source:
    """One YAML or JSON document of a file: its text, kept so a line can be found later."""

    path: str  # as the user named it (or "<stdin>")
    text: str
    first_line: int  # the file's line where `text` starts (1-based)
    _lines: dict = field(default_factory=dict, repr=False)

    def line(self, path: Path_) -> int:
        """The line of the value at `path` in this document (or of its nearest ancestor)."""
        if path not in self._lines:
            self._lines[path] = _line_of(self, path)
        return self._lines[path]


@dataclass(frozen=True, eq=False)
class Resource:
    """A Kubernetes object: kind, name and namespace, its body, and where it came from."""

    kind: str
    api_version: str
    name: str
    namespace: str  # "" for cluster-scoped objects and objects that do not say
    body: dict
    source: Source | None = None  # None for objects read from a live cluster
    base: Path_ = ()  # where the object sits in its document (("items", 3) in a List)

    @property
    def group(self) -> str:
        return self.api_version.rpartition("/")[0]

    @property
    def ref(self) -> str:
        """`Kind namespace/name` (or `Kind name`), as kubectl users read it."""
        where = f"{self.namespace}/{self.name}" if self.namespace else self.name
        return f"{self.kind} {where}"

    @property
    def labels(self) -> dict:
        meta = self.body.get("metadata")
        labels = meta.get("labels") if isinstance(meta, dict) else None
        return labels if isinstance(labels, dict) else {}

    def location(self, path: Path_ = ()) -> tuple[str, int] | None:
        """(file, line) of the value at `path` inside this object; None for live objects."""
        if self.source is None:
            return None
        return self.source.path, self.source.line((*self.base, *path))


@dataclass(frozen=True)
class Problem:
    """An input that could not be read: a missing file, invalid YAML, a document that is not a
    Kubernetes object where one was expected."""

    path: str
    line: int
    message: str

    def format(self) -> str:
        return f"{self.path}:{self.line}: {self.message}"


@dataclass(frozen=True)
class Manifests:
    resources: tuple[Resource, ...]
    problems: tuple[Problem, ...]
    files: int  # files read
    skipped: int  # documents that were not Kubernetes objects (a values file, an empty document)


def read_manifests(paths: Iterable[str | Path]) -> Manifests:
    """Every Kubernetes object in the files and folders `paths` name (`-` for standard input).

    Folders are walked in sorted order for .yaml, .yml and .json files, skipping hidden names;
    never raises for bad input: what cannot be read becomes a Problem."""
    from ..pipeline.executor import bulk_collection

    resources: list[Resource] = []
    problems: list[Problem] = []
    files = skipped = 0
    # Tens of thousands of objects, each many small dicts: collected in bulk, the garbage
    # collector's passes stop growing with what was already read.
    with bulk_collection():
        for display, text in _inputs(paths, problems):
            files += 1
            found, bad, empty = _read_text(display, text)
            resources.extend(found)
            problems.extend(bad)
            skipped += empty
    return Manifests(tuple(resources), tuple(problems), files, skipped)


def _inputs(paths: Iterable[str | Path], problems: list[Problem]) -> Iterator[tuple[str, str]]:
    for given in paths:
        shown = str(given)
        if shown == STDIN:
            yield "<stdin>", sys.stdin.read()
            continue
        path = Path(given)
        if path.is_dir():
            found = sorted(_walk(path))
            if not found:
                problems.append(Problem(shown, 0, "no .yaml, .yml or .json files in this folder"))
            for file in found:
                text = _read_file(file, problems)
                if text is not None:
                    yield str(file), text
        elif path.is_file():
            text = _read_file(path, problems)
            if text is not None:
                yield shown, text
        else:
            problems.append(Problem(shown, 0, "no such file or folder"))


def _walk(folder: Path) -> Iterator[Path]:
    for root, dirs, names in os.walk(folder):  # symbolic links to folders are not followed
        dirs[:] = [d for d in dirs if not d.startswith(".")]
        for name in names:
            if not name.startswith(".") and name.endswith(MANIFEST_SUFFIXES):
                yield Path(root) / name


def _read_file(path: Path, problems: list[Problem]) -> str | None:
    try:
        return path.read_bytes().decode("utf-8-sig").replace("\r\n", "\n")
    except UnicodeDecodeError:
        problems.append(Problem(str(path), 0, "not UTF-8 text"))
    except OSError as exc:
        problems.append(Problem(str(path), 0, f"cannot be read: {exc.strerror or exc}"))
    return None


def _read_text(display: str, text: str) -> tuple[list[Resource], list[Problem], int]:
    if display.endswith(".json") or text.lstrip()[:1] in ("{", "["):
        try:
            data = json.loads(text)
        except ValueError:
            pass  # not JSON after all: YAML (of which JSON is nearly a subset) says where
        else:
            source = Source(display, text, 1)
            documents = data if isinstance(data, list) else [data]
            found: list[Resource] = []
            skipped = 0
            for n, document in enumerate(documents):
                base: Path_ = (n,) if isinstance(data, list) else ()
                objects = list(_objects(document, source, base))
                found.extend(objects)
                skipped += not objects
            return found, [], skipped
    return _read_yaml(display, text)


def _read_yaml(display: str, text: str) -> tuple[list[Resource], list[Problem], int]:
    found: list[Resource] = []
    skipped = 0
    loader = _Loader(text)
    try:
        while loader.check_node():
            node = loader.get_node()
            data = loader.construct_document(node)
            start, end = node.start_mark.index, node.end_mark.index
            source = Source(display, text[start:end], node.start_mark.line + 1)
            objects = list(_objects(data, source, ()))
            found.extend(objects)
            skipped += not objects
    except yaml.MarkedYAMLError as exc:
        mark = exc.problem_mark or exc.context_mark
        line = mark.line + 1 if mark else 1
        problem = exc.problem or exc.context or "invalid YAML"
        hint = (
            "; is this a Helm template? render it with `helm template` first"
            if "{{" in text
            else ""
        )
        return found, [Problem(display, line, f"invalid YAML: {problem}{hint}")], skipped
    except yaml.YAMLError as exc:
        return found, [Problem(display, 1, f"invalid YAML: {str(exc).splitlines()[0]}")], skipped
    finally:
        loader.dispose()
    return found, [], skipped


def _objects(data: Any, source: Source, base: Path_) -> Iterator[Resource]:
    """The Kubernetes objects in one document: itself, or the items of a List."""
    if not isinstance(data, dict):
        return
    kind, api_version = data.get("kind"), data.get("apiVersion")
    if not isinstance(kind, str) or not isinstance(api_version, str):
        return
    items = data.get("items")
    if kind.endswith("List") and isinstance(items, list):
        for n, item in enumerate(items):
            yield from _objects(item, source, (*base, "items", n))
        return
    yield resource(data, source, base)


def resource(data: dict, source: Source | None = None, base: Path_ = ()) -> Resource:
    """A Resource of an object's data (kind and apiVersion present)."""
    meta = data.get("metadata")
    meta = meta if isinstance(meta, dict) else {}
    return Resource(
        kind=str(data.get("kind") or ""),
        api_version=str(data.get("apiVersion") or ""),
        name=str(meta.get("name") or meta.get("generateName") or ""),
        namespace=str(meta.get("namespace") or ""),
        body=data,
        source=source,
        base=base,
    )


def _line_of(source: Source, path: Path_) -> int:
    """Read the document again, keeping positions, and follow `path` down its nodes."""
    try:
        node = yaml.compose(source.text, Loader=_Loader)
    except yaml.YAMLError:
        return source.first_line
    line = node.start_mark.line if node is not None else 0
    for step in path:
        # A mapping's value is found at its key's line ("spec:", not the first line under it).
        if isinstance(node, yaml.MappingNode):
            pair = next(((k, v) for k, v in node.value if k.value == step), None)
            mark, nxt = (pair[0].start_mark, pair[1]) if pair else (None, None)
        elif isinstance(node, yaml.SequenceNode) and isinstance(step, int):
            nxt = node.value[step] if 0 <= step < len(node.value) else None
            mark = nxt.start_mark if nxt is not None else None
        else:
            nxt = mark = None
        if nxt is None:
            break
        node, line = nxt, mark.line
    return source.first_line + line
