"""``reverie.nanobot.ReverieMemory`` against the real nanobot-ai package and a real daemon.

nanobot's provider is the scripted OpenAI-compatible server on loopback, so
the test reads the very requests the model received.
"""

from __future__ import annotations

import asyncio
import json
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest
from nanobot import Nanobot

from reverie import ConnectionLost
from reverie.nanobot import ReverieMemory
from tests.daemon_process import DaemonProcess
from tests.fakellm import FakeLLM, content

SCOPE = "user/ada"
NANOBOTS_OWN_MEMORY = "- The user's cat is called Whiskers (nanobot's own MEMORY.md)."


def _config(tmp: Path, llm: FakeLLM) -> Path:
    """A nanobot config whose model is the fake server; its Dream is off (reverie consolidates)."""
    config = {
        "agents": {
            "defaults": {
                "workspace": str(tmp / "workspace"),
                "model": "fake",
                "provider": "custom",
                "timezone": "UTC",
                "dream": {"enabled": False},
            }
        },
        "providers": {"custom": {"apiKey": "unused", "apiBase": llm.base_url}},
    }
    path = tmp / "nanobot.json"
    path.write_text(json.dumps(config))
    memory = tmp / "workspace" / "memory"
    memory.mkdir(parents=True)
    (memory / "MEMORY.md").write_text(NANOBOTS_OWN_MEMORY + "\n")
    return path


async def _turns(config: Path, daemon: DaemonProcess, turns: list[tuple[str, str]]) -> list[str]:
    """A fresh nanobot with reverie's memory attached runs ``(session key, text)`` turns."""
    bot = Nanobot.from_config(config)
    try:
        ReverieMemory(scope=SCOPE, socket=daemon.socket).attach(bot)
        return [(await bot.run(text, session_key=key)).content for key, text in turns]
    finally:
        await bot.aclose()


def _system(request: Any) -> str:
    first = request.body["messages"][0]
    assert first["role"] == "system", request.body["messages"]
    return str(first["content"])


def test_every_turn_is_stored_and_a_later_turn_reads_reverie_memory_after_a_restart(
    make_daemon: Callable[..., DaemonProcess], fake_llm: FakeLLM, tmp_path: Path
) -> None:
    daemon = make_daemon()
    config = _config(tmp_path, fake_llm)
    fake_llm.script(content("Nice to meet you, Ada."), content("Porto is lovely."))
    replies = asyncio.run(
        _turns(
            config,
            daemon,
            [("chat:1", "My name is Ada."), ("chat:1", "I live in Porto and I love green tea.")],
        )
    )
    assert replies == ["Nice to meet you, Ada.", "Porto is lovely."]
    with daemon.client() as client:
        history = client.history("nanobot:chat:1")
        assert [(m.role, m.content) for m in history] == [
            ("user", "My name is Ada."),
            ("assistant", "Nice to meet you, Ada."),
            ("user", "I live in Porto and I love green tea."),
            ("assistant", "Porto is lovely."),
        ]
        assert len({m.id for m in history}) == 4
        assert client.sessions(prefix="nanobot:chat:1")[0].scope == SCOPE
        # Nothing in reverie's memory yet: the prompt has no memory section, and
        # nanobot's own MEMORY.md no longer reaches it.
        for request in fake_llm.requests:
            assert "Long-term Memory" not in _system(request)
            assert NANOBOTS_OWN_MEMORY not in json.dumps(request.body)
        outcome = client.consolidate("nanobot:chat:1", wait=True)
        assert outcome is not None and outcome.messages == 4, outcome
        memory = client.context("nanobot:chat:2", scope=SCOPE).memory
    assert "Porto" in memory

    daemon.restart()
    before = len(fake_llm.requests)
    fake_llm.script(content("You live in Porto."))
    (reply,) = asyncio.run(_turns(config, daemon, [("chat:2", "Where do I live?")]))
    assert reply == "You live in Porto."
    (request,) = fake_llm.requests[before:]
    system = _system(request)
    # Where nanobot's prompt keeps memory: reverie's block, byte for byte.
    assert f"# Memory\n\n## Long-term Memory\n{memory}" in system
    assert NANOBOTS_OWN_MEMORY not in system
    assert request.body["messages"][-1]["role"] == "user"
    assert "Where do I live?" in json.dumps(request.body["messages"][-1])
    with daemon.client() as client:
        assert [(m.role, m.content) for m in client.history("nanobot:chat:2")] == [
            ("user", "Where do I live?"),
            ("assistant", "You live in Porto."),
        ]


def test_without_a_daemon_the_turn_fails_before_the_model_is_asked(
    fake_llm: FakeLLM, tmp_path: Path
) -> None:
    """Not a turn that runs silently without memory: the host sees reverie's error."""

    async def main() -> None:
        bot = Nanobot.from_config(_config(tmp_path, fake_llm))
        try:
            ReverieMemory(socket=tmp_path / "no-daemon.sock").attach(bot)
            with pytest.raises(ConnectionLost):
                await bot.run("Hello?", session_key="chat:1")
        finally:
            await bot.aclose()

    asyncio.run(main())
    assert fake_llm.requests == []
