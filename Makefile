# Fray: `make run` starts the server, `make test` runs every test. Both set up what they need first.
SHELL := /bin/bash
PYTHON ?= python3
PORT ?= 8000
HOST ?= 127.0.0.1
VENV := .venv
BIN := $(VENV)/bin
VENDOR := static/vendor
export FRAY_DATABASE_URL ?= sqlite:///./fray.db

.PHONY: install lock run test test-fast lint format demo bench bench-quick chromium services clean

install: $(VENV)/.installed $(VENDOR)/.installed

# The exact versions and hashes in requirements-dev.lock (pip refuses anything else), then Fray itself.
$(VENV)/.installed: pyproject.toml setup.py requirements.lock requirements-dev.lock
	test -x $(BIN)/python || $(PYTHON) -m venv $(VENV)
	$(BIN)/python -m pip install --quiet --require-hashes -r requirements-dev.lock
	$(BIN)/python -m pip install --quiet --no-deps -e .
	touch $@

# After changing the dependencies in pyproject.toml: pin them again, with hashes, for Linux and the
# Python that runs this (3.11, as CI and the Dockerfile). pip-compile keeps the other pins as they are;
# `make lock PIP_COMPILE_ARGS=--upgrade` moves everything to the newest versions allowed.
PIP_COMPILE = $(BIN)/pip-compile --quiet --generate-hashes --allow-unsafe --strip-extras \
	--no-emit-index-url --no-emit-find-links $(PIP_COMPILE_ARGS)
lock: $(VENV)/.installed
	$(PIP_COMPILE) -o requirements.lock pyproject.toml
	$(PIP_COMPILE) --extra dev -c requirements.lock -o requirements-dev.lock pyproject.toml

# htmx and idiomorph (morphing swaps) come from the npm registry, pinned in
# package-lock.json. axe-core is for the browser tests only (tests/e2e/test_accessibility.py injects
# it); no page loads it.
$(VENDOR)/.installed: package.json package-lock.json
	npm ci --no-audit --no-fund --loglevel=error
	mkdir -p $(VENDOR)
	cp node_modules/htmx.org/dist/htmx.min.js $(VENDOR)/htmx.min.js
	cp node_modules/idiomorph/dist/idiomorph.min.js $(VENDOR)/idiomorph.min.js
	cp node_modules/axe-core/axe.min.js $(VENDOR)/axe.min.js
	touch $@

run: install
	$(BIN)/fray db upgrade
	$(BIN)/fray serve --host $(HOST) --port $(PORT)

demo: install
	$(BIN)/fray demo --base-url http://$(HOST):$(PORT)

# Browser tests drive Debian's chromium (Playwright's own browser download does not work here).
chromium:
	@command -v chromium >/dev/null 2>&1 || { \
	  echo "Installing Debian's chromium for the browser tests..."; \
	  SUDO=$$( [ "$$(id -u)" = 0 ] || echo sudo ); \
	  $$SUDO apt-get update -qq && DEBIAN_FRONTEND=noninteractive $$SUDO apt-get install -y -qq chromium >/dev/null; }

# PostgreSQL, Redis and nginx for the scale-out tests (tests/scale, and the second pass on PostgreSQL):
# Debian's packages, installed when missing; scripts/services.sh starts both on loopback in a temporary
# directory around the test run and stops them after, whatever the tests did.
services:
	bash scripts/services.sh install

# Every test on SQLite (the default), then every suite that keeps data (API, live sockets, pages, store)
# again with each test on a fresh PostgreSQL database. tests/scale runs in the first pass.
PG_SUITES := tests/api tests/live tests/web tests/store
PYTEST_TWICE = $(BIN)/pytest $(1) && FRAY_TEST_DATABASE=postgres $(BIN)/pytest $(PG_SUITES)

# Lint first: CI (.ci/run) runs `make test`, so ruff and mypy gate every run (under a minute).
test: install chromium services lint
	FRAY_REQUIRE_SERVICES=1 bash scripts/services.sh run bash -c '$(call PYTEST_TWICE,)'

test-fast: install services
	FRAY_REQUIRE_SERVICES=1 bash scripts/services.sh run bash -c '$(call PYTEST_TWICE,-m "not e2e")'

# Benchmarks print figures (JSON lines); they are not tests. See docs/performance.md.
# The full run also measures commands/s on PostgreSQL (the test server from scripts/services.sh).
bench: install services
	bash scripts/services.sh run $(BIN)/python -m bench.run

bench-quick: install
	$(BIN)/python -m bench.run --quick

lint: install
	$(BIN)/ruff check .
	$(BIN)/ruff format --check .
	$(BIN)/mypy app

format: install
	$(BIN)/ruff format .
	$(BIN)/ruff check --fix .

clean:
	rm -rf $(VENV) node_modules $(VENDOR) .pytest_cache
