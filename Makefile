# The two commands in README.md: `make site` and `make test`. Both create .venv on first use.
PYTHON ?= python3
VENV := .venv
BIN := $(VENV)/bin
STAMP := $(VENV)/.installed

.PHONY: site test test-library check serve schema test-tools clean

$(STAMP): pyproject.toml requirements.lock
	@sh scripts/bootstrap-venv.sh "$(PYTHON)" "$(VENV)"
	$(BIN)/python -m pip install --quiet --disable-pip-version-check -c requirements.lock -e '.[test]'
	@touch $@

## site: validate the incidents and build the site into site/
site: $(STAMP)
	$(BIN)/incidents check
	$(BIN)/incidents build
	@echo "Built site/. Open site/index.html in a browser, or serve it: $(BIN)/python -m http.server -d site 8000"

## check: validate the taxonomy and incidents
check: $(STAMP)
	$(BIN)/incidents check

## test-library: what a new or edited case or term can break, in under a minute: the strict
## check, the committed schema and the tests that read the library (tests/library-tests.txt)
test-library: $(STAMP)
	$(BIN)/incidents check --strict
	$(BIN)/incidents schema --check
	$(BIN)/python -m pytest -q -p no:cacheprovider @tests/library-tests.txt

## serve: live preview at http://127.0.0.1:8000
serve: $(STAMP)
	$(BIN)/incidents serve

schema: $(STAMP)
	$(BIN)/incidents schema

## test-tools: Chromium, fonts and npm for the browser tests (apt-get; needs root or sudo)
test-tools:
	@sh scripts/install-test-tools.sh

node_modules/.installed: package.json package-lock.json | test-tools
	npm ci --no-audit --no-fund --loglevel=error
	@touch $@

## test: the whole suite (lint, unit, build and browser tests), one worker per processor; a test
## file's tests stay on one worker, so its fixtures (a site built, a server) are made once, and
## files start in collection order (the slowest first: tests/conftest.py, SLOWEST_FIRST).
PYTEST_PARALLEL ?= -n auto --dist loadfile --no-loadscope-reorder
test: $(STAMP) test-tools node_modules/.installed
	$(BIN)/ruff check generator tests bench scripts
	$(BIN)/ruff format --check generator tests bench scripts
	$(BIN)/python -m pytest $(PYTEST_PARALLEL)

clean:
	rm -rf site .site.building-* .site.old-* .cache
