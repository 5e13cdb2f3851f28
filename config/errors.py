"""Every error reverie raises on purpose, in one tree, each class with its stable code.

A host imports them from ``reverie`` and catches them by class; every layer
raises them from here (config is below every layer, so all can). The
``code`` crosses the socket in an ``ErrorReply`` and ``error_class`` turns
it back into the class on the host's side. Codes are never renamed. The
branches say whose fault it is, and so what to do (``docs/protocol.md``,
"Errors")::

    ReverieError                      internal            reverie's bug: see the daemon log
    ├── ConfigError                   config.invalid      the operator's: fix the setting
    ├── InvalidArgument               invalid_argument    the caller's: do not retry unchanged
    │   ├── NotFound                  not_found
    │   └── LimitReached              limit_reached       free something or raise the setting
    ├── Conflict                      conflict            the caller's: contradicts what is stored
    ├── Busy                          busy                nobody's: a limit; retry later
    ├── ProtocolError                 protocol.error      the peer's bytes or its connection
    │   ├── BadFrame                  bad_frame
    │   ├── FrameTooLarge             frame_too_large
    │   ├── UnknownOp                 unknown_op
    │   ├── Unauthorized              unauthorized
    │   └── ConnectionLost            connection_lost     (client side) the daemon is gone
    ├── StoreError                    store.error         storage's: nothing was applied
    │   ├── StoreFull                 store.full
    │   ├── StoreReadOnly             store.read_only
    │   ├── StoreUnavailable          store.unavailable   the database's: retry
    │   │   └── SessionMoved          session.moved       another daemon's: retry
    │   ├── MemoryUnreadable          store.memory_unreadable
    │   ├── EmbeddingError            embeddings.error
    │   └── IndexStale                store.index_stale
    └── LLMError                      llm.error           the model's: retried with backoff
        ├── LLMTimeout                llm.timeout
        ├── LLMRejected               llm.rejected
        ├── LLMRateLimited            llm.rate_limited
        └── LLMUnavailable            llm.unavailable

An engine's library's exceptions (apsw, psycopg, httpx) never leave the
layer that calls it: each maps them to a class of this tree. The store
raises the store branch from here (``reverie.store.errors`` re-exports it,
adding only ``StoreConflict``, a ``StoreUnavailable`` the daemon retries
before a client sees it).
"""

from __future__ import annotations

from typing import ClassVar

__all__ = [
    "BadFrame",
    "Busy",
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
    "error_class",
]


class ReverieError(Exception):
    """Anything reverie raises on purpose. ``code`` is stable across versions."""

    code: ClassVar[str] = "internal"

    def __init__(self, message: str) -> None:
        super().__init__(message)
        self.message = message


class ConfigError(ReverieError):
    """The configuration file, an environment variable or a flag is wrong."""

    code: ClassVar[str] = "config.invalid"


class InvalidArgument(ReverieError):
    """The request is well formed but a value in it is not acceptable."""

    code: ClassVar[str] = "invalid_argument"


class NotFound(InvalidArgument):
    """The thing named does not exist (any more)."""

    code: ClassVar[str] = "not_found"


class LimitReached(InvalidArgument):
    """A configured bound on stored state is reached: the message names the setting.

    Not transient (unlike ``Busy``): free something (delete keys, a
    checkpoint) or raise the setting.
    """

    code: ClassVar[str] = "limit_reached"


class Conflict(ReverieError):
    """The request contradicts acknowledged state (same id, other content; stale version)."""

    code: ClassVar[str] = "conflict"


class Busy(ReverieError):
    """A configured limit is reached; retry later or raise the limit."""

    code: ClassVar[str] = "busy"


class ProtocolError(ReverieError):
    """A peer's bytes or its connection failed; they close or refuse a request
    before it reaches an actor."""

    code: ClassVar[str] = "protocol.error"


class BadFrame(ProtocolError):
    """Not msgpack, not a map, or missing a request id; the connection is closed."""

    code: ClassVar[str] = "bad_frame"


