"""reverie: hosts start here — ``from reverie import Client, AsyncClient, ReverieError``.

Every error the client raises is a ``ReverieError`` with a stable ``code``,
and every class of the tree is here to catch by class (``NotFound``,
``Busy``, ``ConnectionLost``, ``StoreUnavailable``, ``SessionMoved``, ...;
the tree is drawn in ``reverie.config.errors``). The package is typed
(``py.typed``): ``client.append(...)`` is an ``Ack``.

This file is the top-level ``reverie`` package (pyproject maps it here,
beside the client it re-exports, because the repository's top level holds
only the four code folders). It loads the client and its protocol, never
the daemon's machinery (actors, store, trio).
"""

from reverie.config.errors import (
    BadFrame,
    Busy,
    ConfigError,
    Conflict,
    ConnectionLost,
    EmbeddingError,
    FrameTooLarge,
    IndexStale,
    InvalidArgument,
    LimitReached,
    LLMError,
    LLMRateLimited,
    LLMRejected,
    LLMTimeout,
    LLMUnavailable,
    MemoryUnreadable,
    NotFound,
    ProtocolError,
    ReverieError,
    SessionMoved,
    StoreError,
    StoreFull,
    StoreReadOnly,
    StoreUnavailable,
    Unauthorized,
    UnknownOp,
)
from reverie.daemon.client import AsyncClient, Client, default_socket

__all__ = [
    "AsyncClient",
    "BadFrame",
    "Busy",
    "Client",
    "ConfigError",
    "Conflict",
    "ConnectionLost",
    "EmbeddingError",
    "FrameTooLarge",
    "IndexStale",
    "InvalidArgument",
    "LLMError",
    "LLMRateLimited",
    "LLMRejected",
    "LLMTimeout",
    "LLMUnavailable",
    "LimitReached",
    "MemoryUnreadable",
    "NotFound",
    "ProtocolError",
    "ReverieError",
    "SessionMoved",
    "StoreError",
    "StoreFull",
    "StoreReadOnly",
    "StoreUnavailable",
    "Unauthorized",
    "UnknownOp",
    "default_socket",
]
