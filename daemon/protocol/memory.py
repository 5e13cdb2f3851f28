"""Wire frames for long-term memory: consolidate now, read, edit, one fact by id, forget one.

Same conventions as the package: the tag is the op name, and a reply has the
same tag as its request.
"""

from __future__ import annotations

import msgspec

from .frames import Data, Frame, Page

__all__ = [
    "Consolidate",
    "ConsolidateReply",
    "FactEdit",
    "FactEditReply",
    "FactHistory",
    "FactHistoryReply",
    "FactView",
    "Facts",
    "FactsReply",
    "HistoryEntryView",
    "JobOutcome",
    "Memory",
    "MemoryEdit",
    "MemoryEditReply",
    "MemoryForgetFact",
    "MemoryForgetFactReply",
    "MemoryReply",
    "MemoryView",
]


class Consolidate(Frame, tag="consolidate"):
    """Consolidate the session's tail now; ``wait`` replies when the job is done."""

    session: str
    wait: bool = False


class Memory(Frame, tag="memory"):
    """A scope's ``MEMORY.md`` and its most recent history entries."""

    scope: str
    limit: Page = 20


class MemoryEdit(Frame, tag="memory_edit"):
    """Replace a scope's ``MEMORY.md`` (the memory prefix changes)."""

    scope: str
    text: str


class Facts(Frame, tag="facts"):
    """The facts of a scope's ``MEMORY.md``, in file order, each with its id."""

    scope: str


class FactEdit(Frame, tag="fact_edit"):
    """Add a fact (``text``, no ``id``), replace one (``id`` and ``text``), delete one (``id``).

    A deleted fact is forgotten everywhere (``MEMORY.md``, the episodes' fact
    lists, the index), as by ``memory_forget_fact``.
    """

    scope: str
    id: str | None = None
    text: str | None = None


class FactHistory(Frame, tag="fact_history"):
    """The history entries (episodes) that recorded fact ``id``, oldest first; an id of a
    fact superseded, replaced or deleted since still finds them."""

    scope: str
    id: str


class MemoryForgetFact(Frame, tag="memory_forget_fact"):
    """Delete one fact of a scope: from ``MEMORY.md``, the episodes' fact lists and the index."""

    scope: str
    fact: str


class HistoryEntryView(Data):
    """One history entry: what a consolidation made of a range of messages."""

    id: str
    session: str
    start_ts: float
    end_ts: float
    message_ids: list[str]
    summary: str
    facts: list[str]
    raw: bool
    retired: list[str] = msgspec.field(default_factory=list)  # facts it took out of MEMORY.md
    until: str = ""  # in a fact_history reply: the day the fact asked for stopped being true


class MemoryView(Data):
    scope: str
    memory: str
    entries: list[HistoryEntryView]
    problems: list[str] = msgspec.field(
        default_factory=list
    )  # what cannot be read exactly (kept in the files as it is)


class FactView(Data):
    """One fact: ``id`` (a hash of its words: the same words, the same id), its text, the UTC
    day of its newest source, and its sources (session -> message ids; none if written by hand)."""

    id: str
    text: str
    date: str
    sources: dict[str, list[str]]


class JobOutcome(Data):
    job: str
    entry: str
    state: str
    messages: int


class ConsolidateReply(Frame, tag="consolidate"):
    """``outcome`` is None when not waiting, or when there was nothing to consolidate."""

    outcome: JobOutcome | None = None


class MemoryReply(Frame, tag="memory"):
    view: MemoryView


class MemoryEditReply(Frame, tag="memory_edit"):
    problems: list[str] = msgspec.field(
        default_factory=list
    )  # what in the new text cannot be read exactly (kept as it is)


class MemoryForgetFactReply(Frame, tag="memory_forget_fact"):
    removed: int


class FactsReply(Frame, tag="facts"):
    facts: list[FactView]


class FactHistoryReply(Frame, tag="fact_history"):
    entries: list[HistoryEntryView]


class FactEditReply(Frame, tag="fact_edit"):
    fact: FactView | None = None  # as stored; None after a delete
