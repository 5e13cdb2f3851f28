"""One writer per scope's working memory at a time, across every daemon sharing the database.

Within a daemon a scope's actor is its only writer; several daemons have
one actor each. A write of a scope's working memory therefore first takes a
transaction-scoped advisory lock on the scope: the check and the write of a
compare-and-set, a key's first creation, the next scratchpad line's number
and the scope's bounds are then decided by one writer at a time, and none
is lost or refused for a race. The lock goes with the transaction's end.
"""

from __future__ import annotations

import functools
from collections.abc import Callable
from typing import Any, Concatenate, ParamSpec, TypeVar

import psycopg

__all__ = ["one_writer"]

P = ParamSpec("P")
R = TypeVar("R")

#: The advisory lock space of working-memory scopes (the key is the scope's hash in it).
_SPACE = "reverie.wm:"


def one_writer(
    write: Callable[Concatenate[psycopg.Connection[Any], str, P], R],
) -> Callable[Concatenate[psycopg.Connection[Any], str, P], R]:
    """``write(conn, scope, …)``, run while holding the scope's lock."""

    def locked(
        conn: psycopg.Connection[Any], scope: str, /, *args: P.args, **kwargs: P.kwargs
    ) -> R:
        conn.execute("SELECT pg_advisory_xact_lock(hashtextextended(%s, 0))", (_SPACE + scope,))
        return write(conn, scope, *args, **kwargs)

    functools.update_wrapper(locked, write)
    return locked
