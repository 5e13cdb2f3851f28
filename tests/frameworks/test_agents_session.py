"""``reverie.agents.ReverieSession`` against the real OpenAI Agents SDK and a real daemon."""

from __future__ import annotations

import asyncio
from collections.abc import Callable, Coroutine
from typing import Any, TypeVar

import pytest
from agents import Agent, OpenAIChatCompletionsModel, Runner, set_tracing_disabled
from agents.memory import Session
from openai import AsyncOpenAI

from reverie import Conflict, InvalidArgument
from reverie.agents import ReverieSession, memory_instructions
from tests.daemon_process import DaemonProcess
from tests.fakellm import FakeLLM, content, extractive_config

T = TypeVar("T")

#: One item of each kind the SDK stores: input, assistant output, a tool call and its result,
#: reasoning, a developer message, a structured tool output.
ITEMS: list[Any] = [
    {"role": "user", "content": "What is the weather in Porto?"},
    {
        "id": "msg_1",
        "type": "message",
        "role": "assistant",
        "status": "completed",
        "content": [{"type": "output_text", "text": "Let me check.", "annotations": []}],
    },
    {
        "type": "function_call",
        "call_id": "call_1",
        "name": "get_weather",
        "arguments": '{"city": "Porto"}',
        "id": "fc_1",
    },
    {"type": "function_call_output", "call_id": "call_1", "output": "sunny, 24 C"},
    {"type": "reasoning", "id": "rs_1", "summary": [{"type": "summary_text", "text": "Sunny."}]},
    {"role": "developer", "content": "Answer briefly."},
    {
        "type": "function_call_output",
        "call_id": "call_2",
        "output": [{"type": "input_text", "text": "structured"}],
    },
]


def run(coro: Coroutine[Any, Any, T]) -> T:
    return asyncio.run(coro)


def _session(daemon: DaemonProcess, name: str = "tg:123") -> ReverieSession:
    return ReverieSession(name, socket=daemon.socket)


def test_it_is_the_sdks_session(daemon: DaemonProcess) -> None:
    assert isinstance(_session(daemon), Session)


def test_items_round_trip_in_order_with_limit_pop_and_clear(daemon: DaemonProcess) -> None:
    session = _session(daemon)
    assert run(session.get_items()) == []
    run(session.add_items(ITEMS[:3]))
    run(session.add_items(ITEMS[3:]))
    assert run(session.get_items()) == ITEMS
    assert run(session.get_items(limit=2)) == ITEMS[-2:]
    assert run(session.get_items(limit=100)) == ITEMS
    assert run(session.pop_item()) == ITEMS[-1]
    assert run(session.get_items()) == ITEMS[:-1]
    run(session.clear_session())
    assert run(session.get_items()) == []
    assert run(session.pop_item()) is None
    with daemon.client() as client:
        assert client.sessions(prefix="tg:123") == []


def test_messages_keep_text_for_search_and_consolidation(daemon: DaemonProcess) -> None:
    run(_session(daemon).add_items(ITEMS))
    with daemon.client() as client:
        stored = client.history("tg:123")
    assert [(m.role, m.content) for m in stored] == [
        ("user", "What is the weather in Porto?"),
        ("assistant", "Let me check."),
        ("assistant", ""),
        ("tool", "sunny, 24 C"),
        ("assistant", "Sunny."),
        ("system", "Answer briefly."),
        ("tool", '{"output":[{"text":"structured","type":"input_text"}]}'),
    ]
    # The plain ones are rebuilt from the message's own fields, nothing kept beside them.
    assert stored[0].tool_calls is None and stored[3].tool_calls is None
    assert stored[3].tool_call_id == "call_1"


def test_a_retried_add_stores_nothing_twice(daemon: DaemonProcess) -> None:
    session = _session(daemon)
    run(session.add_items(ITEMS[:2]))
    run(session.add_items(ITEMS[:2]))  # the first attempt committed; its ack was lost
    assert run(session.get_items()) == ITEMS[:2]
    run(session.add_items(ITEMS[:1]))  # not the newest items: a new add
    assert run(session.get_items()) == [*ITEMS[:2], ITEMS[0]]


