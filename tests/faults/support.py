"""Helpers the fault tests share: a config, turns, RSS."""

from __future__ import annotations

from pathlib import Path

from reverie.daemon import Client
from tests.fakellm import FakeLLM

WORDS = ["the", "quick", "brown", "fox", "jumps", "over", "the", "lazy", "dog", "near", "today"]


def turns(client: Client, session: str, n: int, prefix: str = "") -> list[str]:
    """Append ``n`` user/assistant turns (about 20 tokens each); the acked ids."""
    ids = []
    for i in range(n):
        text = " ".join(WORDS)
        ids.append(client.append(session, "user", f"{prefix}Question {i}: {text}").id)
        ids.append(client.append(session, "assistant", f"{prefix}Answer {i}: {text}").id)
    return ids


def rss_kib(pid: int) -> int:
    """The process's resident set size, from /proc (kernel accounting, no sampling)."""
    for line in Path(f"/proc/{pid}/status").read_text().splitlines():
        if line.startswith("VmRSS:"):
            return int(line.split()[1])
    raise AssertionError(f"no VmRSS for pid {pid}")


def fault_config(llm: FakeLLM) -> str:
    """Extractive consolidation (no [llm]) and the fake server's embeddings (fast to start)."""
    return f"""
[consolidation]
idle_after = 3600.0
budget_tokens = 60
target_tokens = 20
retry_base = 0.2

[embeddings]
provider = "openai"
base_url = "{llm.base_url}"
model = "fake-embed"
"""
