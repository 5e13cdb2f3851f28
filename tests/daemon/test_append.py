"""Appends over the real socket: ordering, exactly-once, idempotent retries, durability."""

from __future__ import annotations

import random
import socket
import threading

import msgspec
import pytest
import trio

from reverie.config import Conflict
from reverie.daemon import AsyncClient, Client
from reverie.daemon.protocol.framing import FrameReader, frame
from tests.checks import whole_history
from tests.daemon_process import DaemonProcess
from tests.inprocess import InProcessDaemon

pytestmark = [pytest.mark.engines, pytest.mark.in_process]


async def _writers(socket: str, sessions: list[str], clients: int, per_client: int) -> None:
    async def writer(w: int) -> None:
        async with AsyncClient(socket) as client:
            for i in range(per_client):
                session = sessions[(w + i) % len(sessions)]
                await client.append(session, "user", f"w{w} m{i}", id=f"w{w}-{i}")

    async with trio.open_nursery() as nursery:
        for w in range(clients):
            nursery.start_soon(writer, w)


def test_64_clients_one_session_exactly_once_in_order(daemon: InProcessDaemon) -> None:
    trio.run(_writers, str(daemon.socket), ["shared"], 64, 200)
    with daemon.client() as client:
        messages = whole_history(client, "shared")
    assert [m.seq for m in messages] == list(range(1, 12_801))
    ids = [m.id for m in messages]
    assert len(set(ids)) == 12_800
    for w in range(64):
        mine = [int(i.split("-")[1]) for i in ids if i.startswith(f"w{w}-")]
        assert mine == list(range(200)), f"writer {w} out of order"


def test_64_clients_across_1000_sessions(daemon: InProcessDaemon) -> None:
    sessions = [f"s{i:04d}" for i in range(1000)]
    trio.run(_writers, str(daemon.socket), sessions, 64, 200)
    seen: dict[str, int] = {}
    with daemon.client() as client:
        for session in sessions:
            messages = whole_history(client, session)
            assert [m.seq for m in messages] == list(range(1, len(messages) + 1))
            for m in messages:
                seen[m.id] = seen.get(m.id, 0) + 1
    assert len(seen) == 12_800
    assert set(seen.values()) == {1}


def test_retry_with_same_id_is_one_row_and_other_content_conflicts(daemon: InProcessDaemon) -> None:
    with daemon.client() as client:
        first = client.append("s", "user", "hello", id="m1")
        again = client.append("s", "user", "hello", id="m1")
        assert (again.seq, again.id) == (first.seq, first.id)
        with pytest.raises(Conflict, match="m1"):
            client.append("s", "user", "changed", id="m1")
        assert [m.id for m in client.history("s")] == ["m1"]


def test_batch_is_atomic_when_one_message_conflicts(daemon: InProcessDaemon) -> None:
    with daemon.client() as client:
        client.append("s", "user", "a", id="a")
        with pytest.raises(Conflict):
            client.append_many(
                "s",
                [
                    {"role": "user", "content": "b", "id": "b"},
                    {"role": "user", "content": "x", "id": "a"},
                ],
            )
        acks = client.append_many(
            "s",
            [{"role": "user", "content": "b", "id": "b"}, {"role": "assistant", "content": "c"}],
        )
        assert [a.seq for a in acks] == [2, 3]
        assert [m.content for m in client.history("s")] == ["a", "b", "c"]


def _append_until_stopped(
    socket: str, session: str, rnd: int, acked: list[str], stop: threading.Event
) -> None:
    with Client(socket, timeout=10) as client:
        i = 0
        while not stop.is_set():
            mid = f"{session}-r{rnd}-{i}"
            try:
                client.append(session, "user", f"message {i}", id=mid)
            except Exception:
                continue
            acked.append(mid)
            i += 1


@pytest.mark.slow
def test_acked_appends_survive_repeated_kill_9(daemon_process: DaemonProcess) -> None:
    daemon = daemon_process
    rng = random.Random(4)
    acked: dict[str, list[str]] = {f"k{i}": [] for i in range(8)}
    for rnd in range(4):
        stop = threading.Event()
        threads = [
            threading.Thread(
                target=_append_until_stopped, args=(str(daemon.socket), s, rnd, acked[s], stop)
            )
            for s in acked
        ]
        for t in threads:
            t.start()
        try:
            stop.wait(rng.uniform(0.3, 0.8))  # let them append for a random moment
            daemon.kill9()
            daemon.start()  # clients reconnect and retry their in-flight append
        finally:  # a daemon that does not come back fails the test; its clients must end
            stop.set()
            for t in threads:
                t.join()
    with daemon.client() as client:
        for session, ids in acked.items():
            stored = [m.id for m in whole_history(client, session)]
            assert len(ids) > 0
            missing = set(ids) - set(stored)
            assert not missing, f"{len(missing)} acked messages lost in {session}"
            assert [m for m in stored if m in set(ids)] == ids


def test_append_pipelined_behind_forget_lands_in_a_fresh_session(daemon: InProcessDaemon) -> None:
    """Requests queued behind a forget used to be failed as ``internal`` when its actor ended."""
    frames = [
        {"op": "append", "rid": 1, "session": "pf", "messages": [{"role": "user", "content": "a"}]},
        {"op": "forget", "rid": 2, "session": "pf"},
        {"op": "append", "rid": 3, "session": "pf", "messages": [{"role": "user", "content": "b"}]},
        {"op": "history", "rid": 4, "session": "pf"},
    ]
    with socket.socket(socket.AF_UNIX, socket.SOCK_STREAM) as sock:
        sock.settimeout(30)
        sock.connect(str(daemon.socket))
        sock.sendall(b"".join(frame(msgspec.msgpack.encode(f)) for f in frames))
        sock.shutdown(socket.SHUT_WR)
        reader, replies = FrameReader(1 << 24), {}
        while data := sock.recv(65536):
            for body in reader.feed(data):
                reply = msgspec.msgpack.decode(body)
                replies[reply["rid"]] = reply
    assert [replies[r]["op"] for r in (1, 2, 3, 4)] == ["append", "forget", "append", "history"]
    assert replies[3]["acks"][0]["seq"] == 1
    assert [m["content"] for m in replies[4]["messages"]] == ["b"]


def test_append_naming_another_scope_than_the_sessions_conflicts(daemon: InProcessDaemon) -> None:
    with daemon.client() as client:
        client.append("scoped", "user", "first", scope="user/a")
        with pytest.raises(Conflict, match="'user/a'"):
            client.append("scoped", "user", "second", scope="user/b")
        client.append("scoped", "user", "third")  # no scope: the session's own
        client.append("scoped", "user", "fourth", scope="user/a")
        assert [m.content for m in client.history("scoped")] == ["first", "third", "fourth"]
        assert [s.scope for s in client.sessions() if s.name == "scoped"] == ["user/a"]
