"""reverie.actors: session actors (one writer per session) and their registry."""

from .consolidate import Consolidator
from .errors import LLMError, LLMRateLimited, LLMRejected, LLMTimeout, LLMUnavailable
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
    "Consolidator",
    "Context",
    "ContextRequest",
    "Envelope",
    "ForgetRequest",
    "HistoryRequest",
    "LLMError",
    "LLMRateLimited",
    "LLMRejected",
    "LLMTimeout",
    "LLMUnavailable",
    "MessageLike",
    "Services",
    "SessionActor",
    "SessionHooks",
    "SessionRegistry",
    "validate_name",
]
