"""The TTL sweep on one Postgres shared by two daemons: only the duty's holder sweeps, and it
sweeps the keys set through the other daemon too."""

from __future__ import annotations

from collections.abc import Callable

import psycopg
import pytest

from tests.checks import poll
from tests.daemon_process import DaemonProcess

pytestmark = pytest.mark.in_process  # the daemons in this process (tests/inprocess.py)

CONFIG = "[cluster]\nowner_ttl = 1.0\njob_lease = 5.0\n"


def _keys(url: str) -> int:
    with psycopg.connect(url, autocommit=True) as conn:
        row = conn.execute("SELECT count(*) FROM wm_keys").fetchone()
    return int(row[0]) if row else -1


def _expired(daemon: DaemonProcess) -> int:
    with daemon.client() as client:
        return int(client.status().counters.get("wm_keys_expired", 0))


def test_only_the_duty_holder_sweeps_and_it_sweeps_keys_set_through_another_daemon(
    make_daemon: Callable[..., DaemonProcess], pg_url: str
) -> None:
    env = {"REVERIE_STORE__URL": pg_url}
    holder = make_daemon(env=env, config=CONFIG, name="a")  # first up: takes the duty
    other = make_daemon(env=env, config=CONFIG, name="b")
    with other.client() as client:
        client.wm_set("team", "short", "gone soon", ttl=0.5)
        client.wm_set("team", "kept", "stays")
    poll(lambda: _keys(pg_url) == 1, 30, "the expired key swept")
    assert poll(lambda: _expired(holder), 10, "the holder counts its sweep") == 1
    assert _expired(other) == 0
