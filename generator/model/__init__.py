"""The library's values: taxonomy, incidents and the library itself, frozen once built."""
