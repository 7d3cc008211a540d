# outfall — the two commands of the README are `make demo` and `make test`.
PY      ?= python3
VENV    := .venv
BIN     := $(VENV)/bin
STAMP   := $(VENV)/.installed
NPMSTAMP := node_modules/.installed
PG_URL  ?= postgres://postgres@127.0.0.1:5432/outfall
DEMO_ENV := OUTFALL_DEBUG=1

.PHONY: install demo serve test lint test-sqlite test-postgres test-browser bench clean

$(STAMP): pyproject.toml
	scripts/ensure-system-packages
	test -x $(BIN)/python || $(PY) -m venv $(VENV)
	$(BIN)/pip install --quiet --upgrade pip
	$(BIN)/pip install --quiet -e '.[dev,bench]'
	touch $(STAMP)

$(NPMSTAMP): package.json
	npm install --no-audit --no-fund --silent
	touch $(NPMSTAMP)

# The system packages are checked on every install, so a machine set up before one was added
# still gets it.
install: $(STAMP) $(NPMSTAMP)
	scripts/ensure-system-packages

# The web application on SQLite in var/, with fictional demo cases, and the background worker that
# sends its mail and makes its PDFs and site reviews; the logins print before the server starts.
# `manage.py demo_data --reset` loads the demo again from scratch.
demo: install
	$(BIN)/outfall check examples/sites/maple-street-subdivision.yaml
	mkdir -p var
	$(DEMO_ENV) $(BIN)/python manage.py migrate --noinput
	$(DEMO_ENV) $(BIN)/python manage.py createcachetable
	$(DEMO_ENV) $(BIN)/python manage.py demo_data
	@echo "outfall is starting at http://127.0.0.1:8000/ with its background worker (Ctrl-C stops both)"
	$(DEMO_ENV) $(BIN)/python manage.py db_worker & worker=$$!; \
	trap 'kill $$worker 2>/dev/null' EXIT; \
	$(DEMO_ENV) $(BIN)/python manage.py runserver 127.0.0.1:8000

lint: install
	$(BIN)/ruff check src tests bench
	$(BIN)/ruff format --check src tests bench

test-sqlite: install
	$(BIN)/pytest -n auto

test-postgres: install
	scripts/ensure-postgres
	DATABASE_URL=$(PG_URL) $(BIN)/pytest -n auto --dist loadgroup tests/web

test-browser: install
	$(BIN)/pytest -m browser -p no:xdist tests/browser

test: lint test-sqlite test-postgres test-browser

bench: install
	$(BIN)/python -m bench

clean:
	rm -rf $(VENV) node_modules .pytest_cache .ruff_cache .hypothesis var
