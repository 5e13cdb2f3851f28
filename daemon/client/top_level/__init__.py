"""reverie: hosts start here — ``from reverie import Client, AsyncClient, ReverieError``.

Every error the client raises is a ``ReverieError`` with a stable ``code``;
the ones a host usually handles are here too (``NotFound``, ``Conflict``,
``Busy``, ``InvalidArgument``, ``ConnectionLost``, ``Unauthorized``). The
package is typed (``py.typed``): ``client.append(...)`` is an ``Ack``.

This file is the top-level ``reverie`` package (pyproject maps it here,
beside the client it re-exports, because the repository's top level holds
only the four code folders). It loads the client and its protocol, never
the daemon's machinery (actors, store, trio).
"""

from reverie.config.errors import Busy, Conflict, InvalidArgument, NotFound, ReverieError
from reverie.daemon.client import AsyncClient, Client, default_socket
from reverie.daemon.protocol.errors import ConnectionLost, ProtocolError, Unauthorized

__all__ = [
    "AsyncClient",
    "Busy",
    "Client",
    "Conflict",
    "ConnectionLost",
    "InvalidArgument",
    "NotFound",
    "ProtocolError",
    "ReverieError",
    "Unauthorized",
    "default_socket",
]
