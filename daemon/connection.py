"""One client connection: its reply queue, its in-flight slots, and how a reply is sent.

No reply to an accepted request is ever dropped for want of room: a request
stays "in flight" until its reply is sent or the writer has taken it, the
queue has a slot for each request in flight, and the reader's own answers
(``busy``, bad frames) have ``OWN_REPLIES`` more slots of their own.

An outcome (data from an actor or a task, or the error that failed it) is
converted and encoded where it is ready, in the reply callback, and sent at
once or queued as bytes: the actor's data is let go at once, and what a
connection holds is counted exactly. A result that does not convert (a bug,
a damaged row) answers ``internal``, logged with its traceback, and its
request is answered and its slot freed like any other: conversion never
raises into the actor that answered.

Bytes a client has not read are bounded, since slots alone are not: 256
replies of a few MiB each are a gigabyte. ``held`` counts the bytes of a
connection's replies not yet written to its socket, and the ``Ledger`` the
same over all connections. The reader takes a request only while
``has_room``: what is held, plus a reply as large as the last one for each
request in flight, stays under the connection's limit. A reply is never
refused for its size, so one reply may pass the limit; then no request is
taken until the client has read enough.

Past the total over all connections, the connections that hold the bytes
are throttled, never the others: a connection takes a request only while
it holds nothing and has nothing in flight, so one that reads is served
(one request at a time) while one that does not read takes nothing more
until its client reads or the total falls. Answering ``busy`` to everyone
instead let ten clients that never read deny service to all the others.
Past the total, each connection can still add one reply.
"""

from __future__ import annotations

import logging
import math
import os
from collections.abc import Callable
from typing import NamedTuple

import trio

from reverie.config import BadFrame, FrameTooLarge, ReverieError

from . import protocol as p
from .ops.calls import Convert
from .protocol.framing import frame

__all__ = ["OWN_REPLIES", "Connection", "Ledger", "Wired", "error_reply"]

log = logging.getLogger(__name__)
#: Queue slots for the reader's own answers (``busy``, bad frames), beside one per request.
OWN_REPLIES = 16
#: Until a connection's first reply is measured, each request in flight is counted as
#: this share of its limit: a burst read in one go is cut short before any reply is known.
_FIRST_GUESS = 8


class Wired(NamedTuple):
    """An encoded reply (or what a direct send left of one) waiting for the writer."""

    data: bytes
    closes: bool  # the answer to a bad frame: the writer closes the connection after it
    own: bool  # one of the reader's own answers (its own slots), not a request's


class Ledger:
    """What the server owes over all connections: how many are open and the bytes of
    encoded replies waiting for their clients.

    The server counts; ``status`` reads it (``AdminOps`` is given it when
    made, before the server: nothing is wired after construction).
    ``waiting`` are the connections whose reader waits for room: bytes given
    back by any connection wake them to look again (the total may have fallen).
    """

    __slots__ = ("held", "open", "waiting")

    def __init__(self) -> None:
        self.held = 0
        self.open = 0
        self.waiting: set[Connection] = set()

    def release(self, size: int) -> None:
        self.held -= size
        for conn in self.waiting:
            conn.room.unpark_all()


