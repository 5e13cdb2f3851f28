"""The daemon configuration of the tests whose consolidation is a scripted model's."""

from __future__ import annotations

from tests.fakellm import FakeLLM

__all__ = ["model_config"]


def model_config(llm: FakeLLM) -> str:
    """Consolidation by ``llm`` only on request, each job taking the whole tail; no index."""
    return f"""
[consolidation]
idle_after = 600.0
budget_tokens = 10
target_tokens = 0
hard_tokens = 200000
retry_base = 0.05

[llm]
base_url = "{llm.base_url}"
model = "fake"
timeout = 5.0

[index]
enabled = false
"""
