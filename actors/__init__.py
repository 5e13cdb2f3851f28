"""reverie.actors: session actors (one writer per session) and their registry."""

from .names import MAX_NAME_CHARS, validate_name
from .registry import SessionRegistry
from .services import Services, SessionHooks
from .session import (
    AppendRequest,
    Context,
    ContextRequest,
    Envelope,
    ForgetRequest,
    HistoryRequest,
    MessageLike,
    SessionActor,
)

__all__ = [
    "MAX_NAME_CHARS",
    "AppendRequest",
    "Context",
    "ContextRequest",
    "Envelope",
    "ForgetRequest",
    "HistoryRequest",
    "MessageLike",
    "Services",
    "SessionActor",
    "SessionHooks",
    "SessionRegistry",
    "validate_name",
]
