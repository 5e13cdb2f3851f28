"""reverie.actors: session and scope actors (one writer each) and their registries."""

from reverie.config import LLMError, LLMRateLimited, LLMRejected, LLMTimeout, LLMUnavailable

from .appends import AppendRequest, MessageLike
from .consolidation import Supervisor, Workers, job_runners
from .expiry import Duty, ExpirySweeper
from .mailbox import Envelope
from .memory import Forgetter, MemoryKeeper, MemoryWatcher
from .names import MAX_NAME_CHARS, validate_name
from .registry import ActorRegistry
from .scope import GLOBAL_SCOPE, ScopeActor, ScopeRegistry, scope_chain, validate_key
from .scope_requests import (
    AppendScratch,
    ClearKeys,
    ClearScratch,
    CreateCheckpoint,
    DeleteCheckpoint,
    DeleteKey,
    RestoreCheckpoint,
    SetKey,
    SetTask,
    Sweep,
    UpdateTask,
)
from .services import HookChain, Services, SessionHooks
from .session import (
    ContextRequest,
    ForgetRequest,
    HistoryRequest,
    PopRequest,
    SessionActor,
    SessionContext,
)
from .session_registry import SessionRegistry

__all__ = [
    "GLOBAL_SCOPE",
    "MAX_NAME_CHARS",
    "ActorRegistry",
    "AppendRequest",
    "AppendScratch",
    "ClearKeys",
    "ClearScratch",
    "ContextRequest",
    "CreateCheckpoint",
    "DeleteCheckpoint",
    "DeleteKey",
    "Duty",
    "Envelope",
    "ExpirySweeper",
    "ForgetRequest",
    "Forgetter",
    "HistoryRequest",
    "HookChain",
    "LLMError",
    "LLMRateLimited",
    "LLMRejected",
    "LLMTimeout",
    "LLMUnavailable",
    "MemoryKeeper",
    "MemoryWatcher",
    "MessageLike",
    "PopRequest",
    "RestoreCheckpoint",
    "ScopeActor",
    "ScopeRegistry",
    "Services",
    "SessionActor",
    "SessionContext",
    "SessionHooks",
    "SessionRegistry",
    "SetKey",
    "SetTask",
    "Supervisor",
    "Sweep",
    "UpdateTask",
    "Workers",
    "job_runners",
    "scope_chain",
    "validate_key",
    "validate_name",
]
