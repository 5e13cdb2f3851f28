"""Shared pieces of the protocol fuzz tests: settings, raw connections, oracles, strategies.

The operations and their fields are read from the protocol's request union
with ``msgspec.inspect``, so an op added to ``Request`` is fuzzed without
touching the tests; the known error codes are read from the error tree.
"""

from __future__ import annotations

import os
import socket
import struct
import time
from collections.abc import Iterator
from contextlib import contextmanager, suppress
from pathlib import Path
from typing import Any

import msgspec
from hypothesis import HealthCheck, settings

from reverie.config import ReverieError
from reverie.daemon import protocol as p
from reverie.daemon.protocol.framing import FrameReader
from tests.daemon_process import DaemonProcess

MAX_FRAME = 1 << 20  # the daemon's default daemon.max_frame_bytes
REPLY_TIMEOUT = 60.0  # per socket operation; generous for a loaded machine
FATAL_CODES = frozenset({"bad_frame", "frame_too_large"})

# -- settings ------------------------------------------------------------------

_SCALE = float(os.environ.get("REVERIE_FUZZ_SCALE", "1"))
_SEED = os.environ.get("REVERIE_FUZZ_SEED")


def fuzz_settings(examples: int) -> settings:
    """Deterministic by default (``derandomize``); ``REVERIE_FUZZ_SEED`` explores elsewhere.

    ``REVERIE_FUZZ_SCALE`` multiplies every budget for long runs. The example
    database is off, so nothing is written into the repository.
    """
    return settings(
        max_examples=max(1, int(examples * _SCALE)),
        derandomize=_SEED is None,
        deadline=None,
        database=None,
        print_blob=True,
        suppress_health_check=[
            HealthCheck.too_slow,
            HealthCheck.data_too_large,
            HealthCheck.large_base_example,
            HealthCheck.filter_too_much,
        ],
    )


def maybe_seeded(test: Any) -> Any:
    """Apply ``REVERIE_FUZZ_SEED`` when set, so a run can be repeated exactly."""
    if _SEED is None:
        return test
    from hypothesis import seed

    return seed(int(_SEED))(test)


# -- the protocol, read programmatically ---------------------------------------


def request_types() -> list[msgspec.inspect.StructType]:
    """Every request Struct in the (flattened) request union."""
    info = msgspec.inspect.type_info(p.Request)
    assert isinstance(info, msgspec.inspect.UnionType)
    return [t for t in info.types if isinstance(t, msgspec.inspect.StructType)]


def reply_tags() -> frozenset[str]:
    info = msgspec.inspect.type_info(p.Reply)
    assert isinstance(info, msgspec.inspect.UnionType)
    return frozenset(t.tag for t in info.types if isinstance(t, msgspec.inspect.StructType))


def _tree(cls: type[ReverieError]) -> Iterator[type[ReverieError]]:
    yield cls
    for sub in cls.__subclasses__():
        yield from _tree(sub)


KNOWN_CODES = frozenset(cls.code for cls in _tree(ReverieError)) - {ReverieError.code}


# -- raw connections -----------------------------------------------------------


def frame(body: bytes) -> bytes:
    return struct.pack(">I", len(body)) + body


class RawConn:
    """A client socket that sends any bytes and decodes replies strictly as ``Reply``."""

    def __init__(self, path: Path) -> None:
        self.sock = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
        self.sock.settimeout(REPLY_TIMEOUT)
        self.sock.connect(str(path))
        self.reader = FrameReader(MAX_FRAME * 4)
        self.buffered: list[p.Reply] = []
        self.eof = False

    def send(self, data: bytes) -> bool:
        """False if the daemon already closed the connection (after a fatal frame)."""
        try:
            self.sock.sendall(data)
        except (BrokenPipeError, ConnectionResetError):
            return False
        return True

    def _fill(self) -> None:
        try:
            data = self.sock.recv(1 << 18)
        except ConnectionResetError:
            data = b""
        if not data:
            self.eof = True
            return
        self.buffered += [p.decode_reply(b) for b in self.reader.feed(data)]

    def next_reply(self) -> p.Reply | None:
        """The next reply, or None at EOF; a hang fails on the socket timeout."""
        while not self.buffered and not self.eof:
            self._fill()
        return self.buffered.pop(0) if self.buffered else None

    def drain(self) -> list[p.Reply]:
        """Half-close, then every reply until the daemon closes the connection."""
        with suppress(OSError):
            self.sock.shutdown(socket.SHUT_WR)
        while not self.eof:
            self._fill()
        assert self.reader.pending == 0, "the daemon sent a truncated reply frame"
        out, self.buffered = self.buffered, []
        return out

    def close(self) -> None:
        self.sock.close()


@contextmanager
def raw(daemon: DaemonProcess) -> Iterator[RawConn]:
    conn = RawConn(daemon.socket)
    try:
        yield conn
    finally:
        conn.close()


