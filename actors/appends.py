"""A session's queued appends as one write: checked on the event loop, committed by the writer.

An ``AppendPlan`` is made on the event loop from the appends at the head of
a session's mailbox: each request is checked (what the wire schema cannot
say) and a refused one is answered at once; the messages' ids, times and
token counts are settled. Its ``write`` runs in the database's writer
thread, inside the group commit, and does nothing but the SQL. ``finish``
then answers each request and returns the session's new row, on the event
loop again.

``write`` is a pure function of the database and of the plan: it works on
a copy of the session's row and returns the new row, because the writer
re-runs a batch one function at a time when another function of it fails.

The registry commits the plans of many sessions together
(``Database.write_many``): one batch in the writer thread, one wake-up of
the event loop for all of them.
"""

from __future__ import annotations

import math
import uuid
from collections.abc import Sequence
from dataclasses import dataclass
from datetime import UTC, datetime
from typing import Any, Protocol

import msgspec

from reverie.config import Conflict, InvalidArgument, default_scope
from reverie.store import (
    AppendOutcome,
    NewMessage,
    SessionRecord,
    TokenCounter,
    Tx,
)

from .names import validate_name
from .services import Services

__all__ = ["AppendPlan", "AppendRequest", "MessageLike"]


class MessageLike(Protocol):
    """A message as a client sends it: the wire struct satisfies this."""

    @property
    def role(self) -> str: ...
    @property
    def content(self) -> str: ...
    @property
    def id(self) -> str | None: ...
    @property
    def name(self) -> str | None: ...
    @property
    def tool_calls(self) -> Any: ...
    @property
    def tool_call_id(self) -> str | None: ...
    @property
    def ts(self) -> float | None: ...


@dataclass(slots=True)
class AppendRequest:
    messages: Sequence[MessageLike]
    scope: str | None = None


class _Replier(Protocol):
    """What a plan answers through: the envelope of one append request."""

    request: Any

    def reply(self, outcome: object) -> None: ...


class AppendPlan:
    """One session's appends, checked and prepared, as one write; ``finish`` answers them.

    ``counted`` holds the token counts of long texts, counted beforehand in
    a worker thread (``TokenCounter.count_async``); every other text is
    counted here, on the event loop. (Counting in the writer thread was
    tried: each count there takes and gives back the GIL, and the writer,
    waiting for the busy event loop to hand the GIL over, committed less.)
    """

    __slots__ = ("base", "messages", "services", "valid")

    def __init__(
        self,
        name: str,
        base: SessionRecord | None,
        envelopes: Sequence[_Replier],
        services: Services,
        counted: dict[str, int] | None = None,
    ) -> None:
        self.services = services
        self.base = base
        valid = [env for env in envelopes if _accepted(env)]
        now, known = services.now(), counted or {}
        if base is None and valid:
            scope = valid[0].request.scope or default_scope(name)
            self.base = SessionRecord(name=name, scope=scope, created=now, last_active=now)
        self.valid = [env for env in valid if self.base is None or _same_scope(env, self.base)]
        self.messages = [
            [_new(m, now, known, services.tokens) for m in env.request.messages]
            for env in self.valid
        ]

    def write(self, t: Tx) -> tuple[SessionRecord, list[AppendOutcome]] | None:
        """Append every valid request (in the writer's transaction); the new row and outcomes."""
        if self.base is None or not self.valid:
            return None
        work = msgspec.structs.replace(self.base)  # a copy per run: the batch may be re-run
        return work, t.append_requests(work, self.messages)

    def finish(
        self, written: tuple[SessionRecord, list[AppendOutcome]] | None
    ) -> SessionRecord | None:
        """Answer each request with its acks or its error; returns the session's row now."""
        if written is None:
            return self.base
        work, outcomes = written
        for env, outcome in zip(self.valid, outcomes, strict=True):
            env.reply(outcome.error if outcome.error is not None else outcome.acks)
        self.services.counters["messages_appended"] += sum(len(o.acks) for o in outcomes)
        self.services.hooks.appended(work)
        return work


def _new(msg: MessageLike, now: float, counted: dict[str, int], tokens: TokenCounter) -> NewMessage:
    """The message as the store appends it: its id (one made if none), time and tokens."""
    text = msg.content
    count = counted.get(text)
    return NewMessage(
        id=msg.id or uuid.uuid4().hex,
        role=msg.role,
        content=text,
        ts=msg.ts if msg.ts is not None else now,
        tokens=count if count is not None else tokens.count(text),
        name=msg.name,
        tool_calls=msg.tool_calls,
        tool_call_id=msg.tool_call_id,
    )


def _accepted(env: _Replier) -> bool:
    """Check one append request; a refused one is answered with its ``InvalidArgument``."""
    try:
        _check(env.request)
    except InvalidArgument as exc:
        env.reply(exc)
        return False
    return True


def _same_scope(env: _Replier, session: SessionRecord) -> bool:
    """A session keeps the scope of its first append; another one is answered ``Conflict``."""
    scope = env.request.scope
    if scope and scope != session.scope:
        env.reply(
            Conflict(
                f"session {session.name!r} is in scope {session.scope!r}, not {scope!r}: "
                "a session's scope is set by its first append; omit scope or use another session"
            )
        )
        return False
    return True


def _check(request: AppendRequest) -> None:
    """What the wire schema cannot say (it checks roles, batch and id lengths when decoding)."""
    if request.scope:
        validate_name("scope", request.scope)
    for msg in request.messages:
        if msg.ts is not None and not _valid_ts(msg.ts):
            raise InvalidArgument(
                f"ts {msg.ts!r} is not a time: send Unix seconds (years 1 to 9999) or omit it"
            )
        if msg.id is not None and not msg.id.isprintable():
            raise InvalidArgument("message id must be printable characters")
        for field, text in (
            ("content", msg.content),
            ("name", msg.name),
            ("tool_call_id", msg.tool_call_id),
        ):
            if text is not None and "\x00" in text:
                raise InvalidArgument(
                    f"message {field} contains a NUL character (\\x00), which no store"
                    " keeps (PostgreSQL text cannot hold it): remove it or replace it"
                )


def _valid_ts(ts: float) -> bool:
    """A finite time that a dated history file can be named by (a host's clock may be wrong)."""
    if not math.isfinite(ts):
        return False
    try:
        datetime.fromtimestamp(ts, UTC)
    except (OverflowError, ValueError, OSError):
        return False
    return True
