"""The one way an operation reaches its worker and answers its request.

Every operation ends the same way: an outcome (a result, or the typed error
that refused it) goes to the request's ``Respond``, the callback the
connection made for it with ``Replier`` and a conversion to the wire reply.
``ask`` hands a request to an actor (the actor calls ``Respond`` once it is
done); ``run`` runs a coroutine as a task of the connection. Neither leaves
a request unanswered on a ``ReverieError``.
"""

from __future__ import annotations

from collections.abc import Awaitable, Callable
from typing import Any, Protocol

import trio

from reverie.actors import ActorRegistry, Envelope
from reverie.config import ReverieError

from .. import protocol as p

__all__ = ["Convert", "Feature", "Replier", "Respond", "ask", "convert_nothing", "run"]

#: Hands an outcome (a result or an exception) to the request it answers.
Respond = Callable[[object], None]
#: Turns a result into the request's wire reply.
Convert = Callable[[Any], p.Reply]
#: The connection's factory of replies: ``replier(rid, convert)``.
Replier = Callable[[int, Convert], Respond]


def convert_nothing(result: object) -> p.Reply:
    """The conversion of a request refused before it ran: only its error is ever answered."""
    raise AssertionError(f"a refused request has no result to convert: {result!r}")


class Feature(Protocol):
    """One feature's operations: answers each request of its types, once."""

    async def dispatch(self, request: Any, replier: Replier, nursery: trio.Nursery) -> None: ...


async def ask(registry: ActorRegistry[Any], name: str, request: Any, reply: Respond) -> None:
    """Queue ``request`` for ``name``'s actor, which answers ``reply``; a refusal answers it here."""
    try:
        await registry.send(name, Envelope(request, reply))
    except ReverieError as exc:
        reply(exc)


async def run(reply: Respond, fn: Callable[..., Awaitable[Any]], *args: Any) -> None:
    """Await ``fn(*args)`` and answer ``reply`` with its result or its typed error."""
    try:
        result = await fn(*args)
    except ReverieError as exc:
        reply(exc)
        return
    reply(result)
