"""The seam between the actors and their state: one transaction's view of storage.

The actors never touch a connection. ``db.read(fn)`` and ``db.write(fn)``
give ``fn`` a ``Tx``, whose methods are everything a reader or a writer may
ask of the sessions and messages, the consolidation jobs, the index feed,
the words of the log and working memory, within the one transaction the
database runs ``fn`` in (a snapshot for a read, the batch's transaction for
a write). The same ``Tx`` serves every engine.

Each concept declares its calls in its own module of ``base/``, beside its
records and protocol: ``JournalTx`` in ``journal.py``, ... (docs/design.md,
"The store seam", "Adding a table"). ``Tx`` is those classes composed, and
an engine's ``EngineSql`` is its module of each of those concepts, found by
the concept's name in the engine's package; each engine module declares the
protocol it answers, so mypy checks both engines against every call. One
``Tx`` is made per database thread and reused for every call it runs, so the
seam costs a method call, not an allocation.
"""

from __future__ import annotations

import importlib
from collections.abc import Callable
from types import ModuleType
from typing import TYPE_CHECKING, Any, TypeVar

from .index_feed import IndexFeedTx
from .jobs import JobsTx
from .journal import JournalTx
from .message_pop import MessagePopTx
from .message_text import MessageTextTx
from .provenance import ProvenanceTx
from .working_memory import WorkingMemoryTx

if TYPE_CHECKING:
    from .term_counts import TermCounts

__all__ = ["CONCEPTS", "EngineSql", "ReadFn", "Tx"]

T = TypeVar("T")


class Tx(
    JournalTx,
    JobsTx,
    IndexFeedTx,
    MessagePopTx,
    MessageTextTx,
    ProvenanceTx,
    WorkingMemoryTx,
):
    """What ``fn`` may do inside one transaction of ``db.read`` / ``db.write``.

    ``conn`` is the engine's own connection, for the engine's code and its
    tests; code outside the store calls only the methods.
    """

    def __init__(self, conn: Any, sql: EngineSql, term_counts: TermCounts) -> None:
        self.conn = conn
        #: The words index's per-word row counts, shared by the reader threads' searches.
        self.term_counts = term_counts
        for concept, module in sql.modules.items():
            setattr(self, f"_{concept}", module)  # the attribute its ``<Concept>Tx`` calls


#: The concepts ``Tx`` calls, by their module's name in ``base/`` and in each engine.
CONCEPTS = tuple(
    part.__module__.rpartition(".")[2] for part in Tx.__mro__[1:] if part is not object
)


class EngineSql:
    """One engine's module for each of ``CONCEPTS``, imported by name from ``package``."""

    __slots__ = ("modules", "package")

    def __init__(self, package: str) -> None:
        self.package = package
        self.modules: dict[str, ModuleType] = {
            concept: importlib.import_module(f"{package}.{concept}") for concept in CONCEPTS
        }


#: A read: run on a read connection in a snapshot of its own (``GroupCommit.read``).
ReadFn = Callable[[Tx], T]
