"""The Agents SDK's prompt per turn: ``ReverieSession``'s context view beside its log view.

One real daemon (extractive consolidation, embeddings from the scripted
OpenAI-compatible server of ``tests/fakellm.py``) and the real
``openai-agents`` package. The same 16 user turns run through
``Runner.run`` twice, once per view, each in its own session; after every
4th turn the session is consolidated (``consolidate(wait=True)``, what
reverie does when it goes idle). Measured: the tokens of the messages the
model received on each turn (cl100k, reverie's own count), as captured by
the scripted server — the context view's memory block and unconsolidated
turns beside the log view's every turn.
"""

from __future__ import annotations

import asyncio
import sys
import tempfile
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT))

from agents import Agent, OpenAIChatCompletionsModel, Runner, set_tracing_disabled  # noqa: E402
from openai import AsyncOpenAI  # noqa: E402

from bench.report import Section, ratio  # noqa: E402
from reverie import AsyncClient  # noqa: E402
from reverie.agents import ReverieSession  # noqa: E402
from reverie.store.tokens import TokenCounter  # noqa: E402
from tests.daemon_process import DaemonProcess  # noqa: E402
from tests.fakellm import FakeLLM, content, extractive_config  # noqa: E402

TURNS = [
    "My name is Carl and I live in Lisbon.",
    "I keep my bike in the garage.",
    "My sister Ana visits every spring.",
    "I surf at Carcavelos beach on weekends.",
    "I am allergic to peanuts.",
    "My new office is on Rua Augusta, third floor.",
    "My dog is called Tejo.",
    "I usually work from nine to five.",
    "I play the cello on Tuesdays.",
    "My favourite writer is Saramago.",
    "I drink my tea with mint.",
    "I cook bacalhau for friends on Fridays.",
    "My car is a blue Renault.",
    "I was born in Porto in 1990.",
    "I am learning Japanese.",
    "Where do I keep my bike?",
]
CONSOLIDATE_EVERY = 4
REPLY = "Noted, Carl; I will keep that in mind for later."


async def _conversation(
    daemon: DaemonProcess, llm: FakeLLM, view: str, counter: TokenCounter
) -> list[int]:
    """The prompt tokens the model received on each turn."""
    set_tracing_disabled(True)
    model = OpenAIChatCompletionsModel(
        model="fake", openai_client=AsyncOpenAI(base_url=llm.base_url, api_key="unused")
    )
    agent = Agent(name="helper", instructions="You are Carl's assistant. Be brief.", model=model)
    session = ReverieSession(f"bench:{view}", socket=daemon.socket, view=view)
    first = len(llm.requests)
    llm.script(*(content(REPLY) for _ in TURNS))
    async with AsyncClient(daemon.socket) as client:
        for n, text in enumerate(TURNS, start=1):
            await Runner.run(agent, text, session=session)
            if n % CONSOLIDATE_EVERY == 0:
                await client.consolidate(f"bench:{view}", wait=True)
    sent: list[list[dict[str, Any]]] = [r.body["messages"] for r in llm.requests[first:]]
    return [sum(counter.count(str(m.get("content") or "")) for m in prompt) for prompt in sent]


def main() -> Section:
    counter = TokenCounter()
    with tempfile.TemporaryDirectory() as tmp, FakeLLM() as llm:
        daemon = DaemonProcess(Path(tmp), config=extractive_config(llm)).start()
        try:
            context = asyncio.run(_conversation(daemon, llm, "context", counter))
            log = asyncio.run(_conversation(daemon, llm, "log", counter))
        finally:
            daemon.stop()
    section = Section(
        title="bench.agents_prompt — the Agents SDK's prompt tokens per turn",
        intro=(
            f"{len(TURNS)} user turns through `Runner.run` with `ReverieSession`, consolidated"
            f" after every {CONSOLIDATE_EVERY}th turn (extractive); tokens (cl100k) of the"
            " messages the model received, captured by the scripted server. Baseline: the"
            ' log view (`view="log"`), every turn ever, in the same run.'
        ),
    )
    table = section.table("turn", "context view (default)", "log view (baseline)", "context / log")
    for n, (mine, base) in enumerate(zip(context, log, strict=True), start=1):
        table.row(n, mine, base, ratio(mine, base))
        print(f"turn {n:2}: context view {mine:5} tokens, log view {base:5} ({ratio(mine, base)})")
    return section
