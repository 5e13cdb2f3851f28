"""reverie.daemon: the socket server, its protocol, the host client and the CLI.

Hosts import ``Client`` / ``AsyncClient`` from ``reverie.daemon.client``;
that module and ``reverie.daemon.protocol`` load neither the actors nor the
store.
"""

from reverie.config import (
    BadFrame,
    ConnectionLost,
    FrameTooLarge,
    ProtocolError,
    Unauthorized,
    UnknownOp,
)

from .client import AsyncClient, Client, default_socket

__all__ = [
    "AsyncClient",
    "BadFrame",
    "Client",
    "ConnectionLost",
    "FrameTooLarge",
    "ProtocolError",
    "Unauthorized",
    "UnknownOp",
    "default_socket",
]
