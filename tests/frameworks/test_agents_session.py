"""``reverie.agents.ReverieSession`` against the real OpenAI Agents SDK and a real daemon."""

from __future__ import annotations

import asyncio
from collections.abc import Callable, Coroutine
from typing import Any, TypeVar

import pytest
from agents import Agent, OpenAIChatCompletionsModel, Runner, set_tracing_disabled
from agents.memory import Session
from openai import AsyncOpenAI

from reverie import AsyncClient, Conflict, ConnectionLost, InvalidArgument
from reverie.agents import ReverieSession, memory_instructions
from reverie.daemon.protocol import ContextView, Message
from tests.daemon_process import DaemonProcess
from tests.fakellm import FakeLLM, content, extractive_config
from tests.frameworks.relay import Relay

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


def _session(daemon: DaemonProcess, name: str = "tg:123", **kwargs: Any) -> ReverieSession:
    return ReverieSession(name, socket=daemon.socket, **kwargs)


def _agent(fake_llm: FakeLLM, instructions: Any = "Be brief.") -> Agent[Any]:
    set_tracing_disabled(True)
    model = OpenAIChatCompletionsModel(
        model="fake", openai_client=AsyncOpenAI(base_url=fake_llm.base_url, api_key="unused")
    )
    return Agent(name="helper", instructions=instructions, model=model)


def _said(request: int, fake_llm: FakeLLM) -> list[tuple[str, str]]:
    return [(m["role"], m["content"]) for m in fake_llm.requests[request].body["messages"]]


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


def test_the_same_items_in_two_adds_are_two_turns(daemon: DaemonProcess) -> None:
    session = _session(daemon)
    run(session.add_items([{"role": "user", "content": "yes"}]))
    run(session.add_items([{"role": "user", "content": "yes"}]))  # the user said it again
    assert run(session.get_items()) == [{"role": "user", "content": "yes"}] * 2


def test_a_retried_add_stores_nothing_twice_after_another_hosts_add(
    daemon: DaemonProcess,
) -> None:
    """The first attempt commits and loses its acknowledgement; another host adds; the
    retry through the same session stores nothing twice."""
    path = daemon.socket.parent / "lossy.sock"
    lossy = Relay(daemon.socket, path, lose="append")
    one = ReverieSession("tg:123", socket=path)
    transfer = {"role": "user", "content": "transfer 100 EUR to Bob"}
    with pytest.raises(ConnectionLost):
        run(one.add_items([transfer, ITEMS[1]]))
    assert lossy.cut.is_set()
    run(_session(daemon).add_items([{"role": "user", "content": "hello from the other tab"}]))
    one.socket = daemon.socket  # the daemon's own socket, for the retry
    run(one.add_items([transfer, ITEMS[1]]))  # the host's retry
    assert run(_session(daemon).get_items()) == [
        transfer,
        ITEMS[1],
        {"role": "user", "content": "hello from the other tab"},
    ]


def test_an_add_over_a_frame_goes_as_several_appends(daemon: DaemonProcess) -> None:
    with daemon.client() as client:
        hello = client.hello()
    size = hello.max_message_bytes - 16
    count = hello.max_frame_bytes // size + 2  # together several frames, each under a message
    items = [
        {"type": "function_call_output", "call_id": f"c{n}", "output": "x" * size}
        for n in range(count)
    ]
    session = _session(daemon, view="log")
    run(session.add_items(items))
    assert run(session.get_items()) == items
    run(session.add_items(items))  # a new add of the same items: stored again, in order
    assert run(session.get_items()) == items + items


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
    session = _session(daemon, view="log")
    run(session.add_items(ITEMS[:2]))
    with daemon.client() as client:
        assert client.consolidate("tg:123", wait=True) is not None
    with pytest.raises(Conflict, match="already consolidated"):
        run(session.pop_item())
    assert run(session.get_items()) == ITEMS[:2]  # the log view: every item ever added


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
    fake_llm.script(content("Nice to meet you, Ada."), content("Your name is Ada."))
    agent = _agent(fake_llm)
    session = _session(daemon)

    async def two_turns() -> list[Any]:
        first = await Runner.run(agent, "My name is Ada.", session=session)
        second = await Runner.run(agent, "What is my name?", session=session)
        return [first.final_output, second.final_output]

    assert run(two_turns()) == ["Nice to meet you, Ada.", "Your name is Ada."]
    assert _said(1, fake_llm) == [
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


@pytest.mark.parametrize("view", ["context", "log"])
def test_after_a_consolidation_the_model_gets_memory_and_the_unconsolidated_turns(
    make_daemon: Callable[..., DaemonProcess], fake_llm: FakeLLM, view: str
) -> None:
    daemon = make_daemon(config=extractive_config(fake_llm))
    fake_llm.script(*(content(f"Noted {n}.") for n in range(4)))
    agent = _agent(fake_llm)
    session = _session(daemon, "cli:ada", view=view)
    said = ["My name is Ada.", "I live in Porto.", "I have a cat.", "What is my name?"]

    async def four_turns() -> tuple[ContextView, list[Message]]:
        async with AsyncClient(daemon.socket) as client:
            for n in range(4):
                await Runner.run(agent, said[n], session=session)
                if n == 1:
                    assert await client.consolidate("cli:ada", wait=True) is not None
                    consolidated = await client.context("cli:ada", max_tokens=0)
            tail = (await client.context("cli:ada", max_tokens=0)).messages
        return consolidated, tail

    consolidated, tail = run(four_turns())
    assert consolidated.memory and len(tail) < 8  # something was consolidated
    unconsolidated = [(m.role, m.content) for m in tail][:-2]  # before turn 3's own input
    if view == "context":
        assert _said(3, fake_llm) == [
            ("system", "Be brief."),
            ("system", consolidated.memory),
            *unconsolidated,
            ("user", "What is my name?"),
        ]
    else:  # every turn ever, whatever consolidation took
        everything = [
            (r, t) for n in range(3) for r, t in (("user", said[n]), ("assistant", f"Noted {n}."))
        ]
        assert _said(3, fake_llm) == [
            ("system", "Be brief."),
            *everything,
            ("user", "What is my name?"),
        ]
    assert len(run(_session(daemon, "cli:ada", view="log").get_items())) == 8  # all stored


def test_the_context_view_limit_counts_the_memory_as_the_oldest_item(
    make_daemon: Callable[..., DaemonProcess], fake_llm: FakeLLM
) -> None:
    daemon = make_daemon(config=extractive_config(fake_llm))
    session = _session(daemon)
    run(session.add_items([{"role": "user", "content": "My name is Ada."}]))
    with daemon.client() as client:
        client.consolidate("tg:123", wait=True)
        memory = client.context("tg:123", max_tokens=0).memory
    assert "Ada" in memory
    run(session.add_items(ITEMS[2:4]))
    whole = run(session.get_items())
    assert whole[0] == {"role": "system", "content": memory} and whole[1:] == ITEMS[2:4]
    assert run(session.get_items(limit=2)) == ITEMS[2:4]
    assert run(session.get_items(limit=3)) == whole
    with pytest.raises(InvalidArgument, match="'context' or 'log'"):
        ReverieSession("tg:123", view="all")  # type: ignore[arg-type]
