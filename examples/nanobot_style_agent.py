"""A small asyncio agent loop that keeps its memory in reverie.

What it shows, turn by turn:

1. append the user's turn (with a stable id, so a retry is never stored twice);
2. build the prompt from ``context()``: the scope's memory first (a
   byte-stable prefix, so the LLM server's KV cache keeps it), then the tail;
3. call the host's own LLM, wrapped in ``stream_begin``/``stream_end`` so the
   daemon does not start a consolidation on the same backend meanwhile;
4. append the reply.

5. at the end, consolidate the session now (the daemon would do it by itself
   once the session is idle and over budget) and show the memory that leads
   the next prompt.

Environment: ``REVERIE_SOCKET`` (the daemon), ``REVERIE_EXAMPLE_LLM_URL`` (an
OpenAI-compatible base URL such as ``http://127.0.0.1:8080/v1``; unset, the
replies are canned), ``REVERIE_EXAMPLE_MODEL``, ``REVERIE_EXAMPLE_SESSION``,
``REVERIE_EXAMPLE_SCOPE``.
Run, with ``make run`` in another shell: ``.venv/bin/python examples/nanobot_style_agent.py``.
"""

from __future__ import annotations

import asyncio
import os
import sys
from typing import Any

import httpx

from reverie import AsyncClient

SYSTEM = "You are a helpful assistant. What you remember about the user:\n"
TURNS = [
    "Hi! I live in Lisbon since May.",
    "What should I see there first?",
    "Thanks. Remind me where I live?",
]


def build_prompt(context: Any) -> list[dict[str, Any]]:
    """Memory first, byte for byte as the daemon returned it; then the tail in order."""
    messages: list[dict[str, Any]] = [{"role": "system", "content": SYSTEM + context.memory}]
    for m in context.messages:
        msg: dict[str, Any] = {"role": m.role, "content": m.content}
        if m.name:
            msg["name"] = m.name
        if m.tool_calls is not None:
            msg["tool_calls"] = m.tool_calls
        if m.tool_call_id:
            msg["tool_call_id"] = m.tool_call_id
        messages.append(msg)
    return messages


async def complete(
    http: httpx.AsyncClient | None, model: str, messages: list[dict[str, Any]]
) -> str:
    if http is None:  # no REVERIE_EXAMPLE_LLM_URL: a canned reply keeps the loop runnable
        return f"(canned reply to: {messages[-1]['content']})"
    response = await http.post("/chat/completions", json={"model": model, "messages": messages})
    response.raise_for_status()
    return str(response.json()["choices"][0]["message"]["content"])


async def main() -> None:
    base_url = os.environ.get("REVERIE_EXAMPLE_LLM_URL", "").rstrip("/")
    if not base_url:
        print("no REVERIE_EXAMPLE_LLM_URL set: canned replies, no model", file=sys.stderr)
    model = os.environ.get("REVERIE_EXAMPLE_MODEL", "local")
    session = os.environ.get("REVERIE_EXAMPLE_SESSION", "nanobot:demo")
    scope = os.environ.get("REVERIE_EXAMPLE_SCOPE", "nanobot")
    async with (
        AsyncClient() as memory,
        httpx.AsyncClient(base_url=base_url or "http://unused", timeout=60.0) as client,
    ):
        http = client if base_url else None
        for n, text in enumerate(TURNS, 1):
            ack = await memory.append(session, "user", text, id=f"{session}:user:{n}", scope=scope)
            context = await memory.context(session)
            prompt = build_prompt(context)
            lease = await memory.stream_begin("default", ttl=120.0)
            try:
                reply = await complete(http, model, prompt)
            finally:
                await memory.stream_end(lease)
            await memory.append(session, "assistant", reply, id=f"{session}:assistant:{n}")
            print(
                f"turn {n}: user seq {ack.seq}, prompt {len(prompt)} messages "
                f"({len(context.memory)} bytes of memory first), reply: {reply}"
            )
        print(f"done: {len(TURNS)} turns in session {session}")
        outcome = await memory.consolidate(session, wait=True)
        print(f"consolidated: {outcome.messages if outcome else 0} messages")
        context = await memory.context(session)
        print(f"memory now leads the prompt ({len(context.memory)} bytes):")
        print(context.memory.rstrip("\n"))


if __name__ == "__main__":
    asyncio.run(main())
