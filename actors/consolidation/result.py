"""What one job produces, by the model or without one."""

from __future__ import annotations

import msgspec

__all__ = ["ConsolidationResult"]


class ConsolidationResult(msgspec.Struct):
    """A history entry's text, the facts it found, and the scope's new ``MEMORY.md``."""

    summary: str
    facts: list[str]
    memory: str