class FrameTooLarge(ProtocolError):
    """A length prefix over the limit; the connection is closed."""

    code: ClassVar[str] = "frame_too_large"


class UnknownOp(ProtocolError):
    """The ``op`` names no operation this daemon knows; upgrade it or fix the client."""

    code: ClassVar[str] = "unknown_op"


class Unauthorized(ProtocolError):
    """The peer's uid/gid is not allowed on this socket."""

    code: ClassVar[str] = "unauthorized"


class ConnectionLost(ProtocolError):
    """The daemon closed the connection or could not be reached (client side)."""

    code: ClassVar[str] = "connection_lost"


class StoreError(ReverieError):
    """The database or the memory tree failed; the request was not applied."""

    code: ClassVar[str] = "store.error"


class StoreFull(StoreError):
    """The disk (or the configured size limit) is full; free space, then retry."""

    code: ClassVar[str] = "store.full"


class StoreReadOnly(StoreError):
    """The data directory cannot be written; fix its permissions or mount, then retry."""

    code: ClassVar[str] = "store.read_only"


class StoreUnavailable(StoreError):
    """The database cannot be reached (down, restarting, the connection lost); the
    request may or may not have been applied: retry it (appends with the same ids
    are idempotent). The daemon reconnects by itself."""

    code: ClassVar[str] = "store.unavailable"


class SessionMoved(StoreUnavailable):
    """Another daemon sharing the database took the session over since this one loaded
    it (Postgres): nothing of the request was written. Retry it: the daemon you retry
    through takes the session back (the client does so by itself for an append with ids)."""

    code: ClassVar[str] = "session.moved"


class MemoryUnreadable(StoreError):
    """A file of the memory tree cannot be read as it is (not UTF-8, a symbolic link):
    fix or remove the file it names."""

    code: ClassVar[str] = "store.memory_unreadable"


class EmbeddingError(StoreError):
    """The embedding model could not be loaded or the embedding server failed."""

    code: ClassVar[str] = "embeddings.error"


class IndexStale(StoreError):
    """The index was built by another embedder; ``reset()`` it and re-add its documents."""

    code: ClassVar[str] = "store.index_stale"


class LLMError(ReverieError):
    """The consolidation model could not produce a result."""

    code: ClassVar[str] = "llm.error"


class LLMTimeout(LLMError):
    """No complete answer within ``llm.timeout`` seconds."""

    code: ClassVar[str] = "llm.timeout"


class LLMRejected(LLMError):
    """The server refused the request (4xx) or answered with something unusable."""

    code: ClassVar[str] = "llm.rejected"


class LLMRateLimited(LLMError):
    """HTTP 429. ``retry_after`` is the server's Retry-After in seconds, if it sent one."""

    code: ClassVar[str] = "llm.rate_limited"

    def __init__(self, message: str, retry_after: float | None = None) -> None:
        super().__init__(message)
        self.retry_after = retry_after


class LLMUnavailable(LLMError):
    """The server failed (5xx), could not be reached, or its circuit breaker is open."""

    code: ClassVar[str] = "llm.unavailable"


def _tree(cls: type[ReverieError]) -> list[type[ReverieError]]:
    found = [cls]
    for sub in cls.__subclasses__():
        found.extend(_tree(sub))
    return found


#: Each code's class: this module's tree, read once it is all defined.
_BY_CODE: dict[str, type[ReverieError]] = {cls.code: cls for cls in _tree(ReverieError)}


def error_class(code: str) -> type[ReverieError]:
    """The class of ``code``; an unknown code (a newer daemon's) gets a subclass of the root.

    The table is this module's, so a host catches the very classes it imports
    from ``reverie``, whatever else its process has loaded.
    """
    if code not in _BY_CODE:
        _BY_CODE[code] = type("ReverieError", (ReverieError,), {"code": code})
    return _BY_CODE[code]
