"""Durable markers in the database's ``meta``: work a commit promised that a step outside it finishes.

A forget's job (``journal.ForgetJob``: files and index rows still to remove)
and a pop's unindex (``message_pop.Unindex``: an index row still to delete)
are each a msgspec Struct kept as JSON after a prefix of its own in a
``meta`` key. The marker is written in the commit that makes the promise,
listed by whoever finishes the work (at start too, after a crash), and
deleted once the work is done: so the work is never lost, and redoing it
is harmless.
"""

from __future__ import annotations

from typing import TypeVar

import msgspec

__all__ = [
    "marker_key",
]

_Marker = TypeVar("_Marker", bound=msgspec.Struct)


def marker_key(prefix: str, marker: msgspec.Struct) -> str:
    """The ``meta`` key of ``marker``: ``prefix`` and its JSON."""
    return prefix + msgspec.json.encode(marker).decode()
