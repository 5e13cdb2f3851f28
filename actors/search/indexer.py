"""The indexer: the search index's owner, kept following the message log and the memory tree.

It is a session hook (``appended``, ``consolidated``, ``forgotten``,
``memory_edited``), never on the append path: a hook only marks what changed
for the follower (``follow.Follower``), whose task writes it into the index.
Searches (``search``, the query path in ``query``) read the log's words and
the index, and hide forgotten sessions until the follower deleted their rows.

``reindex`` rebuilds beside the serving index (``rebuild.Rebuild``), then
swaps it in with one commit; a ``purge`` (a forget) and a ``merge`` of sealed
generations compact it. How is the engine's (``LiveIndex``: the file
engine writes a new LanceDB directory, a table in the database is rebuilt
and purged in place). A stale or missing index is rebuilt from scratch at start.
"""

from __future__ import annotations

import dataclasses
import logging
import os
import time
from collections.abc import Awaitable, Callable
from typing import Any

import trio

from reverie.config import Busy, IndexConfig, NotFound, default_scope
from reverie.store import (
    Embedder,
    LiveIndex,
    LogPosition,
    MemoryStore,
    PrimedEmbedder,
    SearchQuery,
    SessionRecord,
    Tx,
    page_out_code_async,
)

from ..services import Services, SessionHooks
from .follow import Follower
from .query import SearchResult, search
from .rebuild import Progress, Rebuild

__all__ = ["Indexer", "backlog_reason"]

log = logging.getLogger(__name__)


def backlog_reason(behind: int, max_backlog: int) -> str:
    """Why the index is degraded, for a person; "" while ``behind`` is within ``max_backlog``.

    A backlog is not an outage: every acknowledged message is still found by
    its words (the database's full-text index is kept by the append's own commit),
    but the newest ``behind`` ones not by meaning, and episodes and facts of
    new consolidations wait behind them. One that stays past the limit means
    the indexer cannot keep up with the appends (too little CPU for the
    embedder, or a slow embeddings endpoint).
    """
    if behind <= max_backlog:
        return ""
    return (
        f"the search index is {behind:,} messages behind the log (index.max_backlog is"
        f" {max_backlog:,}): searches still find every message by its words, but the"
        " newest ones not by meaning until the indexer catches up"
    )


#: How the engine makes its index, not opened yet (``Store.open_index``).
OpenIndex = Callable[[PrimedEmbedder, IndexConfig], Awaitable[LiveIndex]]


