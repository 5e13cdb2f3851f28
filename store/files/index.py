"""The search index as the actors use it: awaited, every blocking call on a thread in store.

``SearchIndex`` (LanceDB) and the embedders block, so nothing outside the
store calls them: the indexer awaits this facade, as it awaits ``Database``.
What it guarantees:

- ``add`` embeds on the ``PrimedEmbedder``'s background threads (niced, so
  appends and searches go first), then writes in a worker thread; a cancel
  waits for the embedding chunks running, so no native thread is abandoned.
  ``primed`` and ``write`` are its two halves, for a caller (the follower)
  that must not hold the index while it embeds.
- Writes are not serialised here: the indexer is the index's only writer.
- Searches run on worker threads, at most ``max(2, cores)`` at once across
  one family of indexes (the serving one, a rebuild's, a purge's copy):
  they are CPU-bound, and more at once than cores only thrash and would
  take every one of trio's shared worker threads.
- The family counts the searches reading each directory, so a replaced
  directory is removed only once no search reads it (``unused``).
"""

from __future__ import annotations

import functools
import os
import shutil
from collections import Counter
from collections.abc import AsyncIterator, Iterator
from contextlib import asynccontextmanager, contextmanager
from dataclasses import dataclass, field
from datetime import timedelta
from pathlib import Path
from typing import Any

import trio

from reverie.config import IndexConfig, default_scope

from ..base.db import GroupCommit
from ..base.index import IndexLayout, LiveIndex, Serving
from ..base.index_feed import memory_docs
from ..base.memory_store import MemoryStore
from ..base.tx import Tx
from ..embed.primed_embedder import PrimedEmbedder
from ..ranking import IndexDoc, SearchHit
from ..search_query import SearchQuery
from .index_directories import Directories
from .index_lifecycle import IndexLimits, SearchIndex

__all__ = ["AsyncSearchIndex", "open_index"]


async def open_index(
    db: GroupCommit[Any], root: Path, embedder: PrimedEmbedder, config: IndexConfig
) -> AsyncSearchIndex:
    """The index the ``meta`` table names under ``root``, not opened yet; every other
    index directory there, which a crash left, is removed first."""
    limits = IndexLimits(
        keep_versions=timedelta(seconds=config.keep_versions),
        cache_bytes=config.cache_mib << 20,
        metadata_cache_bytes=config.metadata_cache_mib << 20,
        generation_rows=config.generation_rows,
        merged_rows=config.merged_rows,
    )
    dirs = Directories(db, root)
    index = AsyncSearchIndex(await dirs.served(), embedder, _Family(dirs=dirs), limits=limits)
    for old in await dirs.others(keep=index.path):
        await index.remove_dir(old)
    return index


@dataclass(slots=True)
class _Family:
    """What the indexes one indexer serves from share: the search limit and the readers."""

    limiter: trio.CapacityLimiter = field(
        default_factory=lambda: trio.CapacityLimiter(max(2, os.cpu_count() or 2))
    )
    readers: Counter[Path] = field(default_factory=Counter)  # searches running, by directory
    #: The data dir's index directories, for the daemon's swaps; None: an index made alone.
    dirs: Directories | None = None


