"""Incident Library: load, validate and publish a bilingual catalogue of incidents.

The stages, in order: load/ -> validate/ -> model/ (the library) -> pages/ -> render/ ->
outputs/, run by build/; adapters/ connect them to MkDocs, publishing, the agent server and the
command line. docs/ARCHITECTURE.md draws the pipeline.
"""
