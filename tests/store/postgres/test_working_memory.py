"""Working memory on PostgreSQL: what only a second engine could get wrong.

Float times and bytes across connections, and a compare-and-set racing
another transaction; what every engine must do is in
tests/store/engines/test_working_memory.py.
"""

from __future__ import annotations

import threading

import psycopg

from reverie.config import Conflict
from reverie.store import TaskRecord
from reverie.store.postgres import working_memory as pg_wm
from tests.checks import poll
from tests.store.engines.engine import Engine, pg_connect
from tests.store.engines.test_working_memory import T0, put, tally


def test_float_times_and_bytes_round_trip_exactly_across_connections(pg_url: str) -> None:
    times = [T0, 0.1 + 0.2, 1e-300, 2.0**53 + 1.0, 1_700_000_000.000_000_1]
    with pg_connect(pg_url) as conn:
        e = Engine("postgres", conn)
        for i, t in enumerate(times):
            put(e, "s", f"k{i}", bytes(range(256)), now=t, expires_at=t + 1e9)
            pg_wm.append_scratch(conn, "s", f"line {i}", t, 100, tally(e, "s"))
        pg_wm.save_task(conn, "s", TaskRecord("t", "d", "running", 0, 0, b"\x00", times[1], T0))
        pg_wm.create_checkpoint(conn, "s", "cp", None, times[2])
        conn.commit()
    with pg_connect(pg_url) as conn:
        keys = pg_wm.list_keys(conn, "s", "", 0.0)
        assert [(k.updated, k.expires_at, k.value) for k in keys] == [
            (t, t + 1e9, bytes(range(256))) for t in times
        ]
        assert [r.ts for r in pg_wm.read_scratch(conn, "s", None)] == times
        task = pg_wm.load_task(conn, "s")
        assert task is not None
        assert (task.created, task.updated, task.data) == (times[1], T0, b"\x00")
        assert pg_wm.list_checkpoints(conn, "s")[0].created == times[2]


def test_a_compare_and_set_waits_for_a_concurrent_one_and_then_conflicts(pg_url: str) -> None:
    """Two transactions (two daemons, one day) never both pass the same version check."""
    with (
        pg_connect(pg_url) as first,
        pg_connect(pg_url) as second,
        psycopg.connect(pg_url, autocommit=True) as watcher,
    ):
        one, two = (Engine("postgres", c) for c in (first, second))
        put(one, "s", "k", b"a")
        first.commit()
        put(one, "s", "k", b"b", expected_version=1)  # not committed: the row stays locked
        outcome: list[object] = []

        def contend() -> None:
            try:
                outcome.append(put(two, "s", "k", b"c", expected_version=1))
            except Conflict as exc:
                outcome.append(exc)

        contender = threading.Thread(target=contend)
        contender.start()
        poll(
            lambda: watcher.execute(
                "SELECT 1 FROM pg_stat_activity WHERE pid = %s AND wait_event_type = 'Lock'",
                (second.info.backend_pid,),
            ).fetchone(),
            what="the second compare-and-set waiting for the first",
        )
        first.commit()
        contender.join()
        assert len(outcome) == 1 and isinstance(outcome[0], Conflict)
        assert "at version 2, not 1" in str(outcome[0])
