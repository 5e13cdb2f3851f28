"""An index more than ``index.max_backlog`` messages behind is reported degraded (issue 26).

The embeddings come from the fake OpenAI-compatible server, which holds every
embeddings request while the test says so: the indexer then cannot move its
cursor, so the backlog is exactly the messages appended, with no timing in
the outcome. Status, metrics and ``reverie status`` are read through the
public client and the CLI of a real daemon.
"""

from __future__ import annotations

from collections.abc import Callable

import pytest

from reverie.daemon import protocol as p
from tests.checks import hup_and_wait, poll, reverie_cli
from tests.daemon_process import DaemonProcess
from tests.fakellm import FakeLLM, extractive_config

pytestmark = pytest.mark.engines

LIMIT = 5


def _config(fake_llm: FakeLLM, max_backlog: int) -> str:
    return extractive_config(fake_llm) + f"\n[index]\nbatch_size = 4\nmax_backlog = {max_backlog}\n"


def _index(daemon: DaemonProcess) -> p.IndexStatus:
    with daemon.client() as client:
        return client.status().index


def _degraded_gauge(daemon: DaemonProcess) -> str:
    with daemon.client() as client:
        text = client.metrics()
    return next(line for line in text.splitlines() if line.startswith("reverie_index_degraded "))


def test_an_index_past_max_backlog_is_degraded_until_it_catches_up(
    make_daemon: Callable[..., DaemonProcess], fake_llm: FakeLLM
) -> None:
    fake_llm.hold_embeddings()
    daemon = make_daemon(config=_config(fake_llm, LIMIT))
    with daemon.client() as client:
        for i in range(LIMIT):
            client.append("backlog:a", "user", f"message number {i}")
    at_limit = _index(daemon)
    assert at_limit.messages_behind == LIMIT  # the embedder is held: nothing indexed
    assert not at_limit.degraded and at_limit.degraded_reason == ""
    assert _degraded_gauge(daemon) == "reverie_index_degraded 0"

    with daemon.client() as client:
        client.append("backlog:a", "user", "one past the limit")
    past = _index(daemon)
    assert past.messages_behind == LIMIT + 1
    assert past.degraded
    assert f"{LIMIT + 1:,} messages behind" in past.degraded_reason
    assert f"index.max_backlog is {LIMIT:,}" in past.degraded_reason
    assert _degraded_gauge(daemon) == "reverie_index_degraded 1"
    out = reverie_cli(daemon.socket, "status", check=True)
    assert f"index     DEGRADED: {past.degraded_reason}" in out.stdout.splitlines()

    # The limit is reloadable: raised past the backlog, the index is no longer degraded.
    assert daemon.config_path is not None
    daemon.config_path.write_text(_config(fake_llm, 1000))
    assert not hup_and_wait(daemon, 1).index.degraded
    daemon.config_path.write_text(_config(fake_llm, LIMIT))
    assert hup_and_wait(daemon, 2).index.degraded

    fake_llm.release_embeddings()
    caught_up = poll(
        lambda: (i := _index(daemon)).messages_behind == 0 and i, what="index caught up"
    )
    assert not caught_up.degraded and caught_up.degraded_reason == ""
    assert _degraded_gauge(daemon) == "reverie_index_degraded 0"
    out = reverie_cli(daemon.socket, "status", check=True)
    assert "DEGRADED" not in out.stdout
