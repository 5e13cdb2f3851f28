"""Memory that stays true across the sessions of one scope, through the public client.

A user's memory is a scope (``user/p``) that many sessions write to. A fact
that changes replaces the old one whichever session of the scope said
either (before, only a change said in the same session did, so an unnamed
user who moved in a later session kept "lives in Porto" as current), on
the extractive path and for a model's new fact alike. What must not move
with it: another scope's facts, a relative's or anyone else the user names
("Leena got a job"), and a forget of one session still takes only the
facts it alone supports.
"""

from __future__ import annotations

from typing import Any

import pytest

from reverie.daemon import Client
from reverie.store import fact_id
from tests.daemon.model_config import model_config
from tests.fakellm import FakeLLM, extractive_config, ok
from tests.inprocess import InProcessDaemon

pytestmark = [pytest.mark.engines, pytest.mark.in_process]

SCOPE = "user/p"


def _say(client: Client, session: str, text: str, *, scope: str = SCOPE, name: str = "") -> None:
    """One user turn (answered), then a consolidation of ``session``."""
    client.append(session, "user", text, name=name or None, scope=scope)
    client.append(session, "assistant", "Noted.")
    outcome = client.consolidate(session, wait=True)
    assert outcome is not None and outcome.state == "done", outcome


def _facts(client: Client, scope: str = SCOPE) -> list[str]:
    """The scope's current facts, as a fresh session of the scope is shown them."""
    memory = client.context("reader", scope=scope).memory
    return [line.split("] ", 1)[1] for line in memory.splitlines() if line.startswith("- [")]


@pytest.fixture
def client(make_daemon: Any, fake_llm: FakeLLM) -> Any:
    daemon: InProcessDaemon = make_daemon(config=extractive_config(fake_llm))
    with daemon.client() as connected:
        yield connected


@pytest.mark.parametrize(
    ("first", "later", "current", "stale"),
    [
        (
            "I live in Porto and I work as a nurse.",
            "Quick update: I moved to Lisbon last week.",
            ["The user works as a nurse.", "The user moved to Lisbon last week."],
            "The user lives in Porto.",
        ),
        (
            "I work at Acme.",
            "I started a new job at Blue Harbor.",
            ["The user works at Blue Harbor."],
            "The user works at Acme.",
        ),
        (
            "I drink coffee every morning.",
            "Oh, by the way, I do not drink coffee anymore, only tea.",
            ["The user drinks tea."],
            "The user drinks coffee every morning.",
        ),
    ],
    ids=["place", "employer", "preference"],
)
def test_a_change_said_in_a_later_session_replaces_the_fact(
    client: Client, first: str, later: str, current: list[str], stale: str
) -> None:
    _say(client, "p-0", first)
    assert stale in _facts(client)

    _say(client, "p-1", later)

    assert _facts(client) == current
    entries = client.fact_history(SCOPE, fact_id(stale))
    assert [e.session for e in entries] == ["p-0", "p-1"]
    assert entries[1].retired == [stale]


def test_an_unnamed_introduction_is_replaced_like_a_named_one(client: Client) -> None:
    _say(client, "p-0", "I'm Sofie, a graphic designer at Inkwell.")
    _say(client, "p-1", "I handed in my notice, I start at Fjord Creative on Monday.")
    assert _facts(client) == [
        "The user's name is Sofie.",
        "The user works as a graphic designer.",
        "The user starts at Fjord Creative on Monday.",
    ]


def test_someone_the_user_names_does_not_replace_their_facts(client: Client) -> None:
    _say(client, "p-0", "I work at Quillstack and I live in Tallinn.")
    _say(client, "p-1", "Leena got a job in Helsinki, so we moved there last week.")
    assert _facts(client) == [
        "The user works at Quillstack.",
        "Leena got a job in Helsinki.",
        "The user and others moved to Helsinki last week.",
    ]


def test_another_scope_and_a_relative_keep_their_facts(client: Client) -> None:
    _say(client, "p-0", "I live in Porto.")
    _say(client, "p-1", "My sister lives in Paris.")
    _say(client, "q-0", "I moved to Lisbon.", scope="user/q")
    _say(client, "p-2", "I moved to Faro.")

    assert _facts(client) == ["The user's sister lives in Paris.", "The user moved to Faro."]
    assert _facts(client, "user/q") == ["The user moved to Lisbon."]


def test_a_forget_of_one_session_takes_only_what_it_alone_supports(client: Client) -> None:
    _say(client, "p-0", "I live in Porto and I work as a nurse.")
    _say(client, "p-1", "I moved to Lisbon.")
    assert _facts(client) == ["The user works as a nurse.", "The user moved to Lisbon."]

    client.forget("p-1")

    assert _facts(client) == ["The user works as a nurse."]


def test_a_model_fact_said_in_a_later_session_replaces_the_old_one(
    make_daemon: Any, fake_llm: FakeLLM
) -> None:
    daemon: InProcessDaemon = make_daemon(config=model_config(fake_llm))
    with daemon.client() as client:
        _model_says(client, fake_llm, "p-0", "I live in Porto.", "The user lives in Porto.")
        _model_says(client, fake_llm, "p-1", "I moved to Lisbon.", "The user moved to Lisbon.")
        assert _facts(client) == ["The user moved to Lisbon."]


def _model_says(client: Client, llm: FakeLLM, session: str, text: str, fact: str) -> None:
    """The scripted model answers ``text`` with one new fact (no update by id)."""
    llm.script(ok({"summary": "", "facts": [fact], "updates": [], "deletes": []}))
    _say(client, session, text)
