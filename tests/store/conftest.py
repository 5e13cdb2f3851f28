"""Shared fixtures: one real local embedder per test run (loading it takes about a second)."""

from __future__ import annotations

import pytest

from reverie.store import LocalEmbedder


@pytest.fixture(scope="session")
def embedder() -> LocalEmbedder:
    return LocalEmbedder(batch_size=32)