class Connection:
    """One client connection's state: its outgoing queue, in-flight count and held bytes.

    ``in_flight`` counts requests whose reply is neither sent nor taken by
    the writer yet; the queue holds ``max_in_flight`` such replies plus
    ``OWN_REPLIES`` of the reader's own, so queuing a request's reply never
    finds it full. ``held`` counts the queued and unsent bytes; ``room``
    wakes a reader waiting for them to drain.
    """

    __slots__ = (
        "closing",
        "count_error",
        "estimate",
        "held",
        "in_flight",
        "ledger",
        "max_in_flight",
        "out_recv",
        "out_send",
        "own",
        "peak",
        "queued",
        "reading_since",
        "room",
        "scope",
        "sending_since",
        "stream",
        "unsent",
        "writing",
    )

    def __init__(
        self,
        stream: trio.SocketStream,
        max_in_flight: int,
        count_error: Callable[[str], None],
        ledger: Ledger,
    ) -> None:
        self.stream = stream
        self.count_error = count_error
        self.ledger = ledger
        self.queued = 0  # items on the queue the writer has not taken yet
        self.writing = False  # the writer is sending what it took
        self.in_flight = 0
        self.max_in_flight = max_in_flight  # the queue's size is fixed: a reload can only lower it
        self.held = 0  # bytes of replies queued or being sent
        self.peak = 0  # the most bytes held at once
        self.estimate: int | None = None  # the size of the last reply, once there was one
        self.room = trio.lowlevel.ParkingLot()
        self.closing = False
        self.scope = trio.CancelScope()  # cancelled to drop the connection
        # Watched by Server._watch_stalls; math.inf while not waiting on the client.
        self.reading_since = math.inf  # waiting for the rest of a started frame since
        self.sending_since = math.inf  # waiting for the client to take our replies since
        self.unsent = 0  # replies in the send that is waiting
        self.own = trio.Semaphore(OWN_REPLIES)
        self.out_send, self.out_recv = trio.open_memory_channel[Wired](max_in_flight + OWN_REPLIES)

    def finish(self) -> None:
        """No more requests will come: end the writer once in-flight replies are out."""
        self.closing = True
        if self.in_flight == 0:
            self.out_send.close()

    def has_room(self, limit: int) -> bool:
        """Whether one more request may be taken under ``limit`` bytes held.

        Each request in flight may still add a reply as large as the last
        one (a ``_FIRST_GUESS``-th of the limit before any was measured).
        With none in flight, a request is taken while anything under the
        limit is held, so a connection always makes progress.
        """
        estimate = limit // _FIRST_GUESS if self.estimate is None else self.estimate
        return self.held + self.in_flight * estimate < limit

    def idle(self) -> bool:
        """Whether this connection holds no reply bytes and has no request in flight."""
        return self.held == 0 and self.in_flight == 0

    def may_take(self, limit: int, total: int) -> bool:
        """Whether one more request may be taken: ``has_room(limit)`` and, while all
        connections together hold ``total`` bytes or more, this one is ``idle``."""
        return self.has_room(limit) and (self.ledger.held < total or self.idle())

    async def wait_for_room(self, limit: int, total: int) -> None:
        """Wait (reading nothing more from the client) until ``may_take(limit, total)``:
        the connections that hold the bytes wait, the others are served.

        Callers check ``may_take`` first: a request that finds room (most) then
        makes no coroutine.
        """
        while not self.may_take(limit, total):
            self.ledger.waiting.add(self)
            try:
                await self.room.park()
            finally:
                self.ledger.waiting.discard(self)

    async def answer(self, reply: p.Reply) -> None:
        """Queue one of the reader's own answers; waits while ``OWN_REPLIES`` are unsent."""
        await self.own.acquire()
        data = self._encode(reply)
        self.queued += 1
        self._hold(len(data))
        await self.out_send.send(Wired(data, _closes(reply), True))

    def taken(self, own: bool) -> None:
        """A reply left the queue (or never needed it): its slot is free again."""
        if own:
            self.own.release()
            return
        self.in_flight -= 1
        self._wake_reader()
        if self.closing and self.in_flight == 0:
            self.out_send.close()

    def sent(self, size: int) -> None:
        """The writer's send of ``size`` held bytes is done."""
        self._release(size)

    def drop(self) -> None:
        """The connection is gone: what it still held is no longer anyone's."""
        self._release(self.held)

    def stall(self, now: float, limit: float) -> str | None:
        """Why this connection has waited on its client ``limit`` seconds or more, if it has."""
        if now - self.sending_since >= limit:
            return (
                f"{self.unsent} replies unread for {limit:g}s (a client that sends without reading)"
            )
        if now - self.reading_since >= limit:
            return f"a frame was started and not finished within {limit:g}s"
        return None

    def replier(self, rid: int, convert: Convert) -> Callable[[object], None]:
        """The callback that answers this request with its outcome.

        It runs wherever the outcome is ready (inside an actor, in a task):
        it encodes the reply, then sends it at once if the writer is idle
        with nothing queued, else queues it for the writer. It never raises
        and never waits.
        """

        def reply(outcome: object) -> None:
            data = self._encode(_converted(rid, convert, outcome))
            self.estimate = len(data)
            if self.writing or self.queued:
                self._queue(Wired(data, False, False))
            else:
                self._send_now(rid, data)

        return reply

    def _hold(self, size: int) -> None:
        self.held += size
        self.ledger.held += size
        self.peak = max(self.peak, self.held)

    def _release(self, size: int) -> None:
        self.held -= size
        self.ledger.release(size)
        self._wake_reader()

    def _wake_reader(self) -> None:
        """Wake a reader waiting for room; checked first, as there mostly is none (per reply)."""
        if self.room:
            self.room.unpark_all()

    def _queue(self, item: Wired) -> None:
        try:
            self.out_send.send_nowait(item)
        except (trio.BrokenResourceError, trio.ClosedResourceError):
            log.debug("a reply was dropped: its connection is gone")
            return
        self.queued += 1
        self._hold(len(item.data))

    def _send_now(self, rid: int, data: bytes) -> None:
        """Send a reply from where it is ready, without waking the writer: the writer is idle
        and nothing is queued before it, so order holds. What the socket does not take at
        once goes to the writer, which sends it first.
        """
        fd = self.stream.socket.fileno()  # -1 once closed (never a stale, reused number)
        if fd < 0:
            log.debug("reply %d dropped: its connection is closed", rid)
            self.taken(False)
            return
        try:
            sent = os.write(fd, data)
        except BlockingIOError:
            sent = 0
        except OSError as exc:  # the peer went away: the reader sees it and ends the connection
            log.debug("reply %d dropped: %s", rid, exc)
            self.taken(False)
            return
        if sent < len(data):
            self._queue(Wired(data[sent:], False, False))  # its slot is freed when taken
        else:
            self.taken(False)

    def _encode(self, reply: p.Reply) -> bytes:
        """The frame of ``reply``; an error reply is counted by its code."""
        try:
            data = frame(p.encode(reply))
        except Exception as exc:  # a result msgpack cannot carry: answered, not raised
            reply = error_reply(reply.rid, exc)
            data = frame(p.encode(reply))
        if isinstance(reply, p.ErrorReply):
            self.count_error(reply.code)
        return data


def _closes(reply: p.Reply) -> bool:
    """Whether the connection closes after this answer (its stream cannot be trusted)."""
    return isinstance(reply, p.ErrorReply) and reply.code in (BadFrame.code, FrameTooLarge.code)


def _converted(rid: int, convert: Convert, outcome: object) -> p.Reply:
    """The reply to an outcome; a conversion that fails answers its error."""
    if isinstance(outcome, BaseException):
        return error_reply(rid, outcome)
    try:
        return convert(outcome)
    except Exception as exc:
        return error_reply(rid, exc)


def error_reply(rid: int, exc: BaseException) -> p.ErrorReply:
    if isinstance(exc, ReverieError):
        return p.ErrorReply(rid=rid, code=exc.code, message=exc.message)
    log.error("unexpected error answering request %d", rid, exc_info=exc)
    return p.ErrorReply(
        rid=rid,
        code="internal",
        message=f"internal error: {type(exc).__name__}; see the daemon log",
    )
