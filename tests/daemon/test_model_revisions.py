"""The model updates and deletes facts by id, through the real daemon and the fake LLM.

The prompt shows each fact of the scope as ``- #id [date] text``; an answer's
``updates`` and ``deletes`` name those ids. What cannot be applied (an
unknown id, a replacement the turns do not support) is dropped and counted
in ``status`` and ``metrics``; the extractive facts of the same turns join
the model's instead of being displaced by them.
"""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import pytest

from reverie.daemon import Client
from reverie.store import fact_id, parse_memory
from tests.daemon.model_config import model_config
from tests.fakellm import FakeLLM, ok
from tests.inprocess import InProcessDaemon

pytestmark = [pytest.mark.engines, pytest.mark.in_process]

SESSION, SCOPE = "cli:carl", "user/carl"
FIRST = [
    ("user", "I play the cello in an orchestra on Sundays."),
    ("assistant", "Lovely! Which orchestra?"),
    ("user", "I work at Acme as a nurse, mostly night shifts."),
    ("user", "Also, I plan a trip to Rome in May with my sister Ana."),
]
FIRST_FACTS = [
    "Carl plays the cello in an orchestra on Sundays.",
    "Carl works at Acme as a nurse.",
    "Carl plans a trip to Rome in May with his sister Ana.",
]
WORK, TRIP = FIRST_FACTS[1], FIRST_FACTS[2]


def _job(client: Client, llm: FakeLLM, turns: list[tuple[str, str]], answer: dict[str, Any]) -> str:
    """Append ``turns`` (the user is Carl), consolidate them with ``answer``; the new memory."""
    llm.script(ok({"summary": "", "facts": [], "updates": [], "deletes": []} | answer))
    for role, text in turns:
        client.append(SESSION, role, text, name="Carl" if role == "user" else None, scope=SCOPE)  # type: ignore[arg-type]
    outcome = client.consolidate(SESSION, wait=True)
    assert outcome is not None and outcome.state == "done", outcome
    return client.memory(SCOPE).memory


def _line(memory: str, text: str) -> str:
    (line,) = [line for line in memory.splitlines() if f"] {text} <!--" in line]
    return line


def _counts(client: Client) -> dict[str, int]:
    return client.status().consolidation["default"].facts


def _memory_block(request: Any) -> str:
    return request.body["messages"][1]["content"].partition("</memory>")[0]


@pytest.fixture
def carl(make_daemon, fake_llm: FakeLLM) -> Iterator[tuple[Client, str]]:
    """A client of a daemon whose scope holds ``FIRST_FACTS`` from a first job, and its memory."""
    daemon: InProcessDaemon = make_daemon(config=model_config(fake_llm))
    with daemon.client() as client:
        yield client, _job(client, fake_llm, FIRST, {"facts": FIRST_FACTS})


def test_an_update_replaces_its_fact_in_place_and_a_delete_removes_one(
    carl: tuple[Client, str], fake_llm: FakeLLM
) -> None:
    client, before = carl
    work = _line(before, WORK)
    assert _line(before, TRIP)
    change = [("user", "Big news: I started at Blue Harbor, I work there as a nurse now.")]
    change.append(("user", "The trip to Rome is cancelled, forget it."))
    answer = {
        "updates": [{"id": f"#{fact_id(WORK)}", "text": "Carl works at Blue Harbor as a nurse."}],
        "deletes": [fact_id(TRIP)],
    }
    after = _job(client, fake_llm, change, answer)

    head = before[: before.index(work)]
    assert after.startswith(head)  # every line before the updated fact: byte-identical
    replaced = after[len(head) :].splitlines()[0]
    assert "] Carl works at Blue Harbor as a nurse. <!--" in replaced
    assert WORK not in after and TRIP not in after
    counts = _counts(client)
    assert counts["updated"] == 1 and counts["deleted"] == 1
    metrics = client.metrics()
    assert 'reverie_consolidation_facts_total{backend="default",outcome="updated"} 1' in metrics
    assert 'reverie_consolidation_facts_total{backend="default",outcome="deleted"} 1' in metrics
    shown = _memory_block(fake_llm.requests[1])
    assert f"- #{fact_id(WORK)} [" in shown and f"] {WORK}\n" in shown


def test_unknown_ids_and_ungrounded_replacements_are_dropped_and_counted(
    carl: tuple[Client, str], fake_llm: FakeLLM
) -> None:
    client, before = carl
    answer = {
        "updates": [
            {"id": "0badc0de", "text": "Carl works at Blue Harbor."},
            {"id": fact_id(WORK), "text": "Carl flies rockets to Mars for Globex."},
        ],
        "deletes": ["ffffffff"],
    }
    turns = [("user", "I played Mahler with the orchestra last Sunday, it was great.")]
    after = _job(client, fake_llm, turns, answer)
    assert after.startswith(before)  # nothing replaced or removed; new facts appended
    assert "Mars" not in after
    counts = _counts(client)
    assert counts["update_unknown"] == 1 and counts["update_ungrounded"] == 1
    assert counts["delete_unknown"] == 1
    assert counts["updated"] == counts["deleted"] == 0
    metrics = client.metrics()
    for outcome in ("update_unknown", "update_ungrounded", "delete_unknown"):
        assert f'facts_total{{backend="default",outcome="{outcome}"}} 1' in metrics


def test_a_greeting_from_the_model_leaves_the_extractive_facts_in_memory(
    make_daemon, fake_llm: FakeLLM
) -> None:
    daemon: InProcessDaemon = make_daemon(config=model_config(fake_llm))
    turns = [
        ("user", "Hi! I am Carl. I live in Porto and I work at Acme as a nurse."),
        ("assistant", "Nice to meet you, Carl!"),
        ("user", "I have a dog called Rex."),
    ]
    with daemon.client() as client:
        memory = _job(client, fake_llm, turns, {"facts": ["Nice to meet you, Carl!"]})
        facts = [f.text for f in parse_memory(memory)[0]]
        for word in ("Porto", "Acme", "Rex"):
            assert any(word in fact and "Carl" in fact for fact in facts), (word, facts)
        assert _counts(client)["extractive"] >= 3


def test_the_prompt_shows_ids_and_its_memory_block_is_byte_stable(
    carl: tuple[Client, str], fake_llm: FakeLLM
) -> None:
    client, memory = carl
    chatter = [("user", "ok thanks"), ("assistant", "You're welcome!")]
    assert _job(client, fake_llm, chatter, {}) == memory
    assert _job(client, fake_llm, chatter, {}) == memory
    first, second, third = map(_memory_block, fake_llm.requests)
    assert first == "<memory>\n(empty)\n"
    assert second.encode() == third.encode()
    shown = second.removeprefix("<memory>\n").splitlines()
    facts = parse_memory(memory)[0]
    assert shown == [f"- #{fact_id(f.text)} [{f.date}] {f.text}" for f in facts]


def test_what_the_model_replaced_or_deleted_has_history_until_that_day(
    carl: tuple[Client, str], fake_llm: FakeLLM
) -> None:
    client, _ = carl
    change = [("user", "I started at Blue Harbor, I work there as a nurse now.")]
    change.append(("user", "The trip to Rome is cancelled, forget it."))
    answer = {
        "updates": [{"id": fact_id(WORK), "text": "Carl works at Blue Harbor as a nurse."}],
        "deletes": [fact_id(TRIP)],
    }
    _job(client, fake_llm, change, answer)
    for fact in (WORK, TRIP):
        entries = client.fact_history(SCOPE, fact_id(fact))
        assert [e.until != "" for e in entries] == [False, True], fact
        assert fact in entries[1].retired
