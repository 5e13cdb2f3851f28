"""Protocol fuzzing (invariant 8): random interleavings of hostile and honest connections.

A generated schedule drives 3-6 raw connections, each sending valid,
invalid and fatal frames, some pipelined without reading, some cut in the
middle of a frame or closed with replies unread, while a bystander appends
between the steps and waits for each ack. Every connection must get what
``check_conversation`` demands, every bystander ack must come back, and
every acked message must be in the bystander's history afterwards.

One daemon serves the module; ``REVERIE_FUZZ_SCALE`` and ``REVERIE_FUZZ_SEED``
as in ``test_protocol_fuzz``.
"""

from __future__ import annotations

import itertools
from collections.abc import Iterator

import pytest
from hypothesis import given
from hypothesis import strategies as st

from reverie.daemon import protocol as p
from tests.daemon_process import DaemonProcess
from tests.fuzz_strategies import (
    encode,
)
from tests.protocol_fuzz import (
    RawConn,
    assert_healthy,
    check_conversation,
    frame,
    fuzz_settings,
    maybe_seeded,
)

_names = itertools.count()  # examples (and shrinks) never share a bystander session


@pytest.fixture(scope="module")
def fuzzed(tmp_path_factory: pytest.TempPathFactory) -> Iterator[DaemonProcess]:
    daemon = DaemonProcess(tmp_path_factory.mktemp("fuzz-interleave")).start()
    yield daemon
    daemon.stop()


def _valid(conn: int, kind: int, rid: int) -> dict:
    session = f"c{conn}"
    return [
        {"op": "append", "session": session, "messages": [{"role": "user", "content": "hi"}]},
        {"op": "history", "session": session},
        {"op": "status"},
        {"op": "wm_set", "scope": session, "key": "k", "value": [rid]},
        {"op": "hello"},
        {"op": "sessions", "limit": 5},
    ][kind] | {"rid": rid}


def _invalid(kind: int, rid: int) -> dict:
    return [
        {"op": "launch", "rid": rid},
        {"op": "append", "rid": rid, "session": "x", "messages": "no"},
        {"op": "history", "rid": rid, "session": "", "limit": 0},
        {"op": [rid], "rid": rid},
    ][kind]


FATAL = [b"\x00\x00\x00\x03abc", frame(encode([1, 2])), b"\xff\xff\xff\xff"]

steps = st.one_of(
    st.tuples(st.just("bystander"), st.integers(0, 5), st.integers(0, 0)),
    st.tuples(st.just("valid"), st.integers(0, 5), st.integers(0, 5)),
    st.tuples(st.just("invalid"), st.integers(0, 5), st.integers(0, 3)),
    st.tuples(st.just("fatal"), st.integers(0, 5), st.integers(0, 2)),
    st.tuples(st.just("partial"), st.integers(0, 5), st.integers(0, 5)),
    st.tuples(st.just("read"), st.integers(0, 5), st.integers(0, 0)),
    st.tuples(st.just("close"), st.integers(0, 5), st.integers(0, 0)),
)


class _Peer:
    """One scheduled connection: what it sent, what it got, and whether it may still talk."""

    def __init__(self, daemon: DaemonProcess) -> None:
        self.conn = RawConn(daemon.socket)
        self.sent: list[bytes] = []
        self.got: list[p.Reply] = []
        self.rest = b""  # the unsent tail of a frame cut in the middle
        self.dead = False  # sent a fatal frame: the daemon closes it
        self.closed = False

    def send(self, data: bytes) -> None:
        if self.rest:
            data, self.rest = self.rest + data, b""
        self.sent.append(data)
        self.conn.send(data)


@fuzz_settings(40)
@maybe_seeded
@given(connections=st.integers(3, 6), schedule=st.lists(steps, min_size=1, max_size=40))
def test_hostile_interleavings_leave_a_bystander_untouched(
    fuzzed: DaemonProcess, connections: int, schedule: list[tuple[str, int, int]]
) -> None:
    session = f"bystander-{next(_names)}"
    bystander = RawConn(fuzzed.socket)
    peers = [_Peer(fuzzed) for _ in range(connections)]
    acked: list[tuple[int, str]] = []
    rid = itertools.count(1)
    try:
        for action, who, kind in schedule:
            peer = peers[who % connections]
            if action == "bystander":
                r = next(rid)
                bystander.send(
                    frame(
                        encode(
                            {
                                "op": "append",
                                "rid": r,
                                "session": session,
                                "messages": [{"role": "user", "content": f"m{r}"}],
                            }
                        )
                    )
                )
                ack = bystander.next_reply()
                assert isinstance(ack, p.AppendReply), ack
                assert ack.rid == r
                acked += [(a.seq, a.id) for a in ack.acks]
                continue
            if peer.closed or peer.dead:
                continue
            if action == "valid":
                peer.send(frame(encode(_valid(who, kind, next(rid)))))
            elif action == "invalid":
                peer.send(frame(encode(_invalid(kind, next(rid)))))
            elif action == "fatal":
                peer.send(FATAL[kind])
                peer.dead = True
            elif action == "partial" and not peer.rest:
                whole = frame(encode(_valid(who, kind, next(rid))))
                cut = 1 + kind * (len(whole) - 2) // 5
                peer.send(whole[:cut])
                peer.rest = whole[cut:]
            elif action == "read" and not peer.rest:
                frames = sum(1 for _ in _whole_frames(b"".join(peer.sent)))
                while len(peer.got) < frames:
                    reply = peer.conn.next_reply()
                    assert reply is not None, "daemon closed a connection that sent no bad frame"
                    peer.got.append(reply)
            elif action == "close":
                peer.conn.close()
                peer.closed = True
        for peer in peers:
            if peer.closed:
                continue
            if peer.rest and not peer.dead:
                peer.send(b"")
            peer.got += peer.conn.drain()
            check_conversation(peer.sent, peer.got)
        with fuzzed.client() as client:
            stored = [(m.seq, m.id) for m in client.history(session, limit=1000)]
        assert stored == acked
    finally:
        bystander.close()
        for peer in peers:
            peer.conn.close()


def _whole_frames(stream: bytes) -> Iterator[bytes]:
    at = 0
    while at + 4 <= len(stream):
        size = int.from_bytes(stream[at : at + 4], "big")
        if at + 4 + size > len(stream):
            return
        yield stream[at + 4 : at + 4 + size]
        at += 4 + size


def test_daemon_survived_the_interleavings(fuzzed: DaemonProcess) -> None:
    """Runs last in the module: alive, answering, no traceback or internal error logged."""
    assert_healthy(fuzzed)
