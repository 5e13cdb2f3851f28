"""The socket server: reads frames, routes requests, writes replies.

Each connection has a reader task and a writer task (a client that
pipelines without reading and a server that only writes would deadlock once
both socket buffers fill). The writer coalesces every reply that is ready
into one ``send_all``. A reply that finds the writer idle and nothing queued
before it is sent at once, from where it became ready, without waking the
writer (a closed-loop client has one request in flight: waking a task per
reply was a quarter of the event loop's work per append); what the socket
does not take then goes to the writer, which sends it before anything
else. Session requests go to the session's actor, so one session's replies
keep request order while other sessions proceed; other requests run as
tasks of the connection.

Limits, each with a typed error: frame size (``frame_too_large``, then the
connection closes), requests in flight per connection (``busy``),
connections in total (``busy``, then close; at most what the open-file
limit leaves room for), stream leases per connection
(``busy``; a connection's leases end when it closes). A malformed frame
(``bad_frame``) closes only its own connection.

Stalled clients are dropped after ``daemon.stall_timeout``: one that leaves
a reply unread that long (its socket buffer full: a client that pipelines
and never reads), or one that started a frame and did not finish it in that
time (one watcher sweeps the connections a few times per timeout). Each is
logged and counted (``connections_stalled``). An unexpected error in one
connection's reader or writer closes that connection only (logged with its
traceback, counted as ``connection_failures``). Memory per connection stays
bounded meanwhile, in replies and in bytes: the reader takes no request
while the connection's unread replies (and those its requests in flight may
add) reach ``daemon.max_unread_bytes``, so back-pressure reaches the
client's sends; past ``daemon.max_unread_bytes_total`` over all
connections, the reader of every connection that holds unread bytes (or
has a request in flight) waits the same way, and the others are served.
When a connection that held that much goes, its bytes are
given back to the system (``store/heap.py``). A connection that is
merely idle between frames is never dropped.

The per-connection state, its reply queue and the sending of replies are
``connection.py``'s.
"""

from __future__ import annotations

import contextlib
import logging
import math
import os

import trio

from reverie.config import BadFrame, Busy, Config, FrameTooLarge, Throttle, Unauthorized
from reverie.store import release_free_memory

from . import protocol as p
from .connection import Connection, Ledger, error_reply
from .ops import Handlers
from .ops.memory import connection_leases
from .protocol.framing import FrameReader, frame
from .service import systemd
from .service.open_files import connection_room

__all__ = ["Server"]

log = logging.getLogger(__name__)
#: The most bytes one read takes from a client: the size of the server's one read buffer.
_RECV_BYTES = 256 * 1024
#: The writer joins ready replies into one send up to about this many bytes (a copy each).
_SEND_BYTES = 256 * 1024
#: At most one "accept failed" warning per this many seconds (out of descriptors, it repeats).
_ACCEPT_WARN_EVERY = 10.0


