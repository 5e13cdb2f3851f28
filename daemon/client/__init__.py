r"""The host's side: ``Client`` (blocking) and ``AsyncClient`` (anyio: asyncio or trio).

Both expose the same methods, defined once in ``api.Api`` as ``op``\ s (see
``calls``): each builds a ``Call`` that the transport's ``_call`` runs,
returning the converted reply (``Client``) or an awaitable of it
(``AsyncClient``), typed with the wire Struct (``client.append(...).seq``).

Errors come back as the daemon's typed exceptions (rebuilt from their
``code``). After a daemon restart both clients reconnect: an idempotent call
is retried for about 10 s. A client that has never reached the daemon does
not wait: with no daemon listening, its first call fails at once. A call refused
as ``session.moved`` (another daemon sharing the database took the session over;
nothing was written) is retried the same way, and the retry takes it back. ``append`` gives every message an id on the client side
when the caller did not, so a retried append can never be applied twice.

This package imports neither the actors nor the store.
"""

from .api import default_socket
from .asynchronous import AsyncClient
from .blocking import Client

__all__ = ["AsyncClient", "Client", "default_socket"]
