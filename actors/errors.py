"""The LLM branch of the error tree (root in ``reverie.config.errors``)::

    ReverieError
    └── LLMError              llm.error        the model call failed
        ├── LLMTimeout        llm.timeout      no answer within llm.timeout
        ├── LLMRejected       llm.rejected     4xx, or an answer that is not the schema
        ├── LLMRateLimited    llm.rate_limited 429; ``retry_after`` seconds if the server said
        └── LLMUnavailable    llm.unavailable  5xx, refused or broken connection, open breaker

httpx's exceptions never leave ``reverie.actors.consolidation.llm``; they are mapped here.
Timeouts, rate limits and unavailability are worth retrying with backoff; a
rejection is only worth retrying because a model's next answer may differ.
No message ever contains the API key.
"""

from __future__ import annotations

from typing import ClassVar

from reverie.config import ReverieError

__all__ = ["LLMError", "LLMRateLimited", "LLMRejected", "LLMTimeout", "LLMUnavailable"]


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
