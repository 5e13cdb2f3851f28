"""One client connection: its reply queue, its in-flight slots, and how a reply is sent.

No reply to an accepted request is ever dropped for want of room: a request
stays "in flight" until its reply is sent or the writer has taken it, the
queue has a slot for each request in flight, and the reader's own answers
(``busy``, bad frames) have ``OWN_REPLIES`` more slots of their own.

An outcome (data from an actor or a task, or the error that failed it)
comes with the way to convert it; the connection converts and encodes it
(in the reply callback when it sends at once, else in the writer). A result
that does not convert (a bug, a damaged row) answers ``internal``, logged
with its traceback, and its request is answered and its slot freed like any
other: conversion never raises into the actor that answered.
"""

from __future__ import annotations

import logging
import math
import os
from collections.abc import Callable
from typing import NamedTuple

import trio

from reverie.config import ReverieError

from . import protocol as p
from .ops.calls import Convert
from .protocol.framing import frame

__all__ = ["OWN_REPLIES", "Connection", "Outcome", "Rest", "error_reply"]

log = logging.getLogger(__name__)
#: Queue slots for the reader's own answers (``busy``, bad frames), beside one per request.
OWN_REPLIES = 16


class Outcome(NamedTuple):
    """A request's outcome on its way to the writer, which converts it with ``convert``."""

    rid: int
    convert: Convert
    outcome: object
    own: bool  # one of the reader's own answers (its own slots), not a request's


class Rest(NamedTuple):
    """What a direct send left unsent of a reply: the writer sends it before anything else."""

    data: bytes


def _as_is(reply: p.Reply) -> p.Reply:
    return reply


class Connection:
    """One client connection's state: its outgoing queue and in-flight count.

    ``in_flight`` counts requests whose reply is neither sent nor taken by
    the writer yet; the queue holds ``max_in_flight`` such replies plus
    ``OWN_REPLIES`` of the reader's own, so queuing a request's reply never
    finds it full.
    """

    __slots__ = (
        "closing",
        "count_error",
        "in_flight",
        "max_in_flight",
        "out_recv",
        "out_send",
        "own",
        "queued",
        "reading_since",
        "scope",
        "sending_since",
        "stream",
        "unsent",
        "writing",
    )

    def __init__(
        self, stream: trio.SocketStream, max_in_flight: int, count_error: Callable[[str], None]
    ) -> None:
        self.stream = stream
        self.count_error = count_error
        self.queued = 0  # items on the queue the writer has not taken yet
        self.writing = False  # the writer is converting or sending what it took
        self.in_flight = 0
        self.max_in_flight = max_in_flight  # the queue's size is fixed: a reload can only lower it
        self.closing = False
        self.scope = trio.CancelScope()  # cancelled to drop the connection
        # Watched by Server._watch_stalls; math.inf while not waiting on the client.
        self.reading_since = math.inf  # waiting for the rest of a started frame since
        self.sending_since = math.inf  # waiting for the client to take our replies since
        self.unsent = 0  # replies in the send that is waiting
        self.own = trio.Semaphore(OWN_REPLIES)
        self.out_send, self.out_recv = trio.open_memory_channel[Outcome | Rest](
            max_in_flight + OWN_REPLIES
        )

    def finish(self) -> None:
        """No more requests will come: end the writer once in-flight replies are out."""
        self.closing = True
        if self.in_flight == 0:
            self.out_send.close()

    async def answer(self, reply: p.Reply) -> None:
        """Queue one of the reader's own answers; waits while ``OWN_REPLIES`` are unsent."""
        await self.own.acquire()
        self.queued += 1
        await self.out_send.send(Outcome(reply.rid, _as_is, reply, True))

    def taken(self, own: bool) -> None:
        """A reply left the queue (or never needed it): its slot is free again."""
        if own:
            self.own.release()
            return
        self.in_flight -= 1
        if self.closing and self.in_flight == 0:
            self.out_send.close()

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
        it sends the reply at once if the writer is idle with nothing queued,
        else queues it for the writer. It never raises and never waits.
        """

        def reply(outcome: object) -> None:
            item = Outcome(rid, convert, outcome, False)
            if self.writing or self.queued:
                self._queue(item)
            else:
                self._send_now(item)

        return reply

    def _queue(self, item: Outcome | Rest) -> None:
        try:
            self.out_send.send_nowait(item)
            self.queued += 1
        except (trio.BrokenResourceError, trio.ClosedResourceError):
            log.debug("a reply was dropped: its connection is gone")

    def _send_now(self, item: Outcome) -> None:
        """Send a reply from where it is ready, without waking the writer: the writer is idle
        and nothing is queued before it, so order holds. What the socket does not take at
        once goes to the writer, which sends it first.
        """
        fd = self.stream.socket.fileno()  # -1 once closed (never a stale, reused number)
        if fd < 0:
            log.debug("reply %d dropped: its connection is closed", item.rid)
            self.taken(False)
            return
        _, data = self.encode(item)
        try:
            sent = os.write(fd, data)
        except BlockingIOError:
            sent = 0
        except OSError as exc:  # the peer went away: the reader sees it and ends the connection
            log.debug("reply %d dropped: %s", item.rid, exc)
            self.taken(False)
            return
        if sent < len(data):
            self._queue(Rest(data[sent:]))  # its slot is freed when the writer takes it
        else:
            self.taken(False)

    def encode(self, item: Outcome | Rest) -> tuple[p.Reply | None, bytes]:
        """The bytes to send for ``item`` and the reply they carry (None for a ``Rest``);
        an error reply is counted by its code.
        """
        if isinstance(item, Rest):
            return None, item.data
        reply, data = _wire(item)
        if isinstance(reply, p.ErrorReply):
            self.count_error(reply.code)
        return reply, data


def _wire(item: Outcome) -> tuple[p.Reply, bytes]:
    """The reply to an outcome and its frame; a conversion that fails answers the error."""
    reply: p.Reply
    try:
        if isinstance(item.outcome, BaseException):
            reply = error_reply(item.rid, item.outcome)
        else:
            reply = item.convert(item.outcome)
        return reply, frame(p.encode(reply))
    except Exception as exc:
        reply = error_reply(item.rid, exc)
        return reply, frame(p.encode(reply))


def error_reply(rid: int, exc: BaseException) -> p.ErrorReply:
    if isinstance(exc, ReverieError):
        return p.ErrorReply(rid=rid, code=exc.code, message=exc.message)
    log.error("unexpected error answering request %d", rid, exc_info=exc)
    return p.ErrorReply(
        rid=rid,
        code="internal",
        message=f"internal error: {type(exc).__name__}; see the daemon log",
    )
