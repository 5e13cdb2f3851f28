"""Clients that stop reading, or stop in the middle of a frame.

A host that pipelines requests and never reads its replies must cost the
daemon a bounded amount of memory (back-pressure reaches the client: its
sends stall), must not slow other connections down, gets ``busy`` past
``max_in_flight``, and is dropped once a reply has waited ``stall_timeout``
for it. A client that sends half a frame and stalls is dropped after the same
timeout; a connection that is merely idle between frames is never dropped.
"""

from __future__ import annotations

import socket
import struct
import time
from collections.abc import Iterator

import pytest

from reverie.daemon import protocol as p
from reverie.daemon.protocol.framing import FrameReader, frame
from tests.checks import poll, read_reply
from tests.daemon_process import DaemonProcess
from tests.fakellm import hold

from .support import rss_kib

MAX_IN_FLIGHT = 8
STALL_TIMEOUT = 2.0
BIG = "x" * 4096


@pytest.fixture(scope="module")
def daemon(tmp_path_factory: pytest.TempPathFactory) -> Iterator[DaemonProcess]:
    config = (
        f"[daemon]\nmax_in_flight = {MAX_IN_FLIGHT}\nstall_timeout = {STALL_TIMEOUT}\n"
        "[index]\nenabled = false\n"
    )
    daemon = DaemonProcess(tmp_path_factory.mktemp("slow-clients"), config=config)
    daemon.start()
    with daemon.client() as client:  # a session whose context is a ~400 KB reply
        client.append_many("big", [{"role": "user", "content": BIG} for _ in range(100)])
    try:
        yield daemon
        assert daemon.proc is not None and daemon.proc.poll() is None, "the daemon died"
    finally:
        daemon.stop()


def _connect(daemon: DaemonProcess) -> socket.socket:
    sock = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
    sock.connect(str(daemon.socket))
    return sock


def _served(daemon: DaemonProcess, n: int) -> None:
    """A well-behaved host on its own connection: each append acked, then in its context.

    A refusal (``busy``) would raise; how long they take is ``bench.unread``'s to measure.
    """
    with daemon.client() as client:
        for i in range(n):
            ack = client.append("polite", "user", f"hello {i}")
            assert client.context("polite", max_tokens=0).messages[-1].id == ack.id


def _read_all(sock: socket.socket, timeout: float) -> tuple[list[p.Reply], bool]:
    """Every reply the daemon still sends, and whether it then closed the connection."""
    sock.settimeout(timeout)
    reader = FrameReader(1 << 26)
    replies: list[p.Reply] = []
    try:
        while data := sock.recv(1 << 20):
            replies += [p.decode_reply(body) for body in reader.feed(data)]
    except TimeoutError:
        return replies, False
    except ConnectionResetError:
        pass
    return replies, True


def test_pipelining_client_that_never_reads_is_bounded_and_dropped(
    daemon: DaemonProcess,
) -> None:
    assert daemon.proc is not None
    pid = daemon.proc.pid
    rss_before = rss_kib(pid)
    request = frame(p.encode(p.Context(rid=1, session="big")))
    slow = _connect(daemon)
    slow.setblocking(False)
    sent = 0
    stalled_since: float | None = None
    deadline = time.monotonic() + 30
    # Push requests (each asks for ~400 KB) until the daemon stops taking them for a while.
    while stalled_since is None or time.monotonic() - stalled_since < 0.5:
        assert time.monotonic() < deadline, f"the daemon kept reading: {sent} bytes taken"
        try:
            sent += slow.send(request * 64)
            stalled_since = None
        except BlockingIOError:
            stalled_since = stalled_since or time.monotonic()
            time.sleep(0.01)
        except (BrokenPipeError, ConnectionResetError):
            break  # already dropped for stalling: also bounded
    # Unbounded buffering would hold every reply: sent/len(request) x 400 KB.
    asked_mib = sent // len(request) * 400 // 1024
    grown_mib = (rss_kib(pid) - rss_before) // 1024
    assert grown_mib < 64, f"RSS grew {grown_mib} MiB for {asked_mib} MiB of unread replies"
    # Other hosts are served meanwhile, never refused (how fast: bench.unread).
    _served(daemon, 10)
    # Still not reading: the daemon gives up on the connection after stall_timeout.
    with daemon.client() as client:
        stalled = client.status().counters.get("connections_stalled", 0)
        poll(
            lambda: client.status().counters.get("connections_stalled", 0) > stalled,
            timeout=STALL_TIMEOUT * 10,
            what="the unread connection dropped",
        )
        assert client.context("big").tokens > 0, "the daemon still serves the session"
    # What was already in the socket buffers is readable, then the connection is closed;
    # past max_in_flight the requests got busy.
    replies, closed = _read_all(slow, timeout=STALL_TIMEOUT * 5)
    slow.close()
    assert closed, "the daemon kept a connection that never read its replies"
    codes = {r.code for r in replies if isinstance(r, p.ErrorReply)}
    assert "busy" in codes


