"""What the actors ask of a search index, whichever engine keeps it.

The file engine's index is LanceDB in a directory of the data dir
(``AsyncSearchIndex``); it can also be copied, merged and moved to another
directory, which the indexer does for a forget's bytes, for merging
generations and for a rebuild. The Postgres engine's index is a table of the
engine's database (``postgres.index``): none of that applies to it, so
those methods are not part of this protocol.
"""

from __future__ import annotations

from contextlib import AbstractAsyncContextManager, AbstractContextManager
from typing import TYPE_CHECKING, Protocol

if TYPE_CHECKING:
    from ..files.index_lifecycle import IndexLayout, IndexLimits
    from ..ranking import IndexDoc, SearchHit
    from ..search_query import SearchQuery
    from .memory_store import MemoryStore

__all__ = ["LiveIndex"]


class LiveIndex(Protocol):
    """The index the follower writes and searches read, on either engine."""

    @property
    def location(self) -> str:
        """Where it is, for ``status``: a directory, or a table of the database."""
        ...

    @property
    def limits(self) -> IndexLimits: ...

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
