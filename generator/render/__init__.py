"""Pages -> HTML: the only code that touches Jinja."""
