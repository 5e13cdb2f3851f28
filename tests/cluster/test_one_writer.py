"""One writer per session across daemons sharing one Postgres: through the public client.

Two daemons on one database serve the same session: each takes it over
when asked (the epoch goes up), the one that lost it writes nothing
(``session.moved``, which the client retries), and the log stays one gap-free
sequence with every acknowledged message exactly once.
"""

from __future__ import annotations

import signal
import threading
import uuid
from collections.abc import Callable

import psycopg
import pytest

from reverie import SessionMoved, StoreUnavailable
from reverie.daemon import Client
from reverie.daemon import protocol as p
from reverie.daemon.client.api import raise_for
from tests.checks import poll
from tests.daemon_process import DaemonProcess
from tests.protocol_fuzz import raw

Make = Callable[..., DaemonProcess]

# In this process (tests/inprocess.py), but for the tests that stop or kill a daemon's process.
pytestmark = pytest.mark.in_process


@pytest.fixture
def pair(make_daemon: Make, pg_url: str) -> tuple[DaemonProcess, DaemonProcess]:
    env = {"REVERIE_STORE__URL": pg_url}
    return make_daemon(env=env, name="a"), make_daemon(env=env, name="b")


def _seqs(client: Client, session: str) -> list[tuple[int, str]]:
    return [(m.seq, m.id) for m in client.history(session, limit=1000)]


def test_one_session_appended_through_two_daemons_keeps_one_gap_free_log(
    pair: tuple[DaemonProcess, DaemonProcess],
) -> None:
    acked: list[tuple[int, str]] = []
    errors: list[BaseException] = []

    def host(daemon: DaemonProcess, tag: str) -> None:
        try:
            with Client(daemon.socket, timeout=60) as client:
                for i in range(30):
                    ack = client.append("shared", "user", f"{tag} says {i}", id=f"{tag}-{i}")
                    acked.append((ack.seq, ack.id))
        except BaseException as exc:  # reported below
            errors.append(exc)

    hosts = [threading.Thread(target=host, args=(d, t)) for d, t in zip(pair, "ab", strict=True)]
    for t in hosts:
        t.start()
    for t in hosts:
        t.join()
    assert errors == []

    with pair[1].client() as client:
        stored = _seqs(client, "shared")
    assert [seq for seq, _ in stored] == list(range(1, 61))  # gap free, nothing twice
    assert sorted(stored) == sorted(acked)  # each ack is the row that is stored


@pytest.mark.in_process(False)  # SIGSTOP
def test_a_frozen_daemons_late_write_is_refused_and_its_retry_lands_after_the_takeover(
    pair: tuple[DaemonProcess, DaemonProcess],
) -> None:
    a, b = pair
    with a.client() as client:
        client.append("s", "user", "first, through a", id="m1")
    assert a.proc is not None
    late: list[object] = []
    a.proc.send_signal(signal.SIGSTOP)
    try:

        def write_to_frozen() -> None:
            with Client(a.socket, timeout=60) as c:
                late.append(c.append("s", "user", "late, through a", id="m3"))

        waiting = threading.Thread(target=write_to_frozen)
        waiting.start()
        with b.client() as client:
            assert client.append("s", "user", "second, through b", id="m2").seq == 2
    finally:
        a.proc.send_signal(signal.SIGCONT)
    waiting.join(timeout=60)
    assert len(late) == 1 and getattr(late[0], "seq", None) == 3

    with b.client() as client:
        assert _seqs(client, "s") == [(1, "m1"), (2, "m2"), (3, "m3")]
    with a.client() as client:  # the write of a's stale actor was refused, then retried
        assert client.status().counters.get("session_errors", 0) >= 1


def test_a_host_catches_the_refusal_of_the_daemon_the_session_moved_from_by_class(
    pair: tuple[DaemonProcess, DaemonProcess],
) -> None:
    """The typed clients retry ``session.moved`` by themselves, so the refusal is read raw
    and turned into its exception by the clients' own ``raise_for``."""
    a, b = pair
    with a.client() as client:
        client.append("s", "user", "through a", id="m1")
    with b.client() as client:  # b takes the session over: a's actor is stale
        client.append("s", "user", "through b", id="m2")
    late = p.MessageIn(role="user", content="late, through a", id="m3")
    with raw(a) as conn:
        assert conn.send(p.frame(p.encode(p.Append(rid=7, session="s", messages=[late]))))
        reply = conn.next_reply()
    assert reply is not None
    with pytest.raises(SessionMoved) as caught:
        raise_for(reply)
    assert type(caught.value) is SessionMoved and caught.value.code == "session.moved"
    assert isinstance(caught.value, StoreUnavailable)  # a host retrying those retries it too
    with a.client() as client:  # nothing was written; the retry takes the session back
        assert client.append("s", "user", "late, through a", id="m3").seq == 3


@pytest.mark.in_process(False)  # kill -9
def test_a_killed_daemons_session_is_written_through_another_at_once(
    pair: tuple[DaemonProcess, DaemonProcess],
) -> None:
    a, b = pair
    session = f"s-{uuid.uuid4().hex[:6]}"
    with a.client() as client:
        for i in range(3):
            client.append(session, "user", f"through a {i}")
    a.kill9()
    with b.client() as client:
        assert client.append(session, "user", "through b").seq == 4
        poll(lambda: len(_seqs(client, session)) == 4, what="four messages")


def test_a_session_gone_idle_is_let_go_and_taken_by_the_next_daemon_from_no_one(
    make_daemon: Make, pg_url: str
) -> None:
    env = {"REVERIE_STORE__URL": pg_url}
    quick = "[sessions]\npassivate_after = 0.3\n"
    a = make_daemon(env=env, name="a", config=quick)
    with a.client() as client:
        client.append("idle", "user", "then nothing")
    poll(lambda: _owner(pg_url, "idle") == (None, 1), what="the idle session let go")
    b = make_daemon(env=env, name="b")
    with b.client() as client:
        assert client.append("idle", "user", "through b").seq == 2
    assert _owner(pg_url, "idle")[1] == 2


def _owner(url: str, session: str) -> tuple[str | None, int]:
    with psycopg.connect(url, autocommit=True) as conn:
        row = conn.execute("SELECT owner, epoch FROM sessions WHERE name = %s", (session,))
        found = row.fetchone()
    assert found is not None
    return found[0], int(found[1])
