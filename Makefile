# The two commands a newcomer needs: `make run` and `make test`.
PYTHON ?= python3.11
VENV := .venv
BIN := $(VENV)/bin
UV := $(BIN)/uv
HOST ?= 127.0.0.1
PORT ?= 8000

# `make run` restarts the server when the code or a template changes.
RELOAD_DIRS := $(foreach dir,config core accounts tokens workspaces audit events webhooks figures agentapi agency dashboard mcpserver integrations demo templates static,--reload-dir $(dir))

# Development settings (DEBUG on, public development keys) for the commands run on a laptop;
# `serve` and `worker` use config.settings and need the production environment.
DEV := DJANGO_SETTINGS_MODULE=config.settings_dev
PROD := DJANGO_SETTINGS_MODULE=config.settings

.PHONY: install install-runtime run test test-pgbouncer test-next-django lint format worker serve bench bench-import bench-webhooks bench-notify loadtest browser-deps pgbouncer-deps wrk-deps openapi client fuzz clean vendor-charts

$(BIN)/python:
	$(PYTHON) -m venv $(VENV)

$(UV): $(BIN)/python
	$(BIN)/python -m pip install --quiet --disable-pip-version-check "uv>=0.5"

# Installs exactly what uv.lock pins; does nothing when the environment is current.
install: $(UV)
	$(UV) sync --frozen --quiet

# Production installs the runtime packages only (no test, lint or browser tools).
install-runtime: $(UV)
	$(UV) sync --frozen --quiet --no-dev