class AsyncSearchIndex:
    """``SearchIndex`` under ``path`` behind awaitable methods; ``open()`` it first."""

    def __init__(
        self,
        path: Path,
        embedder: PrimedEmbedder,
        family: _Family | None = None,
        *,
        limits: IndexLimits | None = None,
    ) -> None:
        self._index = SearchIndex(path, embedder, limits)
        self._embedder = embedder
        self._family = _Family() if family is None else family

    @property
    def path(self) -> Path:
        return self._index.path

    @property
    def location(self) -> str:
        return str(self.path)

    @property
    def limits(self) -> IndexLimits:
        return self._index.limits

    def cached_bytes(self) -> int:
        return self._index.limits.cached_bytes()

    @property
    def stale(self) -> bool:
        """True when the stored vectors come from another embedder (``reset()`` it)."""
        return self._index.stale

    def sibling(self, path: Path) -> AsyncSearchIndex:
        """Another index (not opened yet) in ``path``, sharing this one's embedder and limits."""
        limits = self._index.limits
        return AsyncSearchIndex(path, self._embedder, self._family, limits=limits)

    # -- writes ------------------------------------------------------------------

    async def open(self) -> bool:
        """Create or open the table; False when its directory did not exist before."""
        return await trio.to_thread.run_sync(self._open)

    def _open(self) -> bool:
        existed = self.path.exists()
        self._index.open()
        return existed

    async def reset(self) -> None:
        await trio.to_thread.run_sync(self._index.reset)

    async def optimize(self) -> None:
        await trio.to_thread.run_sync(self._index.optimize)

    async def release_idle(self, idle_seconds: float) -> bool:
        """``SearchIndex.release_idle`` in a worker thread: close the table if unused."""
        return await trio.to_thread.run_sync(self._index.release_idle, idle_seconds)

    @property
    def open_now(self) -> bool:
        """The table is open (not closed by ``release_idle`` since its last use)."""
        return self._index.open_now

    @property
    def tables(self) -> int:
        """The LanceDB tables the index holds (``SearchIndex.tables``)."""
        return self._index.tables

    @property
    def opens(self) -> int:
        """Times the table was opened: once, and again after each ``release_idle``."""
        return self._index.opens

    async def layout(self) -> IndexLayout:
        return await trio.to_thread.run_sync(self._index.layout)

    async def add(self, docs: list[IndexDoc], chunk: int, *, new: bool = False) -> None:
        """Embed ``docs`` in chunks on the background threads, then write them in one add
        (``new``: none of their uids is in the index, see ``SearchIndex.add``)."""
        async with self.primed(docs, chunk):
            await self.write(docs, new=new)

    @asynccontextmanager
    async def primed(self, docs: list[IndexDoc], chunk: int) -> AsyncIterator[None]:
        """Embed ``docs`` in chunks on the background threads; inside, a ``write`` of them
        (to this index or a sibling: they share the embedder) only writes.

        What lets the follower embed a batch without holding the index: a
        swap or a purge may come between the embedding and the write.
        """
        async with self._embedder.primed([d.text for d in docs], chunk):
            yield

    async def write(self, docs: list[IndexDoc], *, new: bool = False) -> None:
        """Write ``docs`` (``SearchIndex.add``) in a worker thread: their vectors come
        from ``primed``; a doc not primed is embedded there and then."""
        await trio.to_thread.run_sync(functools.partial(self._index.add, docs, new=new))

    async def forget_session(self, session: str, scope: str) -> None:
        """Delete a forgotten session's docs, and its own scope's when it was ``session/<name>``."""
        await trio.to_thread.run_sync(self._index.delete_session, session)
        if scope == default_scope(session):
            await trio.to_thread.run_sync(self._index.delete_scope, scope)

    async def delete_uids(self, uids: list[str]) -> None:
        """Delete the docs with these uids (a popped message's)."""
        await trio.to_thread.run_sync(self._index.delete_uids, uids)

    async def delete_scope(self, scope: str) -> None:
        await trio.to_thread.run_sync(self._index.delete_scope, scope)

    async def delete_episodes(self, scope: str) -> None:
        await trio.to_thread.run_sync(self._index.delete_episodes, scope)

    async def replace_scope(self, memory: MemoryStore, scope: str, entries: int | None) -> None:
        """Re-add the scope's newest ``entries`` episodes (all when None) and replace its facts
        (with all of them, the facts its history retired as well: a forgotten fact leaves
        the history too)."""
        text = await memory.read_memory(scope)
        history = await memory.entries(scope, limit=entries)
        docs = memory_docs(scope, text, history)
        await trio.to_thread.run_sync(self._replace_docs, scope, docs, entries is None)

    def _replace_docs(self, scope: str, docs: list[IndexDoc], retired: bool) -> None:
        self._index.delete_facts(scope, retired=retired)
        self._index.add(docs)

    async def copy_to(self, path: Path, merge: list[str] | None = None) -> AsyncSearchIndex:
        """A new index in ``path`` with exactly these rows: none of the deleted ones' bytes,
        or the generations ``merge`` names made one table (``SearchIndex.copy_to``)."""
        copy = self.sibling(path)
        copy._index = await trio.to_thread.run_sync(
            functools.partial(self._index.copy_to, path, merge=merge or ())
        )
        return copy

    async def merge_plan(self) -> list[str]:
        """The sealed generations due to be merged (``SearchIndex.merge_plan``)."""
        return await trio.to_thread.run_sync(self._index.merge_plan)

    # -- its lifecycle in the data dir (``LiveIndex``) ------------------------------

    @property
    def _dirs(self) -> Directories:
        if self._family.dirs is None:
            raise RuntimeError("an index swapped in the data dir is made by open_index")
        return self._family.dirs

    async def compacted(self, merge: list[str] | None = None) -> AsyncSearchIndex:
        """Copy this index into a new directory (``copy_to``) and name the copy served: one
        SQLite commit. The caller holds the follower's write lock, so nothing is added
        meanwhile, and serves the copy from now on; a copy that fails is removed and
        this index stays named."""
        dirs = self._dirs
        path = dirs.new_path()
        dirs.building.add(path)
        try:
            fresh = await self.copy_to(path, merge)
            await dirs.name_served(path)
        except BaseException:
            with trio.CancelScope(shield=True):
                await self.remove_dir(path)
            raise
        finally:
            dirs.building.discard(path)
        return fresh

    def for_rebuild(self) -> AsyncSearchIndex:
        """A new directory beside this one: the old index serves while it is built."""
        return self.sibling(self._dirs.new_path())

    def mark_served(self, tx: Tx, reached: int) -> None:
        tx.swap_index(self.path.name, reached)

    async def retire(self, old: LiveIndex) -> None:
        if isinstance(old, AsyncSearchIndex) and old.path != self.path:
            await self.unused(old.path)
            await self.remove_dir(old.path)

    async def discard(self) -> None:
        await self.remove_dir(self.path)

    async def drop_replaced(self, serving: Serving) -> None:
        """Remove every directory but this one's, each once no search reads it: the
        replaced ones, and any a crash or an interrupted purge left. Not one a copy or a
        rebuild is writing, nor the one served by then (another swap may have come)."""
        dirs = self._dirs
        for old in await dirs.others(keep=self.path):
            await self.unused(old)
            if serving.rebuilding():  # one of these is the rebuild's
                break
            served = serving.serving()
            if isinstance(served, AsyncSearchIndex) and old == served.path:
                continue
            if old not in dirs.building:
                await self.remove_dir(old)

    # -- reads ---------------------------------------------------------------------

    async def search(self, query: SearchQuery) -> list[SearchHit]:
        """``SearchIndex.search`` in a worker thread, under the family's search limit."""
        index, q = self._index, query
        return await trio.to_thread.run_sync(
            lambda: index.search(q.query, kinds=q.kinds, k=q.k, mode=q.mode, **q.filters()),
            limiter=self._family.limiter,
        )

    async def meaning_among(
        self, query: str, uids: list[str], sessions: list[str]
    ) -> list[SearchHit]:
        """``SearchIndex.meaning_among`` in a worker thread, under the family's search limit."""
        index = self._index
        return await trio.to_thread.run_sync(
            index.meaning_among, query, uids, sessions, limiter=self._family.limiter
        )

    @contextmanager
    def reading(self) -> Iterator[None]:
        """Count a search as reading this directory until it is done."""
        readers = self._family.readers
        readers[self.path] += 1
        try:
            yield
        finally:
            readers[self.path] -= 1

    async def unused(self, path: Path) -> None:
        """Wait until no search reads the index in ``path`` (searches end: they are bounded)."""
        readers = self._family.readers
        while readers[path]:
            await trio.sleep(0.05)
        readers.pop(path, None)

    async def remove_dir(self, path: Path) -> None:
        """Delete an index directory this family no longer serves (call ``unused`` first)."""
        await trio.to_thread.run_sync(lambda: shutil.rmtree(path, ignore_errors=True))
