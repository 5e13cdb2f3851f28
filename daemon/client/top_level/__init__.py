"""reverie: hosts start here — ``from reverie import Client, AsyncClient``.

This file is the top-level ``reverie`` package (pyproject maps it here,
beside the client it re-exports, because the repository's top level holds
only the four code folders). It loads the client and its protocol, never
the daemon's machinery (actors, store, trio).
"""

from reverie.daemon.client import AsyncClient, Client, default_socket
from reverie.daemon.protocol.errors import ConnectionLost, ProtocolError

__all__ = ["AsyncClient", "Client", "ConnectionLost", "ProtocolError", "default_socket"]