def test_half_a_frame_then_silence_is_dropped_but_idle_is_not(daemon: DaemonProcess) -> None:
    idle = _connect(daemon)  # between frames: a host waiting for its user, never dropped
    half = _connect(daemon)
    body = p.encode(p.Hello(rid=7))
    half.sendall(struct.pack(">I", len(body)) + body[:2])
    started = time.monotonic()
    _, closed = _read_all(half, timeout=STALL_TIMEOUT * 5)
    waited = time.monotonic() - started
    half.close()
    assert closed, "a connection stalled in the middle of a frame was kept"
    assert waited >= STALL_TIMEOUT * 0.9, f"dropped after {waited:.2f}s, before the timeout"
    # The idle connection outlived the stalled one and still works.
    idle.sendall(frame(p.encode(p.Hello(rid=8))))
    idle.settimeout(30)
    replies = read_reply(idle, what="the idle connection")
    idle.close()
    assert isinstance(replies, p.HelloReply)


def test_a_stall_timeout_of_zero_never_drops(make_daemon) -> None:
    daemon: DaemonProcess = make_daemon(
        config="[daemon]\nstall_timeout = 0\n[index]\nenabled = false\n"
    )
    half = _connect(daemon)
    body = p.encode(p.Hello(rid=9))
    half.sendall(struct.pack(">I", len(body)) + body[:2])
    time.sleep(2.5)  # the watch would have swept twice by now
    half.sendall(body[2:])
    half.settimeout(30)
    reply = read_reply(half)
    half.close()
    assert isinstance(reply, p.HelloReply) and reply.rid == 9
    with daemon.client() as client:
        assert client.status().counters.get("connections_stalled", 0) == 0


def test_a_late_reader_gets_every_reply_even_after_a_flood_of_busy(make_daemon, fake_llm) -> None:
    """Replies of accepted requests have reserved room in the reply queue.

    Four ``consolidate --wait`` requests stay in flight (the LLM holds the
    first job) while the client floods ``hello`` without reading: past
    ``max_in_flight`` each gets ``busy``, until socket buffers and the reply
    queue are full. Then the jobs finish. The queue used to be full of
    ``busy`` by then, and their replies were dropped: a client reading late
    waited forever for them.
    """
    config = (
        "[daemon]\nmax_in_flight = 4\n[index]\nenabled = false\n"
        "[consolidation]\nidle_after = 3600\nbudget_tokens = 10\ntarget_tokens = 1\n"
        f'[llm]\nbase_url = "{fake_llm.base_url}"\nmodel = "fake"\n'
    )
    daemon: DaemonProcess = make_daemon(config=config)
    fake_llm.script(hold())
    with daemon.client() as client:
        for s in range(4):
            client.append(f"late{s}", "user", "enough words to be over a budget of ten tokens")
            client.append(f"late{s}", "assistant", "and an answer with some more words in it")
    sock = _connect(daemon)
    waits = [p.Consolidate(rid=s + 1, session=f"late{s}", wait=True) for s in range(4)]
    sock.sendall(b"".join(frame(p.encode(r)) for r in waits))
    poll(lambda: fake_llm.in_flight == 1, what="the first job at the LLM")
    sent = 0
    flood = frame(p.encode(p.Hello(rid=1000)))
    sock.settimeout(0.5)
    try:
        while True:  # until back-pressure stops our sends: buffers and queue are full
            sock.sendall(flood)
            sent += 1
    except TimeoutError:
        pass
    fake_llm.release()
    with daemon.client() as client:
        poll(
            lambda: client.status().consolidation["default"].jobs.get("done", 0) == 4,
            what="the four jobs done",
        )
    replies, _ = _read_all_of(sock, 4 + sent)
    done = sorted(r.rid for r in replies if isinstance(r, p.ConsolidateReply))
    assert done == [1, 2, 3, 4], f"replies of accepted requests lost ({len(replies)} read)"
    assert all(r.code == "busy" for r in replies if isinstance(r, p.ErrorReply))
    sock.close()


def _read_all_of(sock: socket.socket, n: int) -> tuple[list[p.Reply], bool]:
    """Read until ``n`` replies came (or 20 s of silence): the daemon owes that many."""
    sock.settimeout(20)
    reader = FrameReader(1 << 26)
    replies: list[p.Reply] = []
    try:
        while len(replies) < n and (data := sock.recv(1 << 20)):
            replies += [p.decode_reply(body) for body in reader.feed(data)]
    except TimeoutError:
        return replies, False
    return replies, True
