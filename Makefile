# The two commands a newcomer types: `make run` and `make test`.
PYTHON ?= python3
VENV   := .venv
BIN    := $(VENV)/bin
STAMP  := $(VENV)/.installed
TSTAMP := $(VENV)/.installed-test
BSTAMP := $(VENV)/.installed-bench
# pip quiet, and without setuptools' "Editable installation" notice (information
# only, printed for every editable install of a non-src layout).
PIP    := PYTHONWARNINGS="ignore:Editable installation" $(BIN)/python -m pip install -q

.PHONY: run test lint contract typecheck bench torture clean

$(BIN)/python:
	@echo "reverie: creating $(VENV) with $(PYTHON) and upgrading pip"
	$(PYTHON) -m venv $(VENV)
	$(PIP) --upgrade pip

$(STAMP): pyproject.toml | $(BIN)/python
	@echo "reverie: installing reverie and its dependencies into $(VENV) (a minute or two the first time)"
	$(PIP) -e .
	touch $@

$(TSTAMP): pyproject.toml | $(BIN)/python
	@echo "reverie: installing reverie with the test tools into $(VENV) (a minute or two the first time)"
	$(PIP) -e '.[test]'
	touch $(STAMP) $@

$(BSTAMP): pyproject.toml | $(BIN)/python
	@echo "reverie: installing reverie with the test and bench extras into $(VENV)"
	$(PIP) -e '.[test,bench]'
	touch $(STAMP) $(TSTAMP) $@

run: $(STAMP)
	@echo "reverie: starting the daemon (.venv/bin/reverie serve $(ARGS)); Ctrl-C stops it"
	$(BIN)/reverie serve $(ARGS)

lint: $(TSTAMP)
	$(BIN)/ruff check .
	$(BIN)/ruff format --check .

contract: $(TSTAMP)
	$(BIN)/python -m pytest -q tests/test_architecture.py

# mypy cannot follow package-dir, so it reads a link tree shaped like the installed package.
typecheck: $(TSTAMP)
	@rm -rf build/typecheck && mkdir -p build/typecheck/reverie
	@for d in daemon actors store config; do ln -s ../../../$$d build/typecheck/reverie/$$d; done
	@ln -s ../../../daemon/client/top_level/__init__.py build/typecheck/reverie/__init__.py
	cd build/typecheck && ../../$(BIN)/mypy --config-file ../../pyproject.toml -m reverie -p reverie.daemon -p reverie.actors -p reverie.store -p reverie.config

test: lint contract typecheck
	@echo "reverie: running the tests (about 11 minutes on 2 cores)"
	$(BIN)/python -m pytest -q $(PYTEST_ARGS)

bench: $(BSTAMP)
	$(BIN)/python -m bench $(BENCH)

torture: $(TSTAMP)
	REVERIE_TORTURE_SECONDS=$${REVERIE_TORTURE_SECONDS:-1800} $(BIN)/python -m pytest -q -m torture tests/torture

clean:
	rm -rf $(VENV) build dist *.egg-info
