"""Search knows what is current (issue 59, item 7), through the public client.

Maya moves from Manchester to Leeds over two days, each consolidated on the
default (extractive) path: a question about where she lives gets the current
fact first, and the retired fact and the turn that stated it come later,
marked as history with the day they stopped being true. A question worded
unlike anything she said ("which diet do I follow") still finds the fact
at the default ``min_score``.
"""

from __future__ import annotations

from typing import Any

import pytest
from mcp import ClientSession

from reverie.daemon import Client
from tests.checks import poll
from tests.daemon.mcp_stdio import run_mcp
from tests.daemon.search_corpus import run_reverie
from tests.daemon_process import DaemonProcess

pytestmark = [pytest.mark.engines, pytest.mark.in_process]

DAY = 86400.0
DAY0 = 1767571200.0  # 2026-01-05 00:00 UTC
SCOPE = "user/maya"
DAYS = [["I live in Manchester.", "I'm vegetarian."], ["I moved to Leeds last week."]]
MOVED = "2026-01-06"  # the second day: Manchester stopped being true


def _maya(client: Client) -> list[str]:
    """Both days said and consolidated; the scope's current facts, as search shows them."""
    for day, texts in enumerate(DAYS):
        for i, text in enumerate(texts):
            ts = DAY0 + day * DAY + 60 * i
            client.append("maya", "user", text, name="Maya", ts=ts, scope=SCOPE)
            client.append("maya", "assistant", "Noted, thanks!", ts=ts + 1)
        assert client.consolidate("maya", wait=True) is not None
    poll(lambda: client.status().index.settled, timeout=120, what="the index settled")
    return [line[2:] for line in client.context("maya").memory.splitlines() if line[:2] == "- "]


def test_the_current_fact_comes_first_and_what_it_replaced_is_history(
    daemon: DaemonProcess,
) -> None:
    with daemon.client() as client:
        current = _maya(client)
        hits = client.search("where does Maya live now", scope=SCOPE).hits
    shown = [(h.kind, h.text, h.until, round(h.score, 3)) for h in hits]
    assert any("Leeds" in fact for fact in current) and not any("Manchester" in f for f in current)
    first = hits[0]
    assert first.kind == "fact" and "Leeds" in first.text and first.text in current, shown
    assert first.until == "", shown
    old = [h for h in hits if "Manchester" in h.text]
    assert {h.kind for h in old} >= {"fact", "message"}, shown  # the retired fact, its turn
    assert all(h.until == MOVED for h in old), shown
    assert all(h.score <= first.score for h in old), shown


def test_a_question_worded_unlike_the_fact_finds_it_at_the_default_min_score(
    daemon: DaemonProcess,
) -> None:
    with daemon.client() as client:
        current = _maya(client)
        hits = client.search("Which diet do I follow?", scope=SCOPE).hits
    shown = [(h.kind, h.text, h.until, round(h.score, 3)) for h in hits]
    facts = [h for h in hits if h.kind == "fact" and "vegetarian" in h.text]
    assert facts and facts[0].text in current and facts[0].until == "", shown
    assert hits[0] == facts[0], shown  # before the turn that brought it
    assert any(h.kind == "message" and "vegetarian" in h.text for h in hits), shown


def test_the_cli_and_the_mcp_recall_say_what_is_history(daemon: DaemonProcess) -> None:
    query = "where does Maya live now"
    with daemon.client() as client:
        _maya(client)

    async def recall(session: ClientSession) -> Any:
        return await session.call_tool("recall", {"query": query})

    shown = run_reverie(daemon, "search", query, "--scope", SCOPE).stdout
    lines = [line for line in shown.splitlines() if "Manchester" in line or "Leeds" in line]
    assert lines and all(
        ("Manchester" in line) == (f"(history: until {MOVED})" in line) for line in lines
    ), shown
    recalled = run_mcp(daemon, recall, "--session", "maya", "--scope", SCOPE)
    hits = recalled.structuredContent["hits"]
    assert hits and all(("Manchester" in h["text"]) == (h.get("until") == MOVED) for h in hits), (
        hits
    )
    assert any("Manchester" in h["text"] for h in hits), hits
