"""Cutting a value short for a message; a leaf module, so that reporting imports no models."""

from __future__ import annotations


def shorten(value: object, limit: int = 80) -> str:
    """`value` as text for a message, cut to `limit` characters so a huge value stays readable."""
    text = str(value)
    return text if len(text) <= limit else text[: limit - 1] + "…"
