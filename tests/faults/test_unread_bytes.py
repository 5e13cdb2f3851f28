"""Replies a client leaves unread are bounded in bytes, per connection and in total.

Slots alone did not bound them: 256 replies in flight of a few MiB each
are a gigabyte per connection (issue 26: ten such clients took the daemon
from 515 MB to 4.4 GB). Clients here pipeline ``history`` pages of about
4 MB and never read; the daemon's memory is read from ``/proc``.
"""

from __future__ import annotations

import socket

from reverie.daemon import protocol as p
from reverie.daemon.protocol.framing import FrameReader, frame
from tests.checks import poll, read_reply
from tests.daemon_process import DaemonProcess

from .support import PAGE, big_session, hog, peak_rss_kib, rss_kib, unread_by_peer

HOGS = 2
REQUESTS = 100  # per hog: unbounded, 2 x 100 x 4 MB were held
MIB = 1024


def _replies(sock: socket.socket, n: int) -> list[p.HistoryReply]:
    reader = FrameReader(1 << 26)
    replies: list[p.HistoryReply] = []
    sock.settimeout(60)
    while len(replies) < n:
        data = sock.recv(1 << 20)
        assert data, f"closed after {len(replies)} of {n} replies"
        for body in reader.feed(data):
            reply = p.decode_reply(body)
            assert isinstance(reply, p.HistoryReply), reply
            assert len(reply.messages) == PAGE
            replies.append(reply)
    return replies


def test_clients_that_never_read_big_replies_hold_a_bounded_amount(make_daemon) -> None:
    daemon: DaemonProcess = make_daemon(
        config="[daemon]\nstall_timeout = 0\n[index]\nenabled = false\n"
    )
    assert daemon.proc is not None
    pid = daemon.proc.pid
    big_session(daemon)
    before = rss_kib(pid)
    hogs = [hog(daemon, REQUESTS) for _ in range(HOGS)]
    try:
        poll(
            lambda: all(unread_by_peer(h) == 0 for h in hogs),
            what="the daemon reading every request sent",
        )
        with daemon.client() as client:
            # Another host is served meanwhile, and its page comes after every page the
            # daemon took from the hogs (one session's requests are answered in order).
            ack = client.append("polite", "user", "still served")
            assert client.history("big", limit=1)[0].seq == 1
            grown_mib = (peak_rss_kib(pid) - before) // MIB
            # Unbounded, the daemon held every page asked for: 2 x 100 x 4 MB.
            assert grown_mib < 256, f"RSS grew {grown_mib} MiB for clients that never read"
        # A hog that reads at last gets every page, in order: held back, never dropped.
        rids = [reply.rid for reply in _replies(hogs[0], REQUESTS)]
        assert rids == list(range(1, REQUESTS + 1))
    finally:
        for sock in hogs:
            sock.close()
    with daemon.client() as client:
        assert [m.id for m in client.history("polite")] == [ack.id], "the acked append is kept"


def test_past_the_total_bound_every_connection_gets_busy_until_the_reader_goes(
    make_daemon,
) -> None:
    daemon: DaemonProcess = make_daemon(
        config=(
            "[daemon]\nstall_timeout = 0\nmax_unread_bytes = 1048576\n"
            "max_unread_bytes_total = 2097152\n[index]\nenabled = false\n"
        )
    )
    big_session(daemon)

    def status_reply() -> p.Reply:
        with socket.socket(socket.AF_UNIX, socket.SOCK_STREAM) as sock:
            sock.settimeout(30)
            sock.connect(str(daemon.socket))
            sock.sendall(frame(p.encode(p.Status(rid=5))))
            return read_reply(sock)

    reader = hog(daemon, 4)  # one page (4 MB) already passes both bounds
    try:
        busy = poll(
            lambda: r if isinstance(r := status_reply(), p.ErrorReply) else None,
            what="busy from a daemon holding more than its total",
        )
        assert busy.code == "busy"
        assert "daemon.max_unread_bytes_total (2097152)" in busy.message
    finally:
        reader.close()
    # The closed connection's bytes are given back: others are served again.
    poll(lambda: isinstance(status_reply(), p.StatusReply), what="status served again")