def test_items_the_session_cannot_store_are_refused_naming_the_limit(
    daemon: DaemonProcess,
) -> None:
    session = _session(daemon)
    with daemon.client() as client:
        limit = client.hello().max_message_bytes
    big = {"role": "user", "content": "x" * (limit + 1)}
    with pytest.raises(InvalidArgument, match=r"daemon\.max_message_bytes"):
        run(session.add_items([ITEMS[0], big]))
    with pytest.raises(InvalidArgument, match="item 2 is a str"):
        run(session.add_items([ITEMS[0], "not an item"]))
    with pytest.raises(InvalidArgument, match="neither a 'type' nor a known 'role'"):
        run(session.add_items([{"role": "wizard", "content": "hi"}]))
    with pytest.raises(InvalidArgument, match="not JSON"):
        run(session.add_items([{"role": "user", "content": "hi", "at": object()}]))
    assert run(session.get_items()) == []  # nothing of a refused add was stored


def test_a_consolidated_item_is_not_popped(
    make_daemon: Callable[..., DaemonProcess], fake_llm: FakeLLM
) -> None:
    daemon = make_daemon(config=extractive_config(fake_llm))
    session = _session(daemon)
    run(session.add_items(ITEMS[:2]))
    with daemon.client() as client:
        assert client.consolidate("tg:123", wait=True) is not None
    with pytest.raises(Conflict, match="already consolidated"):
        run(session.pop_item())
    assert run(session.get_items()) == ITEMS[:2]


def test_no_item_is_lost_or_duplicated_across_daemon_restarts(daemon: DaemonProcess) -> None:
    session = _session(daemon)
    for n, item in enumerate(ITEMS):
        run(session.add_items([item]))
        if n % 2:
            daemon.kill9()
            daemon.restart()
    assert run(session.get_items()) == ITEMS
    daemon.kill9()
    daemon.restart()
    assert run(session.pop_item()) == ITEMS[-1]
    assert run(session.get_items()) == ITEMS[:-1]


def test_runner_keeps_the_conversation_in_reverie(daemon: DaemonProcess, fake_llm: FakeLLM) -> None:
    set_tracing_disabled(True)
    fake_llm.script(content("Nice to meet you, Ada."), content("Your name is Ada."))
    model = OpenAIChatCompletionsModel(
        model="fake", openai_client=AsyncOpenAI(base_url=fake_llm.base_url, api_key="unused")
    )
    agent = Agent(name="helper", instructions="Be brief.", model=model)
    session = _session(daemon)

    async def two_turns() -> list[Any]:
        first = await Runner.run(agent, "My name is Ada.", session=session)
        second = await Runner.run(agent, "What is my name?", session=session)
        return [first.final_output, second.final_output]

    assert run(two_turns()) == ["Nice to meet you, Ada.", "Your name is Ada."]
    sent = fake_llm.requests[1].body["messages"]
    assert [(m["role"], m["content"]) for m in sent] == [
        ("system", "Be brief."),
        ("user", "My name is Ada."),
        ("assistant", "Nice to meet you, Ada."),
        ("user", "What is my name?"),
    ]
    items = run(session.get_items())
    assert len(items) == 4 and items[0] == {"role": "user", "content": "My name is Ada."}


def test_memory_goes_first_and_the_prefix_is_byte_stable(daemon: DaemonProcess) -> None:
    session = _session(daemon, "cli:ada")
    build = memory_instructions("Be brief.", session)
    assert run(build(None, None)) == "Be brief."  # no memory yet
    run(session.add_items([{"role": "user", "content": "I live in Porto."}]))
    with daemon.client() as client:
        client.fact_add("session/cli:ada", "The user lives in Porto.")
    first = run(build(None, None))
    run(session.add_items([{"role": "user", "content": "And I have a cat."}]))
    assert run(build(None, None)) == first  # appends do not move the prefix
    memory, _, rest = first.rpartition("\n\n")
    assert "The user lives in Porto." in memory and rest == "Be brief."
