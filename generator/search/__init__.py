"""The library's search, defined once: rules (rules.yml) and test vectors (vectors.yml) that the
browser engines (outputs/assets/search-core.js) and this package's engine (used by the agent
server) all follow."""