# The links `make run` prints and mails follow the address it serves (`make run PORT=8110`
# links to port 8110; a server on every interface is reached on the loopback); BASE_URL, when
# set, wins.
RUN_HOST := $(if $(filter 0.0.0.0 ::,$(HOST)),127.0.0.1,$(HOST))
RUN_BASE_URL := $(or $(BASE_URL),http://$(RUN_HOST):$(PORT))
RUN := $(DEV) BASE_URL=$(RUN_BASE_URL)

run: install
	$(RUN) $(BIN)/python manage.py migrate --noinput
	$(RUN) $(BIN)/python manage.py seed_demo --if-absent --summary
	$(RUN) $(BIN)/uvicorn config.asgi:application --host $(HOST) --port $(PORT) --reload $(RELOAD_DIRS)

# The suite runs in TEST_PROCESSES processes at once (pytest-xdist; one per CPU by default,
# TEST_PROCESSES=0 runs it in this one process): each has its own test database and its own
# Redis database (tests/parallel.py). TEST_ARGS passes more to pytest (TEST_ARGS='-m "not
# browser"').
TEST_PROCESSES ?= auto
TEST_ARGS ?=
test: install
	$(BIN)/python -m pytest -n $(TEST_PROCESSES) $(TEST_ARGS)

# The figures' tests and the compiled statements against the next Django minor (its own
# .venv-next, Python 3.12 or newer): scripts/next_django.sh; NEXT_DJANGO and PYTHON_NEXT
# change what it takes.
test-next-django: install
	scripts/next_django.sh

lint: install
	$(BIN)/ruff check .
	$(BIN)/ruff format --check .
	$(BIN)/lint-imports --no-cache
	$(DEV) $(BIN)/python manage.py check
	$(DEV) $(BIN)/python manage.py makemigrations --check --dry-run

format: install
	$(BIN)/ruff check --fix .
	$(BIN)/ruff format .

# Production-like processes (need DATABASE_URL, CELERY_BROKER_URL, SECRET_KEY,
# FIELD_ENCRYPTION_KEY, BASE_URL and ALLOWED_HOSTS; gunicorn keeps its access log off).
# The web process is WSGI (config.wsgi: /mcp to the MCP server, the rest to Django), run by
# gunicorn's sync workers, one request at a time each, behind a proxy that buffers requests
# and answers (docs/operations.md). The worker class (config/workers.py) sends no `server`
# header; X-Forwarded-For is left to the service, which trusts exactly NUM_PROXIES proxies,
# and gunicorn trusts no forwarded scheme (--forwarded-allow-ips '').
# WEB_CONCURRENCY (or WORKERS) sets the web processes: twice the CPUs plus one by default.
# Their metrics, and the Celery worker's on the same machine, are added up in
# PROMETHEUS_MULTIPROC_DIR (emptied when gunicorn starts; see docs/operations.md).
WORKERS ?= $(or $(WEB_CONCURRENCY),$(shell echo $$((2 * $$(getconf _NPROCESSORS_ONLN 2>/dev/null || echo 1) + 1))))
PROMETHEUS_MULTIPROC_DIR ?= $(CURDIR)/.metrics
SERVICE_METRICS := PROMETHEUS_MULTIPROC_DIR=$(PROMETHEUS_MULTIPROC_DIR)
serve: install-runtime
	$(PROD) $(BIN)/python manage.py migrate --noinput
	$(PROD) $(BIN)/python manage.py collectstatic --noinput
	$(PROD) $(SERVICE_METRICS) $(BIN)/gunicorn config.wsgi:application --config python:config.gunicorn --worker-class config.workers.ServiceSyncWorker --workers $(WORKERS) --bind $(HOST):$(PORT) --forwarded-allow-ips ''

# One pool of Celery workers per kind of task, each on its kind's queue (mail, applies,
# providers, deliveries, sweeps: config/queues.py), and the beat (config/pools.py; its
# --print shows the commands). WORKER_CONCURRENCY_<KIND>, WORKER_KINDS and WORKER_BEAT
# change them (docs/operations.md).
worker: install-runtime
	mkdir -p $(PROMETHEUS_MULTIPROC_DIR)
	$(PROD) $(SERVICE_METRICS) $(BIN)/python -m config.pools

clean:
	rm -rf $(VENV) db.sqlite3 staticfiles .metrics .pytest_cache .ruff_cache

# Debian's chromium for the browser tests (Playwright drives it; it never downloads one).
# Without it, `make test` skips tests/browser and says why.
browser-deps:
	@if [ -x /usr/bin/chromium ]; then echo "chromium: $$(/usr/bin/chromium --version 2>/dev/null)"; else \
		SUDO=$$([ "$$(id -u)" = 0 ] || echo sudo); \
		$$SUDO apt-get update -qq && DEBIAN_FRONTEND=noninteractive $$SUDO apt-get install -y -qq chromium >/dev/null \
		&& echo "chromium: $$(/usr/bin/chromium --version 2>/dev/null)"; fi

# Debian's pgbouncer, for running the suite through transaction pooling (test-pgbouncer).
pgbouncer-deps:
	@if [ -x /usr/sbin/pgbouncer ]; then /usr/sbin/pgbouncer --version | head -1; else \
		SUDO=$$([ "$$(id -u)" = 0 ] || echo sudo); \
		$$SUDO apt-get update -qq && DEBIAN_FRONTEND=noninteractive $$SUDO apt-get install -y -qq pgbouncer >/dev/null \
		&& /usr/sbin/pgbouncer --version | head -1; fi

# Debian's wrk, the HTTP load generator of the serving matrix (bench/wrk_matrix.py).
wrk-deps:
	@if [ -x /usr/bin/wrk ]; then echo "wrk: $$(dpkg-query -W -f='$${Version}' wrk 2>/dev/null)"; else \
		SUDO=$$([ "$$(id -u)" = 0 ] || echo sudo); \
		$$SUDO apt-get update -qq && DEBIAN_FRONTEND=noninteractive $$SUDO apt-get install -y -qq wrk >/dev/null \
		&& echo "wrk: $$(dpkg-query -W -f='$${Version}' wrk 2>/dev/null)"; fi

# The suite (browser tests aside) through a PgBouncer in transaction pooling mode in front
# of the PostgreSQL at 127.0.0.1:5432: no session state may outlive a transaction. The test
# databases (one per test process) are made through PgBouncer and dropped directly once
# PgBouncer is stopped.
PGBOUNCER_PORT ?= 6432
PGBOUNCER_DB ?= figures_pgbouncer
test-pgbouncer: install pgbouncer-deps
	scripts/pgbouncer.sh start $(PGBOUNCER_PORT)
	status=0; DATABASE_URL=postgres://postgres@127.0.0.1:$(PGBOUNCER_PORT)/$(PGBOUNCER_DB) \
		$(BIN)/python -m pytest -n $(TEST_PROCESSES) --reuse-db -m "not browser" || status=$$?; \
	scripts/pgbouncer.sh stop; \
	for db in $$(psql -h 127.0.0.1 -U postgres -Atc "SELECT datname FROM pg_database WHERE datname LIKE 'test\_$(PGBOUNCER_DB)%'"); do \
		dropdb -h 127.0.0.1 -U postgres --if-exists "$$db"; done; \
	exit $$status

# Regenerates the committed copies of both API descriptions (a test compares them).
openapi: install
	$(DEV) $(BIN)/python manage.py spectacular --urlconf config.urls_figures --custom-settings config.openapi.FIGURES --format openapi-json --validate --fail-on-warn --file docs/openapi/figures.json
	$(DEV) $(BIN)/python manage.py spectacular --urlconf config.urls_agent --custom-settings config.openapi.AGENT --format openapi-json --validate --fail-on-warn --file docs/openapi/agent.json

# Regenerates the Python client's generated code (clients/python/salesfigures/_generated/) from
# both descriptions, with the pinned openapi-python-client; the hand-written layer beside it is
# left alone. tests/client/test_generated.py fails when the committed code differs.
client: openapi
	$(BIN)/python scripts/client.py

# Schemathesis against both served API descriptions on a live server over PostgreSQL (a fresh
# database, dropped afterwards): fails on any 5xx and any answer outside its description.
# FUZZ_PG names the PostgreSQL server; FUZZ_ARGS passes e.g. --max-examples 200 --seed 1.
FUZZ_PG ?= postgres://postgres@127.0.0.1:5432
FUZZ_ARGS ?=
fuzz: install
	$(BIN)/python scripts/fuzz.py --pg $(FUZZ_PG) $(FUZZ_ARGS)

# Performance benchmark of the figures API (a measurement, not a test; see docs/performance.md).
# Loads bench_large (1M leads) and bench_small (100k leads) once; BENCH_REGENERATE=1 reloads them.
# BENCH_10M=1 also loads bench_huge (10M leads, about 22 GB and a quarter of an hour) and
# measures it beside the others, the overview page included.
BENCH_PG ?= postgres://postgres@127.0.0.1:5432
BENCH_ARGS ?=
BENCH_DATABASES = $(if $(BENCH_10M),bench_huge,)$(if $(BENCH_10M),$(comma),)bench_large,bench_small
comma := ,
# Then the serving matrix under wrk (bench/wrk_matrix.py, BENCH_WRK_SECONDS a cell): the
# framework's share (whoami / the bare view) and sync against uvicorn workers.
BENCH_WRK_SECONDS ?= 5
bench: install wrk-deps
	$(BIN)/python bench/generate.py --database-url $(BENCH_PG)/bench_large --leads 1000000 $(if $(BENCH_REGENERATE),--recreate,--if-absent)
	$(BIN)/python bench/generate.py --database-url $(BENCH_PG)/bench_small --leads 100000 $(if $(BENCH_REGENERATE),--recreate,--if-absent)
	$(if $(BENCH_10M),$(BIN)/python bench/generate.py --database-url $(BENCH_PG)/bench_huge --leads 10000000 $(if $(BENCH_REGENERATE),--recreate,--if-absent))
	$(BIN)/python bench/run.py --databases $(BENCH_DATABASES) $(BENCH_ARGS)
	$(if $(BENCH_10M),$(BIN)/python bench/overview.py bench/out/bench_huge.json)
	$(BIN)/python bench/overview.py bench/out/bench_large.json
	$(BIN)/python bench/wrk_matrix.py --database bench_large --seconds $(BENCH_WRK_SECONDS)
	$(BIN)/python bench/imports.py --lines $(BENCH_IMPORT_LINES) --pg $(BENCH_PG)

# An upload's check and import of a BENCH_IMPORT_LINES-line file (bench/imports.py, database
# bench_imports, recreated): seconds and lines a second of each step.
BENCH_IMPORT_LINES ?= 100000
bench-import: install
	$(BIN)/python bench/imports.py --lines $(BENCH_IMPORT_LINES) --pg $(BENCH_PG)

# The notifications round over 2,000 workspaces, 200 of them due (bench/notify.py, database
# bench_notify, recreated): the due work found, the digests rendered and queued, an empty round.
bench-notify: install
	$(BIN)/python bench/notify.py

# The charting library the figure pages draw with (uPlot, MIT), copied from its npm package
# into static/vendor/uplot/ with its licence and version; pages never load it from elsewhere.
UPLOT_VERSION ?= 1.6.32
vendor-charts:
	tmp=$$(mktemp -d) && cd $$tmp && npm pack --silent uplot@$(UPLOT_VERSION) >/dev/null && tar xzf uplot-$(UPLOT_VERSION).tgz && cd $(CURDIR) && mkdir -p static/vendor/uplot && cp $$tmp/package/dist/uPlot.iife.min.js $$tmp/package/dist/uPlot.min.css $$tmp/package/LICENSE static/vendor/uplot/ && echo "uplot $(UPLOT_VERSION) $$(npm view uplot@$(UPLOT_VERSION) dist.tarball)" > static/vendor/uplot/VERSION && rm -rf $$tmp

# The whole service under a mixed load for LOADTEST_SECONDS (Locust, headless): gunicorn with
# 3 workers and one Celery worker on PostgreSQL (database `loadtest`, recreated) and Redis
# (database LOADTEST_REDIS_DB, emptied). Fails on any failed request or unapplied event;
# LOADTEST_ARGS="--fault postgres" (or redis) restarts that server halfway.
LOADTEST_SECONDS ?= 60
LOADTEST_REDIS_DB ?= 11
LOADTEST_ARGS ?=
loadtest: install
	$(BIN)/python bench/loadtest.py --seconds $(LOADTEST_SECONDS) --redis-db $(LOADTEST_REDIS_DB) $(LOADTEST_ARGS)

# Stripe deliveries through the webhook endpoint (gunicorn, as production), then applied by
# one Celery worker, on bench_large (see docs/performance.md, Integrations). Needs Redis;
# uses its database WEBHOOKS_REDIS_DB (emptied) and removes what it added at the end.
# WEBHOOKS_ARGS="--provider zoom" measures Zoom's participants instead: a webinar of 5,000
# registrants (--attendees) each joining and leaving once. The other kinds: --provider
# stripe-refund (refund.created), stripe-dispute (lost charge.dispute.closed), stripe-named
# (charge.succeeded naming its sale), calendly (invitee.created, then invitee.canceled, of
# existing leads) and hubspot (contact.creation; the worker reads the contacts from a fake
# of HubSpot's API that the run serves on 127.0.0.1, the port after --port).
WEBHOOKS_REDIS_DB ?= 5
WEBHOOKS_ARGS ?=
bench-webhooks: install
	$(BIN)/python bench/webhooks.py --database bench_large --redis-db $(WEBHOOKS_REDIS_DB) $(WEBHOOKS_ARGS)
