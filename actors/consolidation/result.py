"""What one job produces, by the model or without one."""

from __future__ import annotations

import msgspec

from reverie.store import Fact

__all__ = ["ConsolidationResult"]


class ConsolidationResult(msgspec.Struct):
    """A history entry's text, the facts it found, and the scope's new ``MEMORY.md``.

    ``retired``: the facts this job took out of ``MEMORY.md`` because they
    stopped being true (superseded, corrected or retracted by a newer fact,
    or replaced or deleted by the model's answer), as they were, for the
    history entry to keep; never those the token cap cut.
    """

    summary: str
    facts: list[str]
    memory: str
    retired: list[Fact] = msgspec.field(default_factory=list)
