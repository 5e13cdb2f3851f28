"""What one daemon learns, every daemon sharing the database knows: in context and in search."""

from __future__ import annotations

from collections.abc import Callable

import pytest

from reverie.daemon import Client
from tests.checks import poll
from tests.daemon_process import DaemonProcess
from tests.fakellm import FakeLLM, extractive_config

from .worker_process import WorkerProcess

pytestmark = pytest.mark.in_process  # the daemons in this process (tests/inprocess.py)

Make = Callable[..., DaemonProcess]
SCOPE = "user/carl"


def _learn(client: Client, session: str, text: str) -> None:
    client.append(session, "user", text, scope=SCOPE)
    client.append(session, "assistant", "Noted.", scope=SCOPE)
    assert client.consolidate(session, wait=True) is not None


def test_a_fact_consolidated_through_one_daemon_is_in_every_daemons_context_and_search(
    make_daemon: Make, pg_url: str, fake_llm: FakeLLM
) -> None:
    env = {"REVERIE_STORE__URL": pg_url}
    config = extractive_config(fake_llm)
    a, b = (make_daemon(env=env, name=n, config=config) for n in ("a", "b"))
    with a.client() as through_a, b.client() as through_b:
        _learn(through_a, "first", "I live in Porto and I work as a nurse.")
        before = through_b.context("reader", scope=SCOPE).memory
        assert "Porto" in before

        _learn(through_a, "second", "Quick update: I moved to Lisbon last week.")
        after = through_b.context("reader", scope=SCOPE).memory  # b's cached prefix is stale
        assert "Lisbon" in after and after != before
        # One prefix, byte for byte, whichever daemon the host asks: its KV cache holds.
        assert through_a.context("reader", scope=SCOPE).memory == after
        assert through_b.context("reader", scope=SCOPE).memory == after
        poll(
            lambda: any(
                "Lisbon" in h.text
                for h in through_b.search("Lisbon", scope=SCOPE, kinds=["fact"]).hits
            ),
            what="the fact found through b",
        )


def test_a_fact_a_worker_consolidated_is_found_by_every_daemons_search(
    make_daemon: Make,
    make_worker: Callable[[str, str], WorkerProcess],
    pg_url: str,
    fake_llm: FakeLLM,
) -> None:
    env = {"REVERIE_STORE__URL": pg_url}
    daemons = [make_daemon(env=env, name=n, config=extractive_config(fake_llm)) for n in "ab"]
    # The daemons wait 600 s for a session to go idle; the worker, a third of a second.
    make_worker("w", "[consolidation]\nidle_after = 0.3\nbudget_tokens = 5\ntarget_tokens = 0\n")
    with daemons[0].client() as through_a:
        through_a.append("s", "user", "I live in Porto and I work as a nurse.", scope=SCOPE)
        through_a.append("s", "assistant", "Noted.", scope=SCOPE)
    for daemon in daemons:
        with daemon.client() as client:
            poll(
                lambda c=client: any(
                    "Porto" in h.text for h in c.search("Porto", scope=SCOPE, kinds=["fact"]).hits
                ),
                what="the worker's fact found through each daemon",
            )
