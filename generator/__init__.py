"""Incident Library: load, validate and publish a bilingual catalogue of incidents."""

LANGUAGES: tuple[str, ...] = ("ko", "en")
DEFAULT_LANGUAGE = "ko"
