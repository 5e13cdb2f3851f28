"""The same agent loop as ``nanobot_style_agent.py``, in a trio host.

``AsyncClient`` is written on anyio, so it runs unchanged under trio; httpx
does too. Environment: as in ``nanobot_style_agent.py`` (the session
defaults to ``trio:demo``, the scope to ``trio``; without
``REVERIE_EXAMPLE_LLM_URL`` the replies are canned).
Run, with ``make run`` in another shell: ``.venv/bin/python examples/trio_host.py``.
"""

from __future__ import annotations

import os
import sys
from typing import Any

import httpx
import trio

from reverie import AsyncClient

SYSTEM = "You are a helpful assistant. What you remember about the user:\n"
TURNS = ["My name is Ana.", "I prefer tea over coffee.", "What do I like to drink?"]


def build_prompt(context: Any) -> list[dict[str, Any]]:
    """Memory first (byte-stable, cache-friendly), then the tail."""
    head = [{"role": "system", "content": SYSTEM + context.memory}]
    return head + [{"role": m.role, "content": m.content} for m in context.messages]


async def main() -> None:
    base_url = os.environ.get("REVERIE_EXAMPLE_LLM_URL", "").rstrip("/")
    if not base_url:
        print("no REVERIE_EXAMPLE_LLM_URL set: canned replies, no model", file=sys.stderr)
    model = os.environ.get("REVERIE_EXAMPLE_MODEL", "local")
    session = os.environ.get("REVERIE_EXAMPLE_SESSION", "trio:demo")
    scope = os.environ.get("REVERIE_EXAMPLE_SCOPE", "trio")
    async with (
        AsyncClient() as memory,
        httpx.AsyncClient(base_url=base_url or "http://unused", timeout=60.0) as http,
    ):
        for n, text in enumerate(TURNS, 1):
            await memory.append(session, "user", text, id=f"{session}:user:{n}", scope=scope)
            context = await memory.context(session)
            prompt = build_prompt(context)
            lease = await memory.stream_begin("default", ttl=120.0)
            try:
                if base_url:
                    response = await http.post(
                        "/chat/completions", json={"model": model, "messages": prompt}
                    )
                    response.raise_for_status()
                    reply = str(response.json()["choices"][0]["message"]["content"])
                else:
                    reply = f"(canned reply to: {text})"
            finally:
                await memory.stream_end(lease)
            await memory.append(session, "assistant", reply, id=f"{session}:assistant:{n}")
            print(f"turn {n}: prompt {len(prompt)} messages, reply: {reply}")
        print(f"done: {len(TURNS)} turns in session {session}")
        # Consolidate now (the daemon does it by itself once the session idles over budget).
        outcome = await memory.consolidate(session, wait=True)
        print(f"consolidated: {outcome.messages if outcome else 0} messages")
        context = await memory.context(session)
        print(f"memory now leads the prompt ({len(context.memory)} bytes):")
        print(context.memory.rstrip("\n"))


if __name__ == "__main__":
    trio.run(main)
