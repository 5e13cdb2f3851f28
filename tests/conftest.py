"""Shared fixtures."""

from __future__ import annotations

from collections.abc import Iterator

import pytest
from fakellm import FakeLLM


@pytest.fixture
def fake_llm() -> Iterator[FakeLLM]:
    """A scripted OpenAI-compatible server on 127.0.0.1, closed after the test."""
    with FakeLLM() as server:
        yield server
