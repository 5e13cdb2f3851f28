"""The LLM backend both consolidation client test modules build: its config, an
HTTP client fixture and one consolidation call, so ``test_llm`` and
``test_llm_breaker`` drive the backend the same way.
"""

from __future__ import annotations

from collections.abc import AsyncIterator

import httpx
import pytest

from reverie.actors.consolidation.llm import LLMBackend
from reverie.actors.consolidation.prompt import (
    ModelAnswer,
)
from reverie.config import LLMConfig
from reverie.store import MessageRecord

NOW = 1_795_000_000.0


def turns(*texts: str) -> list[MessageRecord]:
    """User messages of ``texts``, numbered from 1, a second apart from ``NOW``."""
    return [
        MessageRecord(
            seq=n + 1, id=f"m{n}", role="user", content=t, ts=1_795_000_000.0 + n, tokens=3
        )
        for n, t in enumerate(texts)
    ]


def cfg(base_url: str, **kw: object) -> LLMConfig:
    """The LLM configuration of a backend at ``base_url``, ``kw`` overriding."""
    return LLMConfig(base_url=base_url, model="fake-model", **kw)  # type: ignore[arg-type]


@pytest.fixture(name="http")
async def http_client() -> AsyncIterator[httpx.AsyncClient]:
    """The HTTP client a backend sends through (a test module imports ``http_client``
    to have pytest find it; its tests ask for ``http``)."""
    async with httpx.AsyncClient() as client:
        yield client


async def consolidate(backend: LLMBackend) -> ModelAnswer:
    """One consolidation of one turn over a one-fact memory."""
    return await backend.consolidate(
        memory="- old fact\n", turns=turns("I live in Lisbon."), now=NOW
    )
