"""The root of reverie's error tree, importable by every layer.

Each layer adds its branch in its own ``errors.py``; every class carries a
stable ``code`` that crosses the socket in an ``ErrorReply`` and lets the
client rebuild the class. Codes are never renamed::

    ReverieError                      internal
    ├── ConfigError                   config.invalid
    ├── InvalidArgument               invalid_argument
    │   ├── NotFound                  not_found
    │   └── LimitReached              limit_reached
    ├── Conflict                      conflict
    ├── Busy                          busy
    ├── ProtocolError                 protocol.error (reverie.daemon.protocol.errors)
    │   ├── BadFrame                  bad_frame
    │   ├── FrameTooLarge             frame_too_large
    │   ├── UnknownOp                 unknown_op
    │   └── Unauthorized              unauthorized
    ├── StoreError                    store.error    (reverie.store.errors)
    │   ├── StoreFull                 store.full
    │   ├── StoreReadOnly             store.read_only
    │   ├── StoreUnavailable          store.unavailable (retry)
    │   │   └── SessionMoved          session.moved (retry)
    │   ├── EmbeddingError            embeddings.error (reverie.store.embed.embeddings)
    │   └── IndexStale                store.index_stale (reverie.store.files.index_lifecycle)
    └── LLMError                      llm.error      (reverie.actors.errors)
        ├── LLMTimeout                llm.timeout
        ├── LLMRejected               llm.rejected
        ├── LLMRateLimited            llm.rate_limited
        └── LLMUnavailable            llm.unavailable

The categories a caller usually cares about (bad input, conflict, overload)
live here at the root so every layer can raise them without importing a
layer above it.
"""

from __future__ import annotations

from typing import ClassVar

__all__ = [
    "Busy",
    "ConfigError",
    "Conflict",
    "InvalidArgument",
    "LimitReached",
    "NotFound",
    "ReverieError",
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


def _subclasses(cls: type[ReverieError]) -> list[type[ReverieError]]:
    found = [cls]
    for sub in cls.__subclasses__():
        found.extend(_subclasses(sub))
    return found


_UNKNOWN: dict[str, type[ReverieError]] = {}


def error_class(code: str) -> type[ReverieError]:
    """The class registered for ``code``; an unknown code gets a subclass of the root.

    Every layer's branch registers itself by subclassing, so this sees the
    classes of whatever layers the caller has imported. A client that has not
    imported a branch (hosts do not import the store) still gets the daemon's
    code on the exception it catches: ``store.full`` stays ``store.full``.
    """
    for cls in _subclasses(ReverieError):
        if cls.code == code and _UNKNOWN.get(code) is not cls:
            return cls
    if code not in _UNKNOWN:
        _UNKNOWN[code] = type("ReverieError", (ReverieError,), {"code": code})
    return _UNKNOWN[code]
