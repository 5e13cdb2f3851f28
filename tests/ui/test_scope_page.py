"""The inspector's scope page shows a fact that stopped being true as such (issue 47)."""

from __future__ import annotations

import httpx

from tests.ui.conftest import TRIP, Inspector


def test_a_retired_fact_is_shown_struck_through_with_its_last_day(inspector: Inspector) -> None:
    scope = f"session/{TRIP}"
    with inspector.daemon.client() as client:
        client.append(TRIP, "user", "I live in Braga.", name="Rui", ts=1767571200.0)
        client.consolidate(TRIP, wait=True)
        client.append(TRIP, "user", "I moved to Faro.", name="Rui", ts=1767571200.0 + 86400)
        client.consolidate(TRIP, wait=True)
        assert not any("Braga" in f.text for f in client.facts(scope))

    headers = {"Authorization": f"Bearer {inspector.token}"}
    page = httpx.get(f"{inspector.url}/scope", params={"name": scope}, headers=headers)

    assert page.status_code == 200
    assert "No longer true (until 2026-01-06)" in page.text
    assert "<s>Rui lives in Braga.</s>" in page.text
