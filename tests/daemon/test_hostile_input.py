"""Bad bytes and bad values get typed errors; the daemon and other connections go on."""

from __future__ import annotations

import socket
import struct
import threading

import msgspec
import pytest

from reverie.config import InvalidArgument
from reverie.daemon.protocol.framing import FrameReader
from tests.daemon_process import DaemonProcess
from tests.inprocess import InProcessDaemon

pytestmark = pytest.mark.in_process


def _raw(daemon: DaemonProcess | InProcessDaemon) -> socket.socket:
    sock = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
    sock.settimeout(10)
    sock.connect(str(daemon.socket))
    return sock


def _replies(sock: socket.socket) -> list[dict]:
    """Every reply until the daemon closes the connection."""
    reader, out = FrameReader(1 << 24), []
    while data := sock.recv(65536):
        out += [msgspec.msgpack.decode(b) for b in reader.feed(data)]
    return out


def _frame(obj: object) -> bytes:
    body = msgspec.msgpack.encode(obj)
    return struct.pack(">I", len(body)) + body


def _one_reply(sock: socket.socket, obj: object) -> dict:
    sock.sendall(_frame(obj))
    reader = FrameReader(1 << 24)
    while True:
        data = sock.recv(65536)
        assert data, "daemon closed the connection instead of replying"
        frames = reader.feed(data)
        if frames:
            return msgspec.msgpack.decode(frames[0])


@pytest.fixture
def bystander(daemon: InProcessDaemon):
    """Another connection appending all along; it must see no error."""
    stop, errors, count = threading.Event(), [], [0]

    def run() -> None:
        with daemon.client() as client:
            while not stop.is_set():
                try:
                    client.append("bystander", "user", "still here")
                    count[0] += 1
                except Exception as exc:
                    errors.append(exc)

    thread = threading.Thread(target=run)
    thread.start()
    yield
    stop.set()
    thread.join()
    assert errors == []
    assert count[0] > 0


@pytest.mark.parametrize(
    ("payload", "code"),
    [
        (b"\x00\x00\x00\x05garbage!", "bad_frame"),
        (struct.pack(">I", 6) + msgspec.msgpack.encode([1, 2, 3]) + b"\x00\x00", "bad_frame"),
        (struct.pack(">I", 2**31), "frame_too_large"),
        # a msgpack str that is not UTF-8 (a CESU-8 surrogate): UnicodeDecodeError
        (struct.pack(">I", 9) + b"\x81\xa3rid\xa3\xed\xa0\x80", "bad_frame"),
        # 100k nested one-element arrays: RecursionError in the decoder
        (struct.pack(">I", 100_001) + b"\x91" * 100_000 + b"\xc0", "bad_frame"),
    ],
    ids=["garbage", "not-a-map", "2GiB-prefix", "not-utf8", "nested-100k"],
)
def test_malformed_frame_closes_only_its_connection(
    daemon: InProcessDaemon, bystander: None, payload: bytes, code: str
) -> None:
    with _raw(daemon) as sock:
        sock.sendall(payload)
        replies = _replies(sock)
    assert [r["code"] for r in replies] == [code]
    with daemon.client() as client:
        assert client.append("after", "user", "fine").seq == 1


def test_truncated_frame_then_close_loses_nothing_else(
    daemon: InProcessDaemon, bystander: None
) -> None:
    with _raw(daemon) as sock:
        sock.sendall(
            _frame(
                {
                    "op": "append",
                    "rid": 1,
                    "session": "t",
                    "messages": [{"role": "user", "content": "x"}],
                }
            )[:-3]
        )
    with daemon.client() as client:
        assert client.history("t") == []


def test_unknown_op_and_wrong_shape_keep_the_connection(
    daemon: InProcessDaemon, bystander: None
) -> None:
    with _raw(daemon) as sock:
        unknown = _one_reply(sock, {"op": "launch_missiles", "rid": 7})
        assert (unknown["rid"], unknown["code"]) == (7, "unknown_op")
        shape = _one_reply(
            sock, {"op": "append", "rid": 8, "session": "s", "messages": "not a list"}
        )
        assert (shape["rid"], shape["code"]) == (8, "invalid_argument")
        ok = _one_reply(
            sock,
            {
                "op": "append",
                "rid": 9,
                "session": "s",
                "messages": [{"role": "user", "content": "hi"}],
            },
        )
        assert ok["op"] == "append"
        assert ok["acks"][0]["seq"] == 1


@pytest.mark.parametrize(
    "name",
    ["", "a\x00b", "x" * 10_000, "tab\there", "line\nbreak"],
    ids=["empty", "nul", "10kB", "tab", "newline"],
)
def test_hostile_session_names_are_invalid_argument(
    daemon: InProcessDaemon, bystander: None, name: str
) -> None:
    with daemon.client() as client:
        with pytest.raises(InvalidArgument):
            client.append(name, "user", "x")
        with pytest.raises(InvalidArgument):
            client.history(name)


def test_path_like_and_unicode_names_are_just_names(daemon: InProcessDaemon) -> None:
    names = ["../x", "../../etc/passwd", "/abs", "cli:alice", "tg:123", "ünï ☃ 名前"]
    with daemon.client() as client:
        for name in names:
            client.append(name, "user", name)
        assert [m.content for n in names for m in client.history(n)] == names
    outside = {p.name for p in daemon.root.parent.iterdir()}
    assert "x" not in outside
    assert "etc" not in outside


def test_bad_values_are_invalid_argument(daemon: InProcessDaemon) -> None:
    with daemon.client() as client:
        with pytest.raises(InvalidArgument, match="role"):
            client.append("s", "wizard", "x")
        with pytest.raises(InvalidArgument, match="limit"):
            client.history("s", limit=0)
        with pytest.raises(InvalidArgument, match="id"):
            client.append("s", "user", "x", id="\x00")


@pytest.mark.parametrize(
    "op",
    [[1], {"a": 1}, 7, None, b"append", "x" * 200_000],
    ids=["list", "map", "int", "nil", "bin", "200kB-str"],
)
def test_op_of_any_type_is_unknown_op_and_the_daemon_goes_on(
    daemon: InProcessDaemon, bystander: None, op: object
) -> None:
    """An unhashable ``op`` once crashed the whole daemon from the error path.

    The reply echoes the op, so a huge one must not make the reply huge.
    """
    with _raw(daemon) as sock:
        reply = _one_reply(sock, {"op": op, "rid": 3})
        assert (reply["rid"], reply["code"]) == (3, "unknown_op")
        assert len(reply["message"]) < 2000
        assert _one_reply(sock, {"op": "hello", "rid": 4})["op"] == "hello"
    with daemon.client() as client:
        assert client.append("after", "user", "fine").seq == 1


def test_peer_closing_with_replies_unread_does_not_stop_the_daemon(
    daemon_process: DaemonProcess,
) -> None:
    daemon = daemon_process
    """The writer's broken pipe came out of the connection's nursery as an exception group,
    which the plain ``except`` missed, so the whole daemon stopped (found by the fuzzer)."""
    with daemon.client() as client:
        client.append_many("big", [{"role": "user", "content": "x" * 250_000} for _ in range(2)])
    history = _frame({"op": "history", "rid": 1, "session": "big"})
    with _raw(daemon) as sock:
        sock.sendall(history * 20)
        assert sock.recv(1)  # the writer is now blocked on a full socket buffer
    with daemon.client() as client:
        assert client.append("after", "user", "fine").seq == 1
    assert daemon.proc is not None and daemon.proc.poll() is None
    assert "Traceback" not in daemon.log()
