# Fray: `make run` starts the server, `make test` runs every test. Both set up what they need first.
SHELL := /bin/bash
PYTHON ?= python3
PORT ?= 8000
HOST ?= 127.0.0.1
VENV := .venv
BIN := $(VENV)/bin
VENDOR := static/vendor
export FRAY_DATABASE_URL ?= sqlite:///./fray.db

.PHONY: install run test test-fast lint format demo bench bench-quick chromium services clean

install: $(VENV)/.installed $(VENDOR)/.installed

$(VENV)/.installed: pyproject.toml
	test -x $(BIN)/python || $(PYTHON) -m venv $(VENV)
	$(BIN)/python -m pip install --quiet --upgrade pip
	$(BIN)/python -m pip install --quiet -e '.[dev]'
	touch $@

# htmx and its WebSocket extension come from the npm registry, pinned in package-lock.json.
# axe-core is for the browser tests only (tests/e2e/test_accessibility.py injects it); no page loads it.
$(VENDOR)/.installed: package.json package-lock.json
	npm ci --no-audit --no-fund --loglevel=error
	mkdir -p $(VENDOR)
	cp node_modules/htmx.org/dist/htmx.min.js $(VENDOR)/htmx.min.js
	cp node_modules/htmx-ext-ws/dist/ws.min.js $(VENDOR)/ws.js
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

test: install chromium services
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

format: install
	$(BIN)/ruff format .
	$(BIN)/ruff check --fix .

clean:
	rm -rf $(VENV) node_modules $(VENDOR) .pytest_cache
