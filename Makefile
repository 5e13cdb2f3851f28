# The two commands a newcomer types: `make run` and `make test`.
PYTHON ?= python3
VENV   := .venv
BIN    := $(VENV)/bin
STAMP  := $(VENV)/.installed
TSTAMP := $(VENV)/.installed-test
BSTAMP := $(VENV)/.installed-bench

.PHONY: run test lint contract bench torture clean

$(BIN)/python:
	$(PYTHON) -m venv $(VENV)
	$(BIN)/python -m pip install -q --upgrade pip

$(STAMP): pyproject.toml | $(BIN)/python
	$(BIN)/python -m pip install -q -e .
	touch $@

$(TSTAMP): pyproject.toml | $(BIN)/python
	$(BIN)/python -m pip install -q -e '.[test]'
	touch $(STAMP) $@

$(BSTAMP): pyproject.toml | $(BIN)/python
	$(BIN)/python -m pip install -q -e '.[test,bench]'
	touch $(STAMP) $(TSTAMP) $@

run: $(STAMP)
	$(BIN)/reverie serve $(ARGS)

lint: $(TSTAMP)
	$(BIN)/ruff check .
	$(BIN)/ruff format --check .

contract: $(TSTAMP)
	$(BIN)/lint-imports

test: lint contract
	$(BIN)/python -m pytest -q $(PYTEST_ARGS)

bench: $(BSTAMP)
	$(BIN)/python -m bench $(BENCH)

torture: $(TSTAMP)
	REVERIE_TORTURE_SECONDS=$${REVERIE_TORTURE_SECONDS:-1800} $(BIN)/python -m pytest -q -m torture tests/torture

clean:
	rm -rf $(VENV) build dist *.egg-info
