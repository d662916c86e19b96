"""JSON Schemas of the front matter, with the taxonomy's terms as enums so editors autocomplete."""

from __future__ import annotations

import json
from typing import Any

from ..model.incident import TranslationMeta, incident_model
from ..model.taxonomy import Taxonomy

SCHEMA_FILES = ("incident.schema.json", "translation.schema.json")
BASE_URL = "https://incident-library.github.io/schema/"


def incident_schema(taxonomy: Taxonomy) -> dict[str, Any]:
    schema = incident_model(taxonomy).model_json_schema()
    schema["$schema"] = "https://json-schema.org/draft/2020-12/schema"
    schema["$id"] = BASE_URL + SCHEMA_FILES[0]
    schema["title"] = "Incident Library: incident front matter"
    for facet in taxonomy.facets:
        ids = [t.id for t in facet.terms]
        labels = [f"{t.label_en} / {t.label_ko}: {t.description_en}" for t in facet.terms]
        prop = schema["properties"][facet.id]
        if facet.single and "anyOf" in prop:  # an optional single term: string or null
            prop = next(p for p in prop["anyOf"] if p.get("type") == "string")
        target = prop if facet.single else prop.setdefault("items", {})
        target.pop("pattern", None)
        target.pop("maxLength", None)
        target["enum"] = ids
        target["markdownEnumDescriptions"] = labels
    return schema


def translation_schema() -> dict[str, Any]:
    schema = TranslationMeta.model_json_schema()
    schema["$schema"] = "https://json-schema.org/draft/2020-12/schema"
    schema["$id"] = BASE_URL + SCHEMA_FILES[1]
    schema["title"] = "Incident Library: translation front matter"
    return schema


def render_schemas(taxonomy: Taxonomy) -> dict[str, str]:
    """File name -> JSON text, formatted deterministically."""
    documents = {SCHEMA_FILES[0]: incident_schema(taxonomy), SCHEMA_FILES[1]: translation_schema()}
    return {
        name: json.dumps(doc, ensure_ascii=False, indent=2, sort_keys=True) + "\n"
        for name, doc in documents.items()
    }
