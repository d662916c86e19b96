"""Incident Library: load, validate and publish a bilingual catalogue of incidents.

The stages, in order: load/ -> validate/ -> model/ (the library) -> pages/ -> render/ ->
outputs/, run by build/; adapters/ connect them to MkDocs, Pagefind, publishing and the
command line. docs/ARCHITECTURE.md draws the pipeline.
"""
