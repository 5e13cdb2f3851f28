"""Several daemons on one Postgres, under faults: nothing acknowledged is lost or doubled.

Three daemons and a ``reverie worker`` share one real PostgreSQL. Hosts
append with ids through every daemon's socket, two sessions from several
daemons at once, while daemons and the worker are killed (``kill -9``, then
started again) and frozen (``SIGSTOP``/``SIGCONT``) at random and the
database restarts once. Then:
every acknowledged append is stored exactly once at the seq it was
acknowledged with; every session's seqs are 1..n; no message was written by
a daemon that did not own its session at that moment (an audit trigger
records the writer and the owner of every row); every idle session is
consolidated, no job's range twice; and a forget through one daemon leaves
nothing for a search through another. The fault counts and outcomes are
printed (``pytest -s``).
"""

from __future__ import annotations

import os
import random
import signal
import threading
from collections.abc import Callable

import pytest

from reverie.daemon import Client
from tests.checks import poll
from tests.daemon_process import DaemonProcess
from tests.fakellm import FakeLLM
from tests.postgres import PgServer

from .chaos import CONFIG, Chaos, DaemonMember, Host, marker, sql
from .worker_process import WorkerProcess

Make = Callable[..., DaemonProcess]
FAULTS = 22
BUDGET = 60


#: Who wrote each message, and who owned its session when it was written (same statement).
AUDIT = (
    "CREATE TABLE audit (session text, seq bigint, writer text, owner text)",
    """CREATE FUNCTION audit_row() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
    INSERT INTO audit SELECT NEW.session, NEW.seq, current_setting('reverie.member'), s.owner
    FROM sessions s WHERE s.name = NEW.session;
    RETURN NULL;
END $$""",
    "CREATE TRIGGER audit AFTER INSERT ON messages FOR EACH ROW EXECUTE FUNCTION audit_row()",
)


def _scope(session: str) -> str:
    return "team/shared" if session.startswith("shared") else f"user/{session}"


def test_three_daemons_and_a_worker_under_faults_lose_and_double_nothing(
    make_daemon: Make,
    make_worker: Callable[[str, str], WorkerProcess],
    pg_url: str,
    pg_server: PgServer,
    fake_llm: FakeLLM,
    capsys: pytest.CaptureFixture[str],
) -> None:
    def say(text: str) -> None:  # the outcome is printed whatever pytest captures
        with capsys.disabled():
            print(text, flush=True)

    env = {"REVERIE_STORE__URL": pg_url}
    config = CONFIG.format(budget=BUDGET, llm=fake_llm.base_url)
    first = make_daemon(env=env, name="a", config=config)  # migrates the database
    for ddl in AUDIT:
        sql(pg_url, ddl)
    daemons = [first, *(make_daemon(env=env, name=n, config=config) for n in ("b", "c"))]
    members = [DaemonMember(n, d) for n, d in zip("abc", daemons, strict=True)]
    worker = DaemonMember("w", make_worker("w", config))
    sockets = [str(d.socket) for d in daemons]

    hosts = [
        Host(
            tag=f"h{i}",
            sessions=[f"s{i}", f"shared{i % 2}"],
            sockets=sockets[i % 3 :] + sockets[: i % 3],
            count=60,
            scope_of=_scope,
        )
        for i in range(6)
    ]
    seed = int(os.environ.get("REVERIE_CHAOS_SEED", random.randrange(1 << 30)))
    chaos = Chaos(members, [worker], pg_server, FAULTS, seed)
    stop = threading.Event()
    threads = [threading.Thread(target=h.run, args=(stop,)) for h in hosts]
    for t in threads:
        t.start()
    try:
        chaos.run()
    finally:
        for m in [*members, worker]:  # nothing stays frozen, whatever failed
            m.signal(signal.SIGCONT)
        stop.set()
        for t in threads:
            t.join(timeout=300)
    say(f"\nchaos seed {seed}: {dict(chaos.done)}")
    assert sum(chaos.done.values()) >= 20 and chaos.done["postgres restart"] == 1

    with daemons[1].client() as client:
        stored = {
            session: _history(client, session)
            for session in sorted({s for h in hosts for s in h.sessions})
        }
    acked = {mid: at for h in hosts for mid, at in h.acked.items()}
    by_id = {mid: (session, seq) for session, rows in stored.items() for seq, mid in rows}
    say(
        f"acked {len(acked)}, not acked {sum(len(h.unacked) for h in hosts)},"
        f" stored {len(by_id)}, host failovers {sum(h.failovers for h in hosts)}"
    )
    for session, rows in stored.items():
        assert [seq for seq, _ in rows] == list(range(1, len(rows) + 1)), session
    assert len(by_id) == sum(len(rows) for rows in stored.values())  # no id twice
    assert {mid: by_id.get(mid) for mid in acked} == acked  # each ack is what is stored

    audit = sql(pg_url, "SELECT count(*), count(*) FILTER (WHERE writer <> owner) FROM audit")
    say(f"audited rows {audit[0][0]}, written without the session's ownership {audit[0][1]}")
    assert audit[0] == (len(by_id), 0)

    over = "SELECT name, tail_tokens, cursor_seq, last_seq FROM sessions WHERE tail_tokens > %s"
    try:
        poll(lambda: not sql(pg_url, over, (BUDGET,)), timeout=180, what="all consolidated")
    except AssertionError:
        running = sql(
            pg_url, "SELECT session, first_seq, last_seq FROM jobs WHERE state = 'running'"
        )
        raise AssertionError(
            f"over budget {sql(pg_url, over, (BUDGET,))}, running {running}"
        ) from None
    say(_no_range_twice(pg_url))

    with daemons[0].client() as client:
        assert client.forget("s0") > 0
    with daemons[2].client() as client:
        assert client.history("s0") == []
        assert client.search(marker("s0"), mode="text", everywhere=True).hits == []
        assert client.search(marker("s1"), mode="text", everywhere=True).hits  # others kept


def _history(client: Client, session: str) -> list[tuple[int, str]]:
    """Every (seq, id) of the session, a page at a time."""
    rows: list[tuple[int, str]] = []
    while page := client.history(session, after_seq=rows[-1][0] if rows else 0, limit=1000):
        rows += [(m.seq, m.id) for m in page]
    return rows


def _no_range_twice(url: str) -> str:
    """Each session's finished jobs tile 1..cursor: no message consolidated twice or skipped."""
    cursors = dict(sql(url, "SELECT name, cursor_seq FROM sessions"))
    ranges: dict[object, list[tuple[int, int]]] = {}
    for session, first, last in sql(
        url, "SELECT session, first_seq, last_seq FROM jobs WHERE state <> 'running'"
    ):
        ranges.setdefault(session, []).append((int(first), int(last)))  # type: ignore[call-overload]
    for session, cursor in cursors.items():
        tiles = sorted(ranges.get(session, []))
        starts = [first for first, _ in tiles]
        assert starts == [1, *(last + 1 for _, last in tiles)][: len(tiles)], session
        assert (tiles[-1][1] if tiles else 0) == cursor, session
    return f"jobs applied {sum(len(r) for r in ranges.values())} over {len(cursors)} sessions"
