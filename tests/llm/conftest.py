"""The real llama.cpp server the tests in this folder share (one model load per run)."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest

from tests.llm.llama_server import LlamaServer, configured


def pytest_collection_modifyitems(items: list[pytest.Item]) -> None:
    for item in items:
        if Path(__file__).parent in Path(str(item.fspath)).parents:
            item.add_marker(pytest.mark.llm)


@pytest.fixture(scope="session")
def llama(tmp_path_factory: pytest.TempPathFactory) -> Iterator[LlamaServer]:
    """A running llama-server with SmolLM2-135M-Instruct, for the whole test run."""
    found = configured()
    if found is None:
        pytest.skip("no real model: run `make test-llm` (it builds llama-server once)")
    log = tmp_path_factory.mktemp("llama") / "server.log"
    server = LlamaServer(*found, log).start()
    yield server
    server.stop()
