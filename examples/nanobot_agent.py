"""A real nanobot agent whose memory is reverie (``reverie.nanobot``, docs/nanobot.md).

What it shows:

1. ``ReverieMemory(scope=...).attach(bot)``: from then on every turn of the
   nanobot is stored in reverie (the user's message when the turn starts,
   the reply once nanobot saved the turn), with ids from nanobot's turn ids;
2. two turns in one nanobot session, then a consolidation (the daemon would
   run it by itself once the session is idle; this asks for it now);
3. a turn in a *new* nanobot session of the same scope: its system prompt
   carries reverie's memory block where nanobot keeps long-term memory, so
   the model knows what the first session said.

Environment: ``REVERIE_SOCKET`` (the daemon), ``REVERIE_EXAMPLE_LLM_URL`` (an
OpenAI-compatible base URL; unset, a stand-in model on loopback answers
"(canned) ..."), ``REVERIE_EXAMPLE_MODEL``, ``REVERIE_EXAMPLE_SCOPE``.
Run, with ``make run`` in another shell: ``.venv/bin/python examples/nanobot_agent.py``.
Each run is a new conversation (nanobot's workspace is a temporary directory),
so it runs again and again.
"""

from __future__ import annotations

import asyncio
import json
import os
import tempfile
import threading
import uuid
from collections.abc import Iterator
from contextlib import contextmanager
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path

from nanobot import Nanobot

from reverie import AsyncClient
from reverie.nanobot import ReverieMemory


def nanobot_config(workspace: Path, llm_url: str, model: str) -> Path:
    """nanobot's config.json: its model, and Dream off (reverie consolidates)."""
    config = {
        "agents": {
            "defaults": {
                "workspace": str(workspace),
                "model": model,
                "provider": "custom",
                "timezone": "UTC",
                "dream": {"enabled": False},
            }
        },
        "providers": {
            "custom": {"apiKey": os.environ.get("OPENAI_API_KEY", "-"), "apiBase": llm_url}
        },
    }
    path = workspace.parent / "config.json"
    path.write_text(json.dumps(config))
    return path


async def main(llm_url: str) -> None:
    scope = os.environ.get("REVERIE_EXAMPLE_SCOPE", "user/ada-nanobot-example")
    run = uuid.uuid4().hex[:8]  # nanobot's session keys of this run
    first, second = f"example:{run}:1", f"example:{run}:2"
    memory = ReverieMemory(scope=scope)
    with tempfile.TemporaryDirectory() as tmp:
        config = nanobot_config(
            Path(tmp) / "workspace", llm_url, os.environ.get("REVERIE_EXAMPLE_MODEL", "local")
        )
        bot = Nanobot.from_config(config)
        memory.attach(bot)
        try:
            for text in (
                "Hi! My name is Ada and I live in Porto.",
                "I drink green tea every morning.",
            ):
                result = await bot.run(text, session_key=first)
                print(f"{first}: {text} -> {result.content}")
            async with AsyncClient() as client:
                outcome = await client.consolidate(memory.session(first), wait=True)
                print(f"consolidated: {outcome.messages if outcome else 0} messages")
                block = (await client.context(memory.session(second), scope=scope)).memory
            print(f"memory of {scope} ({len(block.encode())} bytes):\n{block}")
            result = await bot.run("Where do I live?", session_key=second)
            print(f"{second}: Where do I live? -> {result.content}")
        finally:
            await bot.aclose()
    async with AsyncClient() as client:
        for key in (first, second):
            stored = await client.history(memory.session(key))
            print(f"stored in {memory.session(key)}: {[m.role for m in stored]}")


@contextmanager
def stand_in_model() -> Iterator[str]:
    """A model on loopback so the example runs offline: it streams "(canned) <your words>"."""

    class Handler(BaseHTTPRequestHandler):
        def log_message(self, *args: object) -> None:
            pass

        def do_POST(self) -> None:
            body = json.loads(self.rfile.read(int(self.headers["Content-Length"])))
            said = body["messages"][-1]["content"]
            text = f"(canned) {said if isinstance(said, str) else said[-1]['text']}"
            chunks = [
                {"choices": [{"index": 0, "delta": {"role": "assistant", "content": text}}]},
                {"choices": [{"index": 0, "delta": {}, "finish_reason": "stop"}]},
            ]
            out = "".join(f"data: {json.dumps(c)}\n\n" for c in chunks) + "data: [DONE]\n\n"
            self.send_response(200)
            self.send_header("Content-Type", "text/event-stream")
            self.end_headers()
            self.wfile.write(out.encode())

    server = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
    threading.Thread(target=server.serve_forever, daemon=True).start()
    try:
        yield f"http://127.0.0.1:{server.server_address[1]}/v1"
    finally:
        server.shutdown()


if __name__ == "__main__":
    from loguru import logger  # nanobot's logger: keep the example's output readable

    logger.remove()
    url = os.environ.get("REVERIE_EXAMPLE_LLM_URL")
    if url:
        asyncio.run(main(url))
    else:
        with stand_in_model() as url:
            asyncio.run(main(url))
