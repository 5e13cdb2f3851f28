"""What the actors ask of a search index, whichever engine keeps it.

The file engine's index is LanceDB in a directory of the data dir
(``files/index.py``): a forget's purge, a merge of generations and a
rebuild write a new directory and swap it in, and the replaced ones are
removed once no search reads them. The Postgres engine's index is a table
of the engine's database (``postgres/index.py``), purged and rebuilt in
place. The protocol says both in one set of calls (``compacted``,
``for_rebuild``, ``mark_served``, ``retire``, ``discard``,
``drop_replaced``), each a no-op where the engine has nothing to do, so
the indexer never asks which engine it drives (docs/design.md, "The store
seam").
"""

from __future__ import annotations

from contextlib import AbstractAsyncContextManager, AbstractContextManager
from typing import TYPE_CHECKING, Protocol

import msgspec

from reverie.config.errors import IndexStale

if TYPE_CHECKING:
    from ..ranking import IndexDoc, SearchHit
    from ..search_query import SearchQuery
    from .memory_store import MemoryStore
    from .tx import Tx

__all__ = ["IndexLayout", "IndexStale", "LiveIndex", "Serving"]


class IndexLayout(msgspec.Struct, frozen=True):
    """How many data fragments and table versions the index holds on disk.

    Each write adds one of each until ``optimize`` folds the fragments and
    drops versions older than ``keep_versions``: searches slow down as
    fragments pile up, and every kept version is a manifest LanceDB may cache.
    """

    fragments: int
    versions: int


class Serving(Protocol):
    """What ``drop_replaced`` asks of the index's owner as it goes, since it awaits."""

    def serving(self) -> LiveIndex | None:
        """The index searches read now."""

    def rebuilding(self) -> bool:
        """Whether a reindex is writing an index of its own."""


class LiveIndex(Protocol):
    """The index the follower writes and searches read, on either engine."""

    @property
    def location(self) -> str:
        """Where it is, for ``status``: a directory, or a table of the database."""
        ...

    @property
    def stale(self) -> bool:
        """Written by another embedding model: refuses reads and writes until ``reset``."""
        ...

    @property
    def open_now(self) -> bool: ...

    @property
    def opens(self) -> int: ...

    @property
    def tables(self) -> int: ...

    def cached_bytes(self) -> int:
        """What the index's caches hold now, for ``status``."""
        ...

    async def open(self) -> bool:
        """Open or create it; whether it existed."""
        ...

    async def reset(self) -> None: ...

    async def optimize(self) -> None: ...

    async def release_idle(self, idle_seconds: float) -> bool: ...

    async def layout(self) -> IndexLayout: ...

    async def add(self, docs: list[IndexDoc], chunk: int, *, new: bool = False) -> None: ...

    def primed(self, docs: list[IndexDoc], chunk: int) -> AbstractAsyncContextManager[None]: ...

    async def write(self, docs: list[IndexDoc], *, new: bool = False) -> None: ...

    async def delete_uids(self, uids: list[str]) -> None: ...

    async def forget_session(self, session: str, scope: str) -> None: ...

    async def delete_scope(self, scope: str) -> None: ...

    async def delete_episodes(self, scope: str) -> None: ...

    async def replace_scope(self, memory: MemoryStore, scope: str, entries: int | None) -> None: ...

    async def search(self, query: SearchQuery) -> list[SearchHit]: ...

    async def meaning_among(
        self, query: str, uids: list[str], sessions: list[str]
    ) -> list[SearchHit]: ...

    def reading(self) -> AbstractContextManager[None]: ...

    # -- its lifecycle: each step a no-op where the engine has nothing to do ----------

    async def merge_plan(self) -> list[str]:
        """The sealed generations due to be merged into one table; none on a table."""
        ...

    async def compacted(self, merge: list[str] | None = None) -> LiveIndex:
        """This index holding no deleted row's bytes (and ``merge``'s generations one
        table), named served by one commit: a copy, or itself where the engine reclaims
        the bytes in place. Called under the follower's write lock."""
        ...

    def for_rebuild(self) -> LiveIndex:
        """Where a reindex writes: an index beside this one, or this one, in place."""
        ...

    def mark_served(self, tx: Tx, reached: int) -> None:
        """In ``tx``: a rebuilt index serves from now on, the log's gids to ``reached`` in it."""
        ...

    async def retire(self, old: LiveIndex) -> None:
        """After a rebuild's swap: remove ``old`` once no search reads it."""
        ...

    async def discard(self) -> None:
        """A rebuild that failed before it served: remove what it wrote."""
        ...

    async def drop_replaced(self, serving: Serving) -> None:
        """After ``compacted``: remove every index this one replaced (or a crash left),
        each once no search reads it, none that a rebuild writes or that serves."""
        ...
