"""The inspector's scope page shows a fact that stopped being true as such (issue 47), and
so does its search page (issue 59)."""

from __future__ import annotations

import httpx

from reverie.langgraph import ReverieStore
from tests.checks import poll
from tests.ui.conftest import TRIP, Inspector


def _rui_moves(inspector: Inspector) -> str:
    """Rui lives in Braga, then moves to Faro, a day apart, each day consolidated."""
    scope = f"session/{TRIP}"
    with inspector.daemon.client() as client:
        client.append(TRIP, "user", "I live in Braga.", name="Rui", ts=1767571200.0)
        client.consolidate(TRIP, wait=True)
        client.append(TRIP, "user", "I moved to Faro.", name="Rui", ts=1767571200.0 + 86400)
        client.consolidate(TRIP, wait=True)
        assert not any("Braga" in f.text for f in client.facts(scope))
        poll(lambda: client.status().index.settled, timeout=120, what="the index settled")
    return scope


def test_a_retired_fact_is_shown_struck_through_with_its_last_day(inspector: Inspector) -> None:
    scope = _rui_moves(inspector)

    headers = {"Authorization": f"Bearer {inspector.token}"}
    page = httpx.get(f"{inspector.url}/scope", params={"name": scope}, headers=headers)

    assert page.status_code == 200
    assert "No longer true (until 2026-01-06)" in page.text
    assert "<s>Rui lives in Braga.</s>" in page.text


def test_the_search_page_strikes_through_what_is_history(inspector: Inspector) -> None:
    scope = _rui_moves(inspector)
    headers = {"Authorization": f"Bearer {inspector.token}"}
    query = {"q": "Where does Rui live?", "scope": scope}
    page = httpx.get(f"{inspector.url}/search", params=query, headers=headers)

    assert page.status_code == 200
    assert "<s>Rui lives in Braga.</s>" in page.text, page.text
    assert "history: until 2026-01-06" in page.text
    assert "<s>[2026-01-06] Rui moved to Faro.</s>" not in page.text
    assert "[2026-01-06] Rui moved to Faro." in page.text  # current: as it is


def test_the_scope_page_shows_its_working_memory(inspector: Inspector) -> None:
    scope = "user/ada"
    store = ReverieStore(inspector.daemon.socket)
    store.put(("user", "ada"), "tea", {"fact": "likes green tea"})
    with inspector.daemon.client() as client:
        client.wm_set(scope, "note", "<b>by hand</b>")
        client.task_set(scope, "t1", "plan the trip", status="running", step=2, total_steps=4)
        client.scratch_append(scope, "looked up trains")
        checkpoint = client.checkpoint_create(scope, label="before the trip")

    headers = {"Authorization": f"Bearer {inspector.token}"}
    page = httpx.get(f"{inspector.url}/scope", params={"name": scope}, headers=headers)

    assert page.status_code == 200
    assert "likes green tea" in page.text  # the LangGraph store's item, under its key
    assert "<td>tea</td>" in page.text and "<td>note</td>" in page.text
    assert "&lt;b&gt;by hand&lt;/b&gt;" in page.text  # escaped
    assert "<b>t1</b>: plan the trip — running, step 2 of 4 (50%)" in page.text
    assert "looked up trains" in page.text
    assert checkpoint in page.text and "before the trip" in page.text
    empty = httpx.get(f"{inspector.url}/scope", params={"name": "user/nobody"}, headers=headers)
    assert "No key." in empty.text and "No task." in empty.text and "Empty." in empty.text
