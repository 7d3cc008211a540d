# outfall — the two commands of the README are `make demo` and `make test`.
PY      ?= python3
VENV    := .venv
BIN     := $(VENV)/bin
STAMP   := $(VENV)/.installed

.PHONY: install demo test lint bench clean

$(STAMP): pyproject.toml
	test -x $(BIN)/python || $(PY) -m venv $(VENV)
	$(BIN)/pip install --quiet --upgrade pip
	$(BIN)/pip install --quiet -e '.[dev,bench]'
	touch $(STAMP)

install: $(STAMP)

demo: $(STAMP)
	$(BIN)/outfall law coverage --summary
	$(BIN)/outfall applicability --disturbance-acres 2.4 --as-of 2026-06-01
	$(BIN)/outfall deadlines permit --complete 2026-02-02 --hearing 2026-03-10 --hearing-closed 2026-03-10
	$(BIN)/outfall check examples/sites/maple-street-subdivision.yaml --as-of 2026-06-01

lint: $(STAMP)
	$(BIN)/ruff check src tests
	$(BIN)/ruff format --check src tests

test: lint
	$(BIN)/pytest -n auto

bench: $(STAMP)
	$(BIN)/python -m bench

clean:
	rm -rf $(VENV) .pytest_cache .ruff_cache .hypothesis