class Indexer(SessionHooks):
    """The search index's only writer; ``run`` starts it, ``search`` reads it.

    The engine makes the index (``open_index``) and keeps its lifecycle: what
    a forget's purge, a merge and a rebuild write and remove is the
    ``LiveIndex``'s, whichever engine keeps it.
    """

    def __init__(
        self,
        services: Services,
        memory: MemoryStore,
        embedder_factory: Callable[[], Embedder],
        open_index: OpenIndex,
    ) -> None:
        self.services = services
        self.memory = memory
        self._open_index = open_index
        self._make_embedder = embedder_factory
        self._embedder: PrimedEmbedder | None = None
        self._follower = Follower(services, memory)
        self._ready = trio.Event()
        self._nursery: trio.Nursery | None = None
        self.reindex_progress = Progress()
        self.code_page_outs = 0  # idle periods whose library code went back to the kernel
        self.merges = 0  # merges of sealed generations swapped in
        self._open_error: str = ""

    @property
    def index(self) -> LiveIndex | None:
        """The index searches read and the follower writes (None until opened)."""
        return self._follower.index

    # -- lifecycle -----------------------------------------------------------

    @property
    def embedder(self) -> PrimedEmbedder:
        if self._embedder is None:
            threads = self.services.config.embeddings.threads or os.cpu_count() or 1
            self._embedder = PrimedEmbedder(self._make_embedder(), workers=threads)
        return self._embedder

    async def run(self, *, task_status: trio.TaskStatus[None] = trio.TASK_STATUS_IGNORED) -> None:
        """Open (or rebuild) the index in the background, then follow the log until cancelled.

        Ready at once: opening the index (LanceDB's import is most of a default
        daemon's start) must not delay the daemon's socket; a search or a
        reindex waits for it instead (``opened``), and ``status`` says
        ``ready`` once it is open.
        """
        try:
            async with trio.open_nursery() as nursery:
                self._nursery = nursery
                task_status.started()
                try:
                    await self._open()
                except Exception as exc:  # a broken index must not take the daemon down
                    self._open_error = f"{type(exc).__name__}: {exc}"
                    log.exception("search index could not be opened; search is unavailable")
                    self._ready.set()
                    return
                self._ready.set()
                nursery.start_soon(self._release_idle)
                nursery.start_soon(self._merge_when_due)
                await self._follower.run()
        finally:
            if self._embedder is not None:
                self._embedder.close()

    async def _release_idle(self) -> None:
        """Drop the local model, and close the index's table, once each is unused for
        ``embeddings.unload_after`` seconds; once the table closes, hand the libraries'
        code pages back to the kernel (``page_out_code_async``).

        An idle daemon then holds no model (about 90 MiB), none of LanceDB's table
        state and caches (33 MiB at 30,000 messages with 16 MiB caches) and none of the code
        only its work touches (about 150 MiB); the first message or search after it
        loads, opens or reads them again. Read each round, so a reload applies.
        """
        while True:
            after = self.services.config.embeddings.unload_after
            await trio.sleep(min(after / 4, 30.0) if after > 0 else 30.0)
            if after > 0:
                await self.embedder.release_idle(after)
                if self.index is not None and await self.index.release_idle(after):
                    self.code_page_outs += bool(await page_out_code_async())

    async def _open(self) -> None:
        index = await self._open_index(self.embedder, self.services.config.index)
        existed = await index.open()
        if index.stale or not existed:
            if index.stale:
                await index.reset()
            log.info("search index %s is new or stale: indexing everything again", index.location)
            await self.services.db.write(lambda t: t.write_cursor(0))
            self._follower.dirty.scopes.update(await self.memory.scopes())
            self._follower.reread_scopes = True
        self._follower.index = index

    # -- hooks from the session actors -----------------------------------------

    def appended(self, session: SessionRecord) -> None:
        self._follower.lag.appended(time.time())
        self._follower.poke()

    def consolidated(self, session: SessionRecord) -> None:
        self._scope_changed(session.scope, self._follower.dirty.scopes)

    def memory_edited(self, scope: str) -> None:
        self._scope_changed(scope, self._follower.dirty.edited)

    def _scope_changed(self, scope: str, pending: set[str]) -> None:
        pending.add(scope)
        if self.rebuilding():
            self._follower.dirty.rebuild_scopes.add(scope)
        self._follower.poke()

    def forgotten(self, session: str, scope: str) -> None:
        dirty = self._follower.dirty
        dirty.forgotten[session] = scope
        if self.rebuilding():
            dirty.rebuild_forgotten[session] = scope
        self._follower.poke()

    def popped(self, session: SessionRecord) -> None:
        if self.rebuilding():
            self._follower.dirty.rebuild_popped = True
        self._follower.pops_pending = True
        self._follower.poke()

    # -- status and search ----------------------------------------------------------

    async def status(self) -> dict[str, Any]:
        follower = self._follower
        pos: LogPosition = await self.services.db.read(Tx.log_position)
        behind = pos.max_gid - pos.cursor
        since = follower.lag.since()
        seconds = 0.0 if since is None else max(0.0, time.time() - since)
        reason = backlog_reason(behind, self.services.config.index.max_backlog)
        ready = self._ready.is_set() and self.index is not None
        return {
            "enabled": True,
            "ready": ready,
            "error": self._open_error,
            "path": self.index.location if self.index is not None else "",
            "cursor": pos.cursor,
            "messages_behind": behind,
            "seconds_behind": round(seconds, 3) if behind else 0.0,
            "indexed": follower.indexed,
            "batches": follower.batches,
            "optimized": follower.optimized,
            # An index not open yet may still be found stale and rebuilt: not settled.
            "settled": ready and follower.settled(behind),
            "failures": follower.failures,
            "reindex": dataclasses.asdict(self.reindex_progress),
            "cache_bytes": self.index.cached_bytes() if self.index is not None else 0,
            "model_loaded": self.embedder.model_loaded,
            "model_loads": self.embedder.model_loads,
            "table_open": self.index is not None and self.index.open_now,
            "table_opens": self.index.opens if self.index is not None else 0,
            "tables": self.index.tables if self.index is not None else 0,
            "merges": self.merges,
            "model_int8": self.embedder.model_int8,
            "code_page_outs": self.code_page_outs,
            "degraded": bool(reason),
            "degraded_reason": reason,
        }

    async def wait_open(self) -> None:
        """Until the open is over, whether it opened the index or failed (no deadline)."""
        await self._ready.wait()

    async def opened(self) -> LiveIndex:
        """The index, once open: a request that comes while it opens waits, up to
        ``index.open_wait`` seconds, and never gets an answer from no index.

        Raises ``Busy`` (retry) if it is still opening then, ``NotFound`` if it
        could not be opened (the error is in ``status`` and the log).
        """
        wait = self.services.config.index.open_wait
        with trio.move_on_after(wait):
            await self._ready.wait()
        if not self._ready.is_set():
            raise Busy(
                f"the search index is still opening after {wait:g} s (index.open_wait; the"
                " daemon has just started): retry in a moment"
            )
        if self.index is None:
            raise NotFound(f"the search index is unavailable: {self._open_error}")
        return self.index

    async def search(self, query: SearchQuery) -> SearchResult:
        """The ``k`` best hits, every acknowledged message included (``query.search``)."""
        index = await self.opened()
        hidden = set(self._follower.dirty.forgotten)
        return await search(self.services.db, index, self.memory, query, hidden)

    async def embed(self, texts: list[str]) -> list[list[float]]:
        """``texts``' vectors from the index's embedder, for a host (``embed``)."""
        return await self.embedder.embed_for_host(texts)

    # -- forget ---------------------------------------------------------------------

    async def purge(self, session: str | None, scope: str) -> None:
        """Remove a forgotten session's (or an edited scope's) rows, and their bytes, now.

        ``session`` None: only ``scope``'s episodes and facts are re-read from
        the Markdown (a fact was forgotten). The rows go, then the index is
        compacted (``LiveIndex.compacted``: on the file engine copied into a new
        directory holding no trace of them, swapped in with one commit, and
        every other index directory removed once no search reads it, so
        searches in flight never fail). The follower holds the write lock for
        one batch's write at a time, so the purge waits for that at most, not
        for the backlog (``follow``).
        """
        await self._ready.wait()
        if self.index is None:
            return
        while self.rebuilding():  # its copy would miss the purge
            await trio.sleep(0.1)
        follower = self._follower
        async with follower.write_lock:
            index = follower.index
            assert index is not None
            if session is not None:
                await index.forget_session(session, scope)
            if session is None or scope != default_scope(session):
                await index.replace_scope(self.memory, scope, None)
            fresh = await self._serve_compacted(index)
        await fresh.drop_replaced(self)

    async def _serve_compacted(self, index: LiveIndex, merge: list[str] | None = None) -> LiveIndex:
        """``index`` compacted, served from now (under the write lock)."""
        fresh = await index.compacted(merge)
        if fresh is not index:
            self._follower.index = fresh
            self._follower.unsettled = False
        return fresh

    def serving(self) -> LiveIndex | None:
        """The index searches read now (``Serving``)."""
        return self.index

    def rebuilding(self) -> bool:
        """Whether a reindex is writing its own index (``Serving``)."""
        return self.reindex_progress.state == "running"

    # -- merging generations ----------------------------------------------------------

    async def _merge_when_due(self) -> None:
        """Merge sealed generations whenever an optimize finds some due; a failed merge
        leaves the index as it was, to be tried again after the next optimize."""
        follower = self._follower
        while True:
            await follower.merge_wanted.wait()
            follower.merge_wanted = trio.Event()
            try:
                await self.merge()
            except Exception:
                log.exception("merging the search index's generations failed; it serves as it was")

    async def merge(self) -> None:
        """Merge the sealed generations due (``SearchIndex.merge_plan``) into one table.

        The index is copied with them merged, under the write lock (the
        follower waits; searches go on reading the old one), and swapped in
        as a purge's copy is. Not while a rebuild runs: its index replaces this one.
        """
        follower = self._follower
        async with follower.write_lock:
            index = follower.index
            if index is None or self.rebuilding():
                return
            names = await index.merge_plan()
            if not names:
                return
            fresh = await self._serve_compacted(index, names)
        self.merges += 1
        log.info("search index: generations %s merged into one table", ", ".join(names))
        await fresh.drop_replaced(self)

    # -- reindex ------------------------------------------------------------------------

    async def start_reindex(self) -> bool:
        """Start a rebuild in the background (once the index is open); False when one is
        already running."""
        index = await self.opened()
        if self.rebuilding():
            return False
        assert self._nursery is not None  # set before the index opens
        # LanceDB: a new directory, swapped in; a table: every doc written again in place.
        rebuild = Rebuild(self.services, self.memory, index.for_rebuild(), self._follower.add)
        self.reindex_progress = rebuild.progress
        self._nursery.start_soon(self._reindex, rebuild)
        return True

    async def _reindex(self, rebuild: Rebuild) -> None:
        """Build beside the serving index, catch up under the write lock, swap, drop the old."""
        progress, fresh, follower = rebuild.progress, rebuild.index, self._follower
        try:
            await rebuild.build()
            async with follower.write_lock:  # the follower waits: nothing is added to the old one
                dirty = follower.dirty
                reached = await rebuild.catch_up(
                    {**dirty.rebuild_forgotten, **dirty.forgotten},
                    dirty.rebuild_scopes | dirty.scopes,
                )
                await self.services.db.write(lambda t: fresh.mark_served(t, reached))
                old, follower.index = follower.index, fresh
                dirty.scopes.clear()
            if old is not None:
                await fresh.retire(old)
            progress.state = "done"
            log.info("reindex done: %d docs in %s", progress.done, fresh.location)
        except Exception as exc:
            progress.state, progress.error = "failed", f"{type(exc).__name__}: {exc}"
            log.exception("reindex failed; the old index keeps serving")
            if fresh is not follower.index:
                await fresh.discard()
        finally:
            progress.finished = time.time()
            follower.dirty.rebuild_scopes.clear()
            follower.dirty.rebuild_forgotten.clear()
            follower.dirty.rebuild_popped = False
            follower.poke()
