"""Replies a client leaves unread are bounded in bytes, per connection and in total.

Slots alone did not bound them: 256 replies in flight of a few MiB each
are a gigabyte per connection (issue 26: ten such clients took the daemon
from 515 MB to 4.4 GB). Clients here pipeline ``history`` pages of about
4 MB and never read; the daemon's memory is read from ``/proc``.
"""

from __future__ import annotations

import socket

from reverie.daemon import protocol as p
from reverie.daemon.protocol.framing import FrameReader
from tests.checks import poll
from tests.daemon_process import DaemonProcess

from .support import CONTENT, PAGE, big_session, hog, peak_rss_kib, rss_kib, unread_by_peer

HOGS = 2
REQUESTS = 100  # per hog: unbounded, 2 x 100 x 4 MB were held
MIB = 1024


def _replies(sock: socket.socket, n: int, page: int = PAGE) -> list[p.HistoryReply]:
    reader = FrameReader(1 << 26)
    replies: list[p.HistoryReply] = []
    sock.settimeout(60)
    while len(replies) < n:
        data = sock.recv(1 << 20)
        assert data, f"closed after {len(replies)} of {n} replies"
        for body in reader.feed(data):
            reply = p.decode_reply(body)
            assert isinstance(reply, p.HistoryReply), reply
            assert len(reply.messages) == page
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


SLOW = 10  # connections that never read
SMALL_PAGE = 50  # messages of 20 KB: a reply of about 1 MB
TOTAL = 4 << 20  # daemon.max_unread_bytes_total in the test below


def test_past_the_total_bound_only_the_connections_that_hold_the_bytes_wait(
    make_daemon,
) -> None:
    """Issue 48: ten clients that never read filled the total, then a client that reads got
    ``busy`` on every append. The bound throttles the connections that hold the bytes."""
    daemon: DaemonProcess = make_daemon(
        config=(
            "[daemon]\nstall_timeout = 0\nmax_unread_bytes = 1048576\n"
            f"max_unread_bytes_total = {TOTAL}\n[index]\nenabled = false\n"
        )
    )
    big_session(daemon)
    hogs = [hog(daemon, 2, page=SMALL_PAGE) for _ in range(SLOW)]
    try:
        with daemon.client() as client:

            def unread() -> int:
                client.history("big", limit=1)  # answered after every page taken before it
                return client.status().process.unread_reply_bytes

            poll(lambda: unread() >= TOTAL, what="the slow connections holding the total")
            acks = [client.append("reader", "user", f"turn {i}") for i in range(100)]
            assert [m.id for m in client.history("reader")] == [a.id for a in acks]
            assert unread() >= TOTAL, "the slow connections held their bytes throughout"
            assert client.status().errors.get("busy", 0) == 0
            # Past the total, a connection that never reads adds one reply at most.
            before = unread()
            late = hog(daemon, 4, page=SMALL_PAGE)
            hogs.append(late)
            poll(lambda: unread_by_peer(late) == 0, what="the daemon reading the late requests")
            added = unread() - before
            assert added < 2 * SMALL_PAGE * len(CONTENT), f"{added} bytes added past the total"
        # Each slow connection that reads at last gets every reply, in order: held back,
        # never dropped or refused.
        for sock in hogs[:SLOW]:
            assert [r.rid for r in _replies(sock, 2, SMALL_PAGE)] == [1, 2]
        assert [r.rid for r in _replies(late, 4, SMALL_PAGE)] == [1, 2, 3, 4]
    finally:
        for sock in hogs:
            sock.close()