# -- oracles -------------------------------------------------------------------


def tag(reply: p.Reply) -> str:
    return type(reply).__struct_config__.tag  # type: ignore[return-value]


def check_error(reply: p.Reply) -> None:
    """An error reply carries a known, stable code, and never ``internal``."""
    assert isinstance(reply, p.ErrorReply)
    assert reply.code != "internal", f"unhandled exception in the daemon: {reply.message}"
    assert reply.code in KNOWN_CODES, f"unknown error code {reply.code!r}"


def check_answer(reply: p.Reply, op: object) -> None:
    """The reply to a decodable request: the op's own reply, or a typed error."""
    if isinstance(reply, p.ErrorReply):
        check_error(reply)
        assert reply.code not in FATAL_CODES, f"{reply.code} for a well-formed frame"
        if not (isinstance(op, str) and op in p.REQUEST_OPS):
            assert reply.code == "unknown_op"
    else:
        assert tag(reply) == op, f"a {tag(reply)} reply to a {op!r} request"


def expected_rid(body: bytes) -> int | None:
    """The rid the daemon must echo, or None if the frame is bad (not a map with an int rid)."""
    try:
        value = msgspec.msgpack.decode(body)
    except (msgspec.DecodeError, UnicodeDecodeError, RecursionError):
        return None
    if not isinstance(value, dict):
        return None
    rid = value.get("rid")
    return rid if isinstance(rid, int) and not isinstance(rid, bool) else None


def check_conversation(sent: list[bytes], replies: list[p.Reply]) -> None:
    """``sent`` is the byte stream of one connection, ``replies`` all it got until EOF.

    Frames are cut exactly as the daemon cuts them. Up to the first fatal
    frame (a bad body, or a prefix over the limit) each frame is answered
    exactly once with its rid. A fatal frame gets its error, last, with rid
    0; replies to the requests before it may be lost with the connection
    (the daemon checks a whole received chunk's prefixes before dispatching
    any of its frames), but are never mixed up.
    """
    expected: list[tuple[int, object]] = []
    fatal: set[str] = set()
    for body in _bodies(b"".join(sent), fatal):
        rid = expected_rid(body)
        if rid is None:
            fatal.add("bad_frame")
            break
        expected.append((rid, msgspec.msgpack.decode(body).get("op")))
    if fatal:
        fatals = [r for r in replies if isinstance(r, p.ErrorReply) and r.code in FATAL_CODES]
        assert len(fatals) == 1, f"{len(fatals)} fatal replies for a fatal frame ({fatal})"
        assert (fatals[0].rid, fatals[0].code in fatal) == (0, True), fatals[0]
        replies = [r for r in replies if r is not fatals[0]]
    else:
        assert len(replies) == len(expected), f"{len(expected)} requests, {len(replies)} replies"
    pending = list(expected)
    # Success replies first: their tag names the request, an error's does not.
    for reply in sorted(replies, key=lambda r: isinstance(r, p.ErrorReply)):
        candidates = [e for e in pending if e[0] == reply.rid]  # a client may reuse a rid
        assert candidates, f"reply with rid {reply.rid} that no request asked for"
        same = [e for e in candidates if isinstance(reply, p.ErrorReply) or e[1] == tag(reply)]
        match = (same or candidates)[0]
        pending.remove(match)
        check_answer(reply, match[1])


def _bodies(stream: bytes, fatal: set[str]) -> list[bytes]:
    """The whole frames in ``stream``; adds frame_too_large to ``fatal`` at an oversized prefix."""
    bodies, at = [], 0
    while at + 4 <= len(stream):
        (size,) = struct.unpack_from(">I", stream, at)
        if size > MAX_FRAME:
            fatal.add("frame_too_large")
            break
        if at + 4 + size > len(stream):
            break
        bodies.append(stream[at + 4 : at + 4 + size])
        at += 4 + size
    return bodies


def assert_healthy(daemon: DaemonProcess) -> None:
    """Alive, answering ``status``, and no unhandled exception anywhere in its log."""
    assert daemon.proc is not None
    assert daemon.proc.poll() is None, f"daemon died:\n{daemon.log()[-4000:]}"
    with daemon.client() as client:
        status = client.status()
    assert status.errors.get("internal", 0) == 0, status.errors
    bad = [
        line
        for line in daemon.log().splitlines()
        if "Traceback" in line or "unhandled" in line.lower() or "Task exception" in line
    ]
    assert bad == [], "\n".join(bad[:20]) + "\n" + daemon.log()[-4000:]


def wait_until(predicate: Any, timeout: float = REPLY_TIMEOUT) -> None:
    deadline = time.monotonic() + timeout
    while not predicate():
        assert time.monotonic() < deadline, "condition not reached before the deadline"
        time.sleep(0.01)
