# Tablescore: `make run` to play, `make test` to check everything.
SHELL := /bin/bash
PYTHON ?= python3
VENV := .venv
PY := $(VENV)/bin/python
STAMP := $(VENV)/.installed
HOST ?= 127.0.0.1
PORT ?= 8000
# The suite runs in parallel processes, each with its own test database and Redis databases;
# much of it waits on browsers, servers and child processes, so more than one per core pays;
# a worker with nothing left takes tests queued for a busy one (worksteal).
TEST_WORKERS ?= 4

.PHONY: install system-deps run venue test test-fast lint format serve worker beat bench clean

$(STAMP): pyproject.toml
	@test -x $(PY) || $(PYTHON) -m venv $(VENV)
	$(PY) -m pip install --quiet --upgrade pip
	$(PY) -m pip install --quiet -e '.[dev]'
	@touch $(STAMP)

install: $(STAMP)

# Browser tests drive Debian's Chromium; PDF tests read pages with poppler, QR codes with zbar;
# the language checks run GNU gettext (msgfmt, xgettext) over the catalogues in locale/;
# the deployed-stack tests put Caddy (HTTPS, its root trusted through NSS's certutil) and
# PgBouncer in front. None of them is started here: the tests start their own.
system-deps:
	@missing=""; \
	command -v chromium >/dev/null || missing="$$missing chromium"; \
	command -v caddy >/dev/null || missing="$$missing caddy"; \
	command -v pgbouncer >/dev/null || missing="$$missing pgbouncer"; \
	command -v certutil >/dev/null || missing="$$missing libnss3-tools"; \
	command -v pdftotext >/dev/null || missing="$$missing poppler-utils"; \
	command -v zbarimg >/dev/null || missing="$$missing zbar-tools"; \
	command -v msgfmt >/dev/null || missing="$$missing gettext"; \
	test -e /usr/share/fonts/truetype/dejavu/DejaVuSans.ttf || missing="$$missing fonts-dejavu-core"; \
	if [ -n "$$missing" ]; then \
	  if [ "$$(id -u)" = 0 ]; then \
	    echo "Installing$$missing"; apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq $$missing >/dev/null; \
	  else echo "Missing$$missing: install them (apt-get install$$missing)"; fi; \
	fi

run: install system-deps
	DEBUG=1 $(PY) manage.py migrate --noinput
	DEBUG=1 $(PY) manage.py demo --base-url http://$(HOST):$(PORT)
	DEBUG=1 $(PY) manage.py demoevent --base-url http://$(HOST):$(PORT)
	DEBUG=1 $(PY) manage.py runserver $(HOST):$(PORT)

# A club night from a laptop: the phones on the hall's wifi reach it (see the README).
venue: install system-deps
	deploy/bin/venue

test: install system-deps
	$(VENV)/bin/ruff check .
	$(VENV)/bin/ruff format --check .
	DEBUG=0 $(PY) manage.py check --settings=config.test_settings
	DEBUG=0 $(PY) manage.py makemigrations --check --dry-run --settings=config.test_settings
	$(VENV)/bin/mypy
	$(PY) -m pytest -n $(TEST_WORKERS) --dist worksteal $(PYTEST_ARGS)

# The quick local loop: no browser and no services. SQLite and Celery in-process, whatever
# DATABASE_URL and REDIS_URL say; the tests marked browser or services (PostgreSQL, Redis,
# a worker, deployed processes) are left out. `make test` runs them all, as CI does.
test-fast: install
	$(VENV)/bin/ruff check .
	$(VENV)/bin/ruff format --check .
	env -u DATABASE_URL -u REDIS_URL -u CACHE_URL -u REQUIRE_SERVICES \
	  $(PY) -m pytest -n $(TEST_WORKERS) --dist worksteal -m "not browser and not services" $(PYTEST_ARGS)

lint: install
	$(VENV)/bin/ruff check --fix .
	$(VENV)/bin/ruff format .

# Formatting only (lint fixes what ruff's checks find as well).
format: install
	$(VENV)/bin/ruff format .

# Production-like, one machine: gunicorn and a Celery worker (with beat inside it) against
# DATABASE_URL and REDIS_URL, started by the same commands as deploy/systemd/ and the tests.
# Stopping it (Ctrl-C) stops both; on a club's own site, systemd runs and restarts them.
serve: install
	$(PY) manage.py migrate --noinput
	$(PY) manage.py collectstatic --noinput
	deploy/bin/worker --beat & worker=$$!; \
	  trap 'kill $$worker 2>/dev/null; wait $$worker' EXIT INT TERM; \
	  BIND=$${BIND:-$(HOST):$(PORT)} deploy/bin/web

worker: install
	deploy/bin/worker

# The periodic sweeps (print jobs, seating and publishing); run exactly one for the site.
beat: install
	deploy/bin/beat

bench: install
	$(PY) bench/run.py

clean:
	rm -rf $(VENV) staticfiles test-artifacts db.sqlite3* test-db.sqlite3*