class Server:
    """Serves the protocol on listeners; ``handlers`` does the work."""

    def __init__(self, config: Config, handlers: Handlers, ledger: Ledger) -> None:
        self.cfg = config.daemon
        self.handlers = handlers
        #: The connections open and their reply bytes not yet written (``status`` reads it).
        self.ledger = ledger
        self._accepting = True
        self._open: set[Connection] = set()  # served (not refused), for the stall watch
        # Every connection's reads land here, then are copied into its frame reader before
        # the reader awaits again (one event loop: no two reads overlap). A fresh buffer
        # per read was a mapping of its own, mapped and unmapped per request, since the
        # allocator's mmap threshold is fixed under _RECV_BYTES (store/heap.py).
        self._recv_buffer = memoryview(bytearray(_RECV_BYTES))
        self._room = connection_room()  # what the open-file limit leaves for connections

    def stop_accepting(self) -> None:
        """New connections are refused from now on (graceful stop)."""
        self._accepting = False

    async def serve(
        self,
        listeners: list[trio.SocketListener],
        *,
        task_status: trio.TaskStatus[None] = trio.TASK_STATUS_IGNORED,
    ) -> None:
        """Accept connections until cancelled; ``started`` once listening."""
        async with trio.open_nursery() as nursery:
            nursery.start_soon(self._watch_stalls)
            for listener in listeners:
                nursery.start_soon(self._accept_loop, listener, nursery)
            task_status.started()

    async def _watch_stalls(self) -> None:
        """Drop connections that waited on their client ``stall_timeout``: one timer for all.

        A deadline on every receive and send (a cancel scope each) cost the
        append path about a tenth of the event loop's time; sweeping the open
        connections a few times per timeout costs nothing per request. A
        stalled connection is dropped within a quarter of the timeout (at
        most a second) after its timeout. A timeout of 0 turns the watch off.
        """
        while True:
            limit = self.cfg.stall_timeout  # read each time: SIGHUP may change it
            await trio.sleep(min(1.0, limit / 4) if limit > 0 else 1.0)
            if limit <= 0:
                continue
            now = trio.current_time()
            for conn in list(self._open):
                why = conn.stall(now, limit)
                if why is not None:
                    self._stalled(why)
                    conn.scope.cancel()

    async def _accept_loop(self, listener: trio.SocketListener, nursery: trio.Nursery) -> None:
        throttle = Throttle(_ACCEPT_WARN_EVERY, trio.current_time)
        async with listener:
            while True:
                try:
                    stream = await listener.accept()
                except OSError as exc:  # EMFILE and friends: log (not every time), back off, go on
                    held = throttle.due(exc.errno)
                    if held is not None:
                        log.warning(
                            "accept failed: %s; retrying (%d more since the last)", exc, held
                        )
                    await trio.sleep(0.1)
                    continue
                nursery.start_soon(self._connection, stream)

    async def _connection(self, stream: trio.SocketStream) -> None:
        self.ledger.open += 1
        conn = Connection(stream, self.cfg.max_in_flight, self.handlers.count_error, self.ledger)
        leases: set[str] = set()
        try:
            async with stream:
                refusal = self._refusal(stream)
                if refusal is not None:
                    self.handlers.count_error(refusal.code)
                    await _send_and_close(stream, refusal)
                    return
                self._open.add(conn)
                connection_leases.set(leases)  # this task's context: its requests inherit it
                with conn.scope:
                    async with trio.open_nursery() as nursery:
                        nursery.start_soon(self._writer, conn)
                        await self._reader(conn, nursery)
                        conn.finish()
        except* (trio.BrokenResourceError, trio.ClosedResourceError):
            pass  # the peer went away; from the nursery these come wrapped in a group
        except* Exception as group:  # a bug in one connection's path must not stop the daemon
            self.handlers.services.counters["connection_failures"] += 1
            log.error("a connection failed; closing only it", exc_info=group)
        finally:
            self._open.discard(conn)
            conn.out_recv.close()  # drops the replies still queued
            conn.drop()
            if conn.peak >= self.cfg.max_unread_bytes:
                release_free_memory()
            self.ledger.open -= 1
            self.handlers.connection_closed(leases)

    def _refusal(self, stream: trio.SocketStream) -> p.ErrorReply | None:
        if not self._accepting:
            return p.ErrorReply(
                rid=0, code=Busy.code, message="daemon is stopping; reconnect shortly"
            )
        room = self._room
        if room is not None and room < self.cfg.max_connections and self.ledger.open > room:
            return p.ErrorReply(
                rid=0,
                code=Busy.code,
                message=(
                    f"too many connections (the open-file limit leaves room for {room}); "
                    "retry later or raise LimitNOFILE (ulimit -n)"
                ),
            )
        if self.ledger.open > self.cfg.max_connections:
            return p.ErrorReply(
                rid=0,
                code=Busy.code,
                message=f"too many connections (limit {self.cfg.max_connections}); retry later or raise daemon.max_connections",
            )
        _pid, uid, gid = systemd.peer_credentials(stream.socket)
        if systemd.check_peer(
            uid, gid, allowed_uids=self.cfg.allowed_uids, allowed_gids=self.cfg.allowed_gids
        ):
            return None
        return p.ErrorReply(
            rid=0,
            code=Unauthorized.code,
            message=f"uid {uid} / gid {gid} may not use this socket; ask the operator to add it to daemon.allowed_uids",
        )

    def _stalled(self, why: str) -> None:
        self.handlers.services.counters["connections_stalled"] += 1
        log.warning("dropping a stalled connection: %s", why)

    async def _reader(self, conn: Connection, nursery: trio.Nursery) -> None:
        reader = FrameReader(self.cfg.max_frame_bytes)
        frame_started = math.inf  # when the unfinished frame's first bytes came
        while True:
            conn.reading_since = frame_started
            data = await _receive(conn.stream.socket, self._recv_buffer)
            conn.reading_since = math.inf
            if not data:
                if reader.pending:
                    log.info(
                        "connection closed in the middle of a frame (%d bytes dropped)",
                        reader.pending,
                    )
                return
            try:
                bodies = reader.feed(data)
            except FrameTooLarge as exc:
                await conn.answer(error_reply(0, exc))
                return
            for body in bodies:
                if not await self._dispatch(conn, body, nursery):
                    return
            # The clock starts once we wait for the rest (not while back-pressure held us).
            if not reader.pending:
                frame_started = math.inf
            elif bodies or frame_started == math.inf:
                frame_started = trio.current_time()

    async def _dispatch(self, conn: Connection, body: bytes, nursery: trio.Nursery) -> bool:
        """Route one frame; False when the connection must close."""
        try:
            request = p.decode_request(body)
        except p.UNDECODABLE as exc:
            rid, error = p.why_undecodable(body, exc)
            await conn.answer(error_reply(rid, error))
            return not isinstance(error, BadFrame)
        limit, total = self.cfg.max_unread_bytes, self.cfg.max_unread_bytes_total
        if not conn.may_take(limit, total):
            await conn.wait_for_room(limit, total)
        if conn.in_flight >= min(self.cfg.max_in_flight, conn.max_in_flight):
            await conn.answer(
                error_reply(
                    request.rid,
                    Busy(
                        f"more than {self.cfg.max_in_flight} requests in flight on this connection; read replies before sending more"
                    ),
                )
            )
            return True
        conn.in_flight += 1
        await self.handlers.dispatch(request, conn.replier, nursery)
        return True

    async def _writer(self, conn: Connection) -> None:
        """Send queued replies in order, joined up to ``_SEND_BYTES`` a send.

        The cap keeps the join's copy small: joining all of a slow client's
        queue doubled what it held.
        """
        async for first in conn.out_recv:
            conn.writing = True
            taken, size = [first], len(first.data)
            while size < _SEND_BYTES:
                try:
                    item = conn.out_recv.receive_nowait()
                except (trio.WouldBlock, trio.EndOfChannel):
                    break
                taken.append(item)
                size += len(item.data)
            conn.queued -= len(taken)
            for item in taken:
                conn.taken(item.own)
            conn.unsent, conn.sending_since = len(taken), trio.current_time()
            await conn.stream.send_all(b"".join(item.data for item in taken))
            conn.sending_since = math.inf
            conn.sent(size)
            conn.writing = False
            if any(item.closes for item in taken):
                await conn.stream.aclose()
                return


async def _receive(sock: trio.socket.SocketType, buffer: memoryview) -> memoryview:
    """The next bytes from the client, read into ``buffer`` (empty once it is gone).

    What is returned is a view of ``buffer``, valid until the caller awaits.
    Waits for the socket to be readable first, then reads: a closed-loop
    client sends its next request only after our reply, so reading first
    (as ``receive_some`` does) failed with EAGAIN once per request.
    """
    while True:
        await trio.lowlevel.wait_readable(sock)
        try:
            return buffer[: os.readv(sock.fileno(), [buffer])]
        except BlockingIOError:
            continue  # readable came and went (another reader cannot exist: a spurious wake)
        except ConnectionError:
            return buffer[:0]  # reset by the peer: like an end of stream


async def _send_and_close(stream: trio.SocketStream, reply: p.ErrorReply) -> None:
    with contextlib.suppress(trio.BrokenResourceError, trio.ClosedResourceError):
        await stream.send_all(frame(p.encode(reply)))
