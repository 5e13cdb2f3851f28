"""Per-connection and per-daemon limits: requests in flight and connections, each ``busy``."""

from __future__ import annotations

import resource
import select
import socket
import time
from collections.abc import Callable
from pathlib import Path

import pytest

from reverie.config import Busy, InvalidArgument
from reverie.daemon import protocol as p
from reverie.daemon.protocol.framing import FrameReader, frame
from reverie.daemon.service.open_files import OWN_FILES
from tests.checks import poll
from tests.daemon_process import DaemonProcess


def _connect(daemon: DaemonProcess) -> socket.socket:
    sock = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
    sock.settimeout(30)
    sock.connect(str(daemon.socket))
    return sock


def _served(daemon: DaemonProcess) -> socket.socket:
    """A connection the daemon serves (a closed one may still count for a moment: retry)."""
    deadline = time.monotonic() + 30
    while True:
        sock = _connect(daemon)
        try:
            sock.sendall(frame(p.encode(p.Hello(rid=1))))
            if isinstance(_replies(sock, 1)[0], p.HelloReply):
                return sock
        except OSError:
            pass
        sock.close()
        assert time.monotonic() < deadline, "no connection slot became free"
        time.sleep(0.02)


def _replies(sock: socket.socket, n: int) -> list[p.Reply]:
    reader = FrameReader(1 << 24)
    replies: list[p.Reply] = []
    while len(replies) < n:
        data = sock.recv(1 << 16)
        assert data, f"connection closed after {len(replies)} of {n} replies"
        replies += [p.decode_reply(body) for body in reader.feed(data)]
    return replies


def test_more_requests_in_flight_than_allowed_get_busy(make_daemon) -> None:
    daemon: DaemonProcess = make_daemon(config="[daemon]\nmax_in_flight = 4\n")
    n = 64
    with _connect(daemon) as sock:
        # One write: the server reads them all before any status (a thread hop) can answer.
        sock.sendall(b"".join(frame(p.encode(p.Status(rid=rid))) for rid in range(1, n + 1)))
        replies = _replies(sock, n)
        assert sorted(r.rid for r in replies) == list(range(1, n + 1)), "each request answered once"
        busy = [r for r in replies if isinstance(r, p.ErrorReply)]
        served = [r for r in replies if isinstance(r, p.StatusReply)]
        assert busy and all(r.code == "busy" and "in flight" in r.message for r in busy)
        assert {r.rid for r in served} >= {1, 2, 3, 4}, "the first four are within the limit"
        assert 5 in {r.rid for r in busy}
        # The connection stays usable once replies have been read.
        sock.sendall(frame(p.encode(p.Hello(rid=1000))))
        assert isinstance(_replies(sock, 1)[0], p.HelloReply)
    with daemon.client() as client:
        assert client.status().errors["busy"] == len(busy)


def test_more_connections_than_allowed_get_busy_then_close(make_daemon) -> None:
    daemon: DaemonProcess = make_daemon(config="[daemon]\nmax_connections = 2\n")
    held = [_served(daemon) for _ in range(2)]
    try:
        with _connect(daemon) as extra:  # refused on accept, before it sends anything
            reply = _replies(extra, 1)[0]
            assert isinstance(reply, p.ErrorReply)
            assert (reply.rid, reply.code) == (0, "busy")
            assert "too many connections" in reply.message
            assert extra.recv(1024) == b"", "the refused connection is closed"
    finally:
        for sock in held:
            sock.close()
    with _served(daemon) as sock:  # a slot is free again once the others have gone
        sock.sendall(frame(p.encode(p.Status(rid=2))))
        status = _replies(sock, 1)[0]
    assert isinstance(status, p.StatusReply)
    assert status.status.errors["busy"] >= 1


def test_refused_client_gets_busy_even_when_the_daemon_closed_first(make_daemon) -> None:
    """The refusal is sent, then the socket closed, before the client's request is read.

    A client that sends after that close gets EPIPE; it must still report the
    ``busy`` waiting in its receive buffer -- a typed "not applied, retry later" --
    rather than a lost connection, which would leave a non-idempotent call in doubt.
    """
    daemon: DaemonProcess = make_daemon(config="[daemon]\nmax_connections = 1\n")
    with _served(daemon), daemon.client() as client:
        sock = client._connect()
        poller = select.poll()
        poller.register(sock, select.POLLRDHUP)
        assert poller.poll(30_000), "the daemon neither refused nor closed the connection"
        with pytest.raises(Busy, match="too many connections"):
            client.stream_begin()  # not idempotent: never retried behind our back


def test_daemon_raises_its_open_file_limit_to_the_hard_limit(
    make_daemon: Callable[..., DaemonProcess],
) -> None:
    """A soft limit of 256 would refuse connections long before max_connections (1,024)."""
    soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    resource.setrlimit(resource.RLIMIT_NOFILE, (256, hard))  # the daemon inherits it
    try:
        daemon = make_daemon()
    finally:
        resource.setrlimit(resource.RLIMIT_NOFILE, (soft, hard))
    assert daemon.proc is not None
    limits = Path(f"/proc/{daemon.proc.pid}/limits").read_text()
    line = next(x for x in limits.splitlines() if x.startswith("Max open files"))
    expected = "unlimited" if hard == resource.RLIM_INFINITY else str(hard)
    assert line.split()[3] == expected  # "Max open files  <soft>  <hard>  files"


def test_connections_past_the_open_file_limit_get_busy_and_the_daemon_serves_on(
    make_daemon: Callable[..., DaemonProcess],
) -> None:
    """With descriptors for 8 connections beside its own files, the 9th gets ``busy`` at once."""
    daemon = make_daemon(open_files=OWN_FILES + 8)  # max_connections stays 1,024
    held = [_served(daemon) for _ in range(8)]
    try:
        with _connect(daemon) as extra:
            reply = _replies(extra, 1)[0]
            assert isinstance(reply, p.ErrorReply)
            assert reply.code == "busy"
            assert "open-file limit" in reply.message
    finally:
        for sock in held:
            sock.close()
    poll(lambda: _append_and_search(daemon))  # closed connections may count for a moment


def _append_and_search(daemon: DaemonProcess) -> bool:
    """Append and find it again; False when refused ``busy`` (nothing was applied)."""
    try:
        with daemon.client() as client:
            ack = client.append("s", "user", "the wifi password is zebra-orchid-42")
            assert client.search("zebra orchid", k=3, mode="text", everywhere=True)[
                0
            ].message_ids == [ack.id]
    except Busy:
        return False
    return True


def test_an_append_with_a_message_over_max_message_bytes_stores_nothing(make_daemon) -> None:
    daemon: DaemonProcess = make_daemon(config="[daemon]\nmax_message_bytes = 1000\n")
    at_limit = "é" * 500  # 1,000 bytes of UTF-8 in 500 characters: the limit counts bytes
    over = at_limit + "x"
    with daemon.client() as client:
        with pytest.raises(InvalidArgument) as refused:
            client.append_many(
                "big", [{"role": "user", "content": "hi"}, {"role": "user", "content": over}]
            )
        assert "message 2 of 2 has 1001 bytes" in refused.value.message
        assert "limit of 1000 (daemon.max_message_bytes)" in refused.value.message
        assert client.history("big") == [], "nothing of the refused append is stored"
        (ack,) = client.append_many("big", [{"role": "user", "content": at_limit}])
        assert [m.content for m in client.history("big")] == [at_limit], "the acked one is kept"
        assert ack.seq == 1
        assert client.hello().max_message_bytes == 1000
