"""``reverie import``'s appends: the file in batches, and what a colliding id does.

An import appends the file's messages a batch at a time, each batch one
session's consecutive messages (``append_many`` is all or nothing per
batch). A message whose id its session already holds with other content
is a ``Conflict`` that refuses its whole batch, and so is a message the
door refuses (``InvalidArgument``: a NUL character, which an export of a
file-engine store made before NUL was refused may hold); the import then
appends that batch one message at a time, skips each message refused and
lists it with the reason, and goes on. So an import
is never applied in half: everything in the file is there afterwards but
the listed messages, and a rerun appends nothing twice (an id already
there with the same content is "already present") and lists the same
ones again.
"""

from __future__ import annotations

import sys
from collections.abc import Iterator
from dataclasses import dataclass, field
from typing import Any

import msgspec

from reverie.config import Conflict, InvalidArgument

__all__ = ["IMPORT_BATCH", "Imported", "append_rows"]

#: Messages per append of one session at most (also bounded by the frame's bytes).
IMPORT_BATCH = 500
_MESSAGE_KEYS = ("role", "content", "id", "name", "ts", "tool_calls", "tool_call_id")


@dataclass
class Imported:
    """What an import did: new messages, ones already there, and the ones it skipped."""

    messages: int = 0
    already_present: int = 0
    skipped: list[dict[str, str]] = field(default_factory=list)

    def count(self, acks: list[Any], last: dict[str, int], session: str) -> None:
        """Count a batch's acks: a known id answers its old seq, at or below ``last``."""
        if not acks:
            return
        added = sum(ack.seq > last[session] for ack in acks)
        self.messages += added
        self.already_present += len(acks) - added
        last[session] = max(last[session], *(ack.seq for ack in acks))


def _batches(
    rows: list[dict[str, Any]], budget: int
) -> Iterator[tuple[str, str | None, list[dict[str, Any]]]]:
    """(session, scope, messages): consecutive rows of one session, under ``budget`` bytes."""
    i = 0
    while i < len(rows):
        session, scope = rows[i]["session"], rows[i].get("scope")
        batch: list[dict[str, Any]] = []
        size = 0
        while i < len(rows) and len(batch) < IMPORT_BATCH and rows[i]["session"] == session:
            message = {k: rows[i][k] for k in _MESSAGE_KEYS if rows[i].get(k) is not None}
            size += len(msgspec.msgpack.encode(message))
            if batch and size > budget:  # sized by bytes: the frame must fit the daemon's limit
                break
            batch.append(message)
            i += 1
        yield session, scope, batch


def _one_by_one(
    client: Any, session: str, scope: str | None, batch: list[dict[str, Any]], done: Imported
) -> list[Any]:
    """Append a refused batch message by message; list the ones refused."""
    acks: list[Any] = []
    for message in batch:
        try:
            acks += client.append_many(session, [message], scope=scope)
        except (Conflict, InvalidArgument) as exc:
            done.skipped.append(
                {"session": session, "id": str(message.get("id", "")), "reason": exc.message}
            )
    return acks


def append_rows(
    client: Any, rows: list[dict[str, Any]], last: dict[str, int], budget: int
) -> Imported:
    """Append ``rows`` (checked by ``read_jsonl``) in batches of at most ``budget`` bytes.

    ``last`` is each session's last seq before the import.
    """
    done = Imported()
    for session, scope, batch in _batches(rows, budget):
        try:
            acks = client.append_many(session, batch, scope=scope)
        except (Conflict, InvalidArgument):
            acks = _one_by_one(client, session, scope, batch, done)
        done.count(acks, last, session)
        seen = done.messages + done.already_present + len(done.skipped)
        print(f"\rimport: {seen}/{len(rows)} messages", end="", file=sys.stderr)
    print(file=sys.stderr)
    return done
