"""A built or downloaded site's JSON exports -> the library they were made from.

`api/incidents.json` and `api/taxonomy.json` (outputs/exports.py) carry everything the library
holds: the taxonomy as declared, every case's fields and its text in each language. Reading them
back goes through the same validation as the repository's files, so a reader of the exports (the
agent server's `--from`) works on the same Library the build would.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from pydantic import ValidationError

from ..model.incident import SECTIONS, CaseText, Incident, Section, incident_model
from ..model.library import Library, build_library
from ..model.taxonomy import Taxonomy
from ..validate.diagnostics import Diagnostic
from .front_matter import LoadError, YamlDocument
from .taxonomy import build_taxonomy

INCIDENTS, TAXONOMY = "incidents.json", "taxonomy.json"


class ExportError(ValueError):
    """The exports are missing, unreadable or not what this version of the library writes."""


def _read(path: Path) -> Any:
    try:
        return json.loads(path.read_text(encoding="utf-8"))
    except FileNotFoundError:
        raise ExportError(f"{path}: no such file") from None
    except (OSError, UnicodeDecodeError) as exc:
        raise ExportError(f"{path}: cannot be read ({exc})") from None
    except json.JSONDecodeError as exc:
        raise ExportError(f"{path}:{exc.lineno}:{exc.colno}: not JSON ({exc.msg})") from None


def _taxonomy_document(data: dict) -> dict:
    """api/taxonomy.json in the shape of taxonomy.yml."""
    facets = []
    for facet in data["facets"]:
        entry = {
            key: facet[key]
            for key in ("id", "label", "description", "terms_per_case", "required", "role")
        }
        entry["color"] = facet["color"]
        for key in ("case_section", "checklist", "byline"):
            if facet.get(key) not in (None, False):
                entry[key] = facet[key]
        entry["terms"] = [
            {
                "id": term["id"],
                "label": term["label"],
                "description": term["description"],
                "aliases": term["aliases"],
                **({"parent": term["parent"]} if term.get("parent") else {}),
            }
            for term in facet["terms"]
        ]
        facets.append(entry)
    return {"graph": data["graph"], "matrices": data["matrices"], "facets": facets}


def _front_matter(case: dict, taxonomy) -> dict:
    original = case["texts"][case["original_language"]]
    meta = {
        "id": case["id"],
        "title": original["title"],
        "summary": original["summary"],
        "lang": case["original_language"],
        "occurred": case["occurred"],
        "published": case["published"],
        "sources": case["sources"],
    }
    if case.get("ended"):
        meta["ended"] = case["ended"]
    if case.get("scale"):
        meta["scale"] = case["scale"]
    for key in ("not_in_sources", "summary_only", "distinct_from"):
        if case.get(key):
            meta[key] = case[key]
    for facet in taxonomy.facets:
        ids = [term["id"] for term in case["terms"].get(facet.id, [])]
        if facet.single:
            if ids:
                meta[facet.id] = ids[0]
        else:
            meta[facet.id] = ids
    return meta


def library_from_export(folder: Path) -> Library:
    """The library of a site's `api/` folder (or of the folder holding incidents.json)."""
    return read_export(folder)[0]


def read_export(path: Path) -> tuple[Library, str]:
    """The library of a site's exports and the site's address, if the build knew it ("")."""
    folder = export_folder(path)
    return read_incidents(folder, read_taxonomy(folder))


def export_folder(path: Path) -> Path:
    """The folder of the exports `path` names (the folder, or its incidents.json or
    taxonomy.json), checked to hold both files; an error names the path as given."""
    if not path.exists():
        raise ExportError(f"{path}: no such file or folder")
    folder = path if path.is_dir() else path.parent
    if path.is_file() and path.name not in (INCIDENTS, TAXONOMY):
        raise ExportError(
            f"{path}: not an export; give the api/ folder of a built site, or its {INCIDENTS}"
        )
    for name in (INCIDENTS, TAXONOMY):
        if not (folder / name).is_file():
            raise ExportError(
                f"{folder / name}: no such file (is {folder} the api/ folder of a built site?)"
            )
    return folder


def read_taxonomy(folder: Path) -> Taxonomy:
    """The taxonomy of the exports in `folder` (quick: what a server needs before the cases)."""
    taxonomy_path = folder / TAXONOMY
    data = _read(taxonomy_path)
    try:
        document = YamlDocument(_taxonomy_document(data))
        return build_taxonomy(document, str(taxonomy_path))[0]
    except (KeyError, TypeError, AttributeError) as exc:
        raise ExportError(f"{taxonomy_path}: not a taxonomy export ({_shape(exc)})") from None
    except LoadError as exc:
        raise ExportError(_first(exc.diagnostics)) from None


def read_incidents(folder: Path, taxonomy: Taxonomy) -> tuple[Library, str]:
    """The library of the cases exported in `folder`, under `taxonomy`, and the site's address."""
    incidents_path = folder / INCIDENTS
    incidents = _read(incidents_path)
    model = incident_model(taxonomy)
    built = []
    cases = incidents.get("incidents", []) if isinstance(incidents, dict) else []
    if not isinstance(cases, list):
        raise ExportError(f"{incidents_path}: incidents: should be a list of incidents")
    for number, case in enumerate(cases):
        where = f"{incidents_path}: incidents[{number}]"
        try:
            meta = model.model_validate(_front_matter(case, taxonomy))
            texts = sorted(case["texts"].values(), key=lambda t: t["lang"] != meta.lang)
            case_texts = tuple(
                CaseText(
                    text["lang"],
                    text["title"],
                    text["summary"],
                    tuple(
                        Section(key, text["sections"][key], 0)
                        for key in SECTIONS
                        if text["sections"].get(key)
                    ),
                    f"{case['id']}.{text['lang']}",
                )
                for text in texts
            )
        except (KeyError, TypeError, AttributeError) as exc:
            raise ExportError(f"{where}: not an incident export ({_shape(exc)})") from None
        except ValidationError as exc:
            error = exc.errors()[0]
            field = ".".join(str(p) for p in error["loc"])
            raise ExportError(f"{where}.{field}: {error['msg']}") from None
        built.append(Incident(meta, f"{case['id']}.md", case_texts))
    if not built:
        raise ExportError(f"{incidents_path}: no incidents")
    site_url = incidents.get("site_url")
    return build_library(taxonomy, built), site_url if isinstance(site_url, str) else ""


def _shape(exc: Exception) -> str:
    """What was wrong with the shape of the JSON, in a reader's words."""
    if isinstance(exc, KeyError):
        return f"missing {exc}"
    return "a value has the wrong type; write the exports with this version's build"


def _first(diagnostics: tuple[Diagnostic, ...]) -> str:
    return diagnostics[0].format() if diagnostics else "the taxonomy export is not valid"
