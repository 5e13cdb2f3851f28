"""The indexer: keeps the search index following the message log and the memory tree.

It is a session hook (``appended``, ``consolidated``, ``forgotten``), never
on the append path: a hook only sets a flag and wakes the indexer's task,
which reads the messages after its durable cursor from SQLite in batches of
``index.batch_size``, embeds them and upserts them into LanceDB in a worker
thread, then moves the cursor. After a consolidation it re-indexes the
scope's newest history entries and replaces the scope's facts. A forgotten
session's docs are deleted, and searches hide them until then.

Searches (``search``) read the message log's full-text index in SQLite,
which every append's commit keeps current, so a message is found by its
words as soon as its append is acknowledged, however far behind the vector
index is; the reply says how many searched messages have no vector yet.

Once writes have been quiet for ``SETTLE_AFTER`` seconds the indexer
optimizes the index ("settles" it). Only a settled index ranks exactly like
one rebuilt from scratch (see ``SearchIndex.optimize``); until then a
rebuilt index may order text hits differently (invariant 7 of docs/design.md holds at settled points;
``status`` says ``settled``).

``reindex`` rebuilds into a new directory while the old index serves
(``index_build.Rebuild``), then swaps: the directory in use is named in the
``meta`` table, so the swap is one SQLite commit. An index built by another embedder (``stale``) or a
missing index directory is rebuilt from scratch at start.
"""

from __future__ import annotations

import dataclasses
import logging
import os
import shutil
import time
import uuid
from collections import Counter
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import trio

from reverie.config import NotFound, default_scope
from reverie.store import (
    CURSOR_KEY,
    MAX_K,
    TEXT_WEIGHT,
    VECTOR_WEIGHT,
    Embedder,
    IndexDoc,
    LogPosition,
    MemoryFiles,
    Mode,
    SearchHit,
    SearchIndex,
    SessionRecord,
    candidate_depth,
    checked_query,
    count_messages,
    log_position,
    logged_messages,
    messages_after,
    read_cursor,
    read_meta,
    search_message_text,
    specific_first,
    weighted_fusion,
    write_cursor,
    write_meta,
)

from .index_build import Progress, Rebuild, replace_scope, text_docs
from .index_lag import LagClock
from .primed_embedder import PrimedEmbedder
from .services import Services, SessionHooks

__all__ = ["Indexer", "SearchResult"]

log = logging.getLogger(__name__)

DIR_KEY = "index.dir"
DEFAULT_DIR = "index"
#: History entries re-read per consolidated scope (the newest ones: the one just written).
_ENTRIES_PER_CONSOLIDATION = 8
_OPTIMIZE_EVERY = 16
#: Quiet seconds after the last index write before the indexer settles (optimizes) the index.
SETTLE_AFTER = 0.5


_KINDS = ("message", "episode", "fact")


@dataclass(slots=True, frozen=True)
class SearchResult:
    """A search's hits, best first, and how many searched messages lack a vector yet."""

    hits: list[SearchHit]
    unembedded: int


@dataclass(slots=True)
class _Dirty:
    scopes: set[str] = field(default_factory=set)
    forgotten: dict[str, str] = field(default_factory=dict)  # session -> scope
    # What changed while a rebuild ran; it is redone on the new index before the swap.
    rebuild_scopes: set[str] = field(default_factory=set)
    rebuild_forgotten: dict[str, str] = field(default_factory=dict)
    edited: set[str] = field(default_factory=set)  # scopes whose Markdown was edited


class Indexer(SessionHooks):
    """The search index's only writer; ``run`` starts it, ``search`` reads it."""

    def __init__(
        self,
        services: Services,
        memory: MemoryFiles,
        root: Path,
        embedder_factory: Callable[[], Embedder],
    ) -> None:
        self.services = services
        self.memory = memory
        self.root = root
        self.cfg = services.config.index
        self._make_embedder = embedder_factory
        self._embedder: PrimedEmbedder | None = None
        self.index: SearchIndex | None = None
        self._ready = trio.Event()
        self._wake = trio.Event()
        self._dirty = _Dirty()
        self._write_lock = trio.Lock()  # one index writer: the follower or the swap
        self._nursery: trio.Nursery | None = None
        self._batches = 0
        self.indexed = 0
        self.failures = 0
        self.reindex_progress = Progress()
        self._open_error: str = ""
        self._rebuild_scopes = False
        self._lag = LagClock()
        self._unsettled = False  # written to since the last optimize
        # Searches are CPU-bound: more at once than cores only thrash, and they
        # must not take every one of trio's shared worker threads.
        self._search_limit = trio.CapacityLimiter(max(2, os.cpu_count() or 2))
        self._searching: Counter[Path] = Counter()  # searches running, by index directory

    # -- lifecycle -----------------------------------------------------------

    @property
    def embedder(self) -> PrimedEmbedder:
        if self._embedder is None:
            threads = self.services.config.embeddings.threads or os.cpu_count() or 1
            self._embedder = PrimedEmbedder(self._make_embedder(), workers=threads)
        return self._embedder

    async def _add(self, index: SearchIndex, docs: list[IndexDoc]) -> None:
        """Embed on the background threads, then write; a cancel waits for the chunks running."""
        texts = [d.text for d in docs]
        chunk = max(1, self.services.config.embeddings.batch_size)
        try:
            await self.embedder.prime_all(texts, chunk)
            await trio.to_thread.run_sync(index.add, docs)
            self._unsettled = True
        finally:
            self.embedder.forget(texts)

    async def run(self, *, task_status: trio.TaskStatus[None] = trio.TASK_STATUS_IGNORED) -> None:
        """Open (or rebuild) the index in the background, then follow the log until cancelled.

        Ready at once: opening LanceDB must not delay the daemon's socket;
        searches wait for it instead.
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
                await self._follow()
        finally:
            if self._embedder is not None:
                self._embedder.close()

    async def _open(self) -> None:
        name = await self.services.db.read(lambda c: read_meta(c, DIR_KEY))
        path = self.root / (name if isinstance(name, str) and name else DEFAULT_DIR)
        existed = path.exists()
        index = SearchIndex(path, self.embedder)
        await trio.to_thread.run_sync(index.open)
        if index.stale or not existed:
            if index.stale:
                await trio.to_thread.run_sync(index.reset)
            log.info("search index %s is new or stale: indexing everything again", path)
            await self.services.db.write(lambda c: write_cursor(c, 0))
            self._dirty.scopes.update(await trio.to_thread.run_sync(self.memory.scopes))
            self._rebuild_scopes = True
        self.index = index

    def _poke(self) -> None:
        self._wake.set()

    # -- hooks from the session actors -----------------------------------------

    def appended(self, session: SessionRecord) -> None:
        self._lag.appended(time.time())
        self._poke()

    def consolidated(self, session: SessionRecord) -> None:
        self._dirty.scopes.add(session.scope)
        if self.reindex_progress.state == "running":
            self._dirty.rebuild_scopes.add(session.scope)
        self._poke()

    def memory_edited(self, scope: str) -> None:
        self._dirty.edited.add(scope)
        if self.reindex_progress.state == "running":
            self._dirty.rebuild_scopes.add(scope)
        self._poke()

    def forgotten(self, session: str, scope: str) -> None:
        self._dirty.forgotten[session] = scope
        if self.reindex_progress.state == "running":
            self._dirty.rebuild_forgotten[session] = scope
        self._poke()

    # -- following ----------------------------------------------------------------

    async def _follow(self) -> None:
        while True:
            try:
                async with self._write_lock:
                    await self._drain()
                if self._unsettled and await self._quiet(SETTLE_AFTER):
                    async with self._write_lock:
                        await self._optimize()
                    continue
            except Exception:  # keep following: the cursor did not move, the batch is retried
                self.failures += 1
                log.exception("indexing failed; retrying shortly")
                await trio.sleep(1.0)
                continue
            await self._wake.wait()
            self._wake = trio.Event()

    async def _quiet(self, seconds: float) -> bool:
        """True when nothing woke the indexer for ``seconds``."""
        with trio.move_on_after(seconds):
            await self._wake.wait()
        return not self._wake.is_set()

    async def _optimize(self) -> None:
        """Fold the writes so far into the index's fragments and text statistics."""
        index = self.index
        assert index is not None
        await trio.to_thread.run_sync(index.optimize)
        self._unsettled = False

    async def _drain(self) -> None:
        """Index everything pending: forgets first, then messages, then consolidated scopes."""
        index = self.index
        assert index is not None
        while True:
            self._wake = trio.Event()
            await self._apply_forgets(index)
            moved = await self._index_batch(index)
            if moved:
                continue
            if self._dirty.scopes:
                await self._index_scopes(index)
                continue
            if self._dirty.edited:
                await self._index_edits(index)
                continue
            if not self._dirty.forgotten:
                return

    async def _apply_forgets(self, index: SearchIndex) -> None:
        while self._dirty.forgotten:
            session, scope = next(iter(self._dirty.forgotten.items()))
            await trio.to_thread.run_sync(index.delete_session, session)
            if scope == default_scope(session):
                await trio.to_thread.run_sync(index.delete_scope, scope)
            self._unsettled = True
            self._dirty.forgotten.pop(session, None)

    async def _index_batch(self, index: SearchIndex) -> bool:
        db, size = self.services.db, max(1, self.cfg.batch_size)
        cursor = await db.read(read_cursor)
        batch = await db.read(lambda c: messages_after(c, cursor, size))
        if not batch:
            self._lag.indexed(cursor)
            return False
        self._lag.seen((await db.read(log_position)).max_gid, time.time())
        docs = text_docs(batch)
        await self._add(index, docs)
        last = batch[-1][0]
        await db.write(lambda c: write_cursor(c, last))
        self._lag.indexed(last)
        self.indexed += len(docs)
        self._batches += 1
        if self._batches % _OPTIMIZE_EVERY == 0:
            await self._optimize()
        return True

    async def _index_scopes(self, index: SearchIndex) -> None:
        entries = None if self._rebuild_scopes else _ENTRIES_PER_CONSOLIDATION
        while self._dirty.scopes:
            scope = self._dirty.scopes.pop()
            await trio.to_thread.run_sync(replace_scope, index, self.memory, scope, entries)
            self._unsettled = True
        self._rebuild_scopes = False

    async def _index_edits(self, index: SearchIndex) -> None:
        """Edited scopes: every fact and episode re-read, the ones edited away deleted."""
        while self._dirty.edited:
            scope = self._dirty.edited.pop()
            await trio.to_thread.run_sync(index.delete_episodes, scope)
            await trio.to_thread.run_sync(replace_scope, index, self.memory, scope, None)
            self._unsettled = True

    # -- status -------------------------------------------------------------------

    async def status(self) -> dict[str, Any]:
        pos: LogPosition = await self.services.db.read(log_position)
        behind = pos.max_gid - pos.cursor
        since = self._lag.since()
        seconds = 0.0 if since is None else max(0.0, time.time() - since)
        progress = dataclasses.asdict(self.reindex_progress)
        return {
            "enabled": True,
            "ready": self._ready.is_set() and self.index is not None,
            "error": self._open_error,
            "path": str(self.index.path) if self.index is not None else "",
            "cursor": pos.cursor,
            "messages_behind": behind,
            "seconds_behind": round(seconds, 3) if behind else 0.0,
            "indexed": self.indexed,
            "batches": self._batches,
            "settled": self._settled(behind),
            "failures": self.failures,
            "reindex": progress,
        }

    def _settled(self, messages_behind: int) -> bool:
        """Caught up and optimized: answers now equal those of an index rebuilt from scratch."""
        dirty = self._dirty.scopes or self._dirty.forgotten or self._dirty.edited
        return not (messages_behind or dirty or self._unsettled or self._wake.is_set())

    # -- search ---------------------------------------------------------------------

    async def _index(self) -> SearchIndex:
        await self._ready.wait()
        if self.index is None:
            raise NotFound(f"the search index is unavailable: {self._open_error}")
        return self.index

    async def search(
        self,
        query: str,
        *,
        scope: str | None = None,
        session: str | None = None,
        kinds: list[str] | None = None,
        k: int = 10,
        since: float | None = None,
        until: float | None = None,
        mode: Mode = "hybrid",
    ) -> SearchResult:
        """The ``k`` best hits, every acknowledged message included, scored in [0, 1].

        Messages are ranked by words through SQLite's full-text index, which
        their append's own commit updated, and by meaning through the vector
        index, which may lag. The vector signal's weight shrinks with the
        share of the searched messages it has not embedded yet (reported as
        ``unembedded``), so a lagging index cannot push covered messages
        ahead of better text matches. Episodes and facts are ranked by
        LanceDB's full text and vectors.
        """
        query = checked_query(query, kinds=kinds, mode=mode, k=k)
        index = await self._index()
        filters = {"scope": scope, "session": session, "since": since, "until": until}
        hidden = set(self._dirty.forgotten)
        limit = min(k + (len(hidden) and 50), MAX_K)
        depth = candidate_depth(limit)
        want_messages = kinds is None or "message" in kinds
        memory_kinds = [kind for kind in (_KINDS if kinds is None else kinds) if kind != "message"]
        db = self.services.db
        with self._reading(index):  # its directory stays until the search is done
            unembedded, searched = (
                await db.read(lambda c: _vector_gap(c, filters)) if want_messages else (0, 0)
            )
            signals: list[tuple[list[SearchHit], float]] = []
            if mode != "vector":
                by_words: list[SearchHit] = []
                if want_messages:
                    by_words += await db.read(
                        lambda c: search_message_text(c, query, limit=depth, **filters)
                    )
                if memory_kinds:
                    by_words += await self._in_index(
                        index, query, depth, "text", memory_kinds, filters
                    )
                signals.append((_best_first(by_words)[:depth], TEXT_WEIGHT))
            if mode != "text":
                coverage = 1.0 - min(1.0, unembedded / searched) if searched else 1.0
                by_meaning = await self._in_index(index, query, depth, "vector", kinds, filters)
                signals.append((by_meaning, VECTOR_WEIGHT * coverage if mode == "hybrid" else 1.0))
        hits = specific_first(weighted_fusion(signals, limit=depth))[:limit]
        hidden_scopes = {default_scope(name) for name in hidden}
        kept = [h for h in hits if h.session not in hidden and h.scope not in hidden_scopes]
        return SearchResult(hits=kept[:k], unembedded=unembedded)

    async def _in_index(
        self,
        index: SearchIndex,
        query: str,
        depth: int,
        mode: Mode,
        kinds: list[str] | None,
        filters: dict[str, Any],
    ) -> list[SearchHit]:
        """One signal of the LanceDB index, in a worker thread (searches are CPU-bound)."""
        return await trio.to_thread.run_sync(
            lambda: index.search(query, k=depth, mode=mode, kinds=kinds, **filters),
            limiter=self._search_limit,
        )

    @contextmanager
    def _reading(self, index: SearchIndex) -> Iterator[None]:
        self._searching[index.path] += 1
        try:
            yield
        finally:
            self._searching[index.path] -= 1

    async def _unused(self, path: Path) -> None:
        """Wait until no search reads the index in ``path`` (searches end: they are bounded)."""
        while self._searching[path]:
            await trio.sleep(0.05)
        self._searching.pop(path, None)

    # -- forget ---------------------------------------------------------------------

    async def purge(self, session: str | None, scope: str) -> None:
        """Remove a forgotten session's (or an edited scope's) rows, and their bytes, now.

        ``session`` None: only ``scope``'s episodes and facts are re-read from
        the Markdown (a fact was forgotten). The rows go, then the index is
        copied into a new directory holding no trace of them (``copy_to``),
        swapped in with one SQLite commit, and every other index directory is
        removed once no search reads it, so searches in flight never fail.
        """
        index = await self._index_or_none()
        if index is None:
            return
        while self.reindex_progress.state == "running":  # its copy would miss the purge
            await trio.sleep(0.1)
        async with self._write_lock:
            index = self.index
            assert index is not None
            if session is not None:
                await trio.to_thread.run_sync(index.delete_session, session)
            if session is not None and scope == default_scope(session):
                await trio.to_thread.run_sync(index.delete_scope, scope)
            else:
                await trio.to_thread.run_sync(replace_scope, index, self.memory, scope, None)
            name = f"{DEFAULT_DIR}-{uuid.uuid4().hex[:12]}"
            fresh = await trio.to_thread.run_sync(index.copy_to, self.root / name)
            await self.services.db.write(lambda c: write_meta(c, DIR_KEY, name))
            self.index = fresh
            self._unsettled = False
        for old in self._index_dirs(keep=fresh.path):
            await self._unused(old)
            if self.reindex_progress.state == "running":  # one of these is the rebuild's
                break
            await trio.to_thread.run_sync(lambda o=old: shutil.rmtree(o, ignore_errors=True))

    def _index_dirs(self, keep: Path) -> list[Path]:
        """Index directories other than ``keep``: replaced ones, or left by a crash."""
        found = [self.root / DEFAULT_DIR, *self.root.glob(f"{DEFAULT_DIR}-*")]
        return [p for p in found if p.is_dir() and p != keep]

    async def _index_or_none(self) -> SearchIndex | None:
        await self._ready.wait()
        return self.index

    # -- reindex ------------------------------------------------------------------------

    def start_reindex(self) -> bool:
        """Start a rebuild in the background; False when one is already running."""
        if self.reindex_progress.state == "running":
            return False
        if self._nursery is None or self.index is None:
            raise NotFound("the search index is not open yet; retry in a moment")
        name = f"{DEFAULT_DIR}-{uuid.uuid4().hex[:12]}"
        rebuild = Rebuild(
            self.services, self.memory, SearchIndex(self.root / name, self.embedder), self._add
        )
        self.reindex_progress = rebuild.progress
        self._nursery.start_soon(self._reindex, rebuild)
        return True

    async def _reindex(self, rebuild: Rebuild) -> None:
        """Build beside the serving index, catch up under the write lock, swap, drop the old."""
        progress, fresh = rebuild.progress, rebuild.index
        name = fresh.path.name  # the directory the swap points the daemon at
        try:
            await rebuild.build()
            async with self._write_lock:  # the follower waits: nothing is added to the old one
                dirty = self._dirty
                reached = await rebuild.catch_up(
                    {**dirty.rebuild_forgotten, **dirty.forgotten},
                    dirty.rebuild_scopes | dirty.scopes,
                )
                await self.services.db.write(lambda c: _swap(c, name, reached))
                old, self.index = self.index, fresh
                dirty.scopes.clear()
            if old is not None and old.path != fresh.path:
                await self._unused(old.path)
                await trio.to_thread.run_sync(lambda: shutil.rmtree(old.path, ignore_errors=True))
            progress.state = "done"
            log.info("reindex done: %d docs in %s", progress.done, fresh.path)
        except Exception as exc:
            progress.state, progress.error = "failed", f"{type(exc).__name__}: {exc}"
            log.exception("reindex failed; the old index keeps serving")
            await trio.to_thread.run_sync(lambda: shutil.rmtree(fresh.path, ignore_errors=True))
        finally:
            progress.finished = time.time()
            self._dirty.rebuild_scopes.clear()
            self._dirty.rebuild_forgotten.clear()
            self._poke()


def _vector_gap(conn: Any, filters: dict[str, Any]) -> tuple[int, int]:
    """Searched messages the vector index has not embedded yet, and all searched (one read)."""
    unembedded = count_messages(conn, after_gid=read_cursor(conn), **filters)
    if not unembedded:
        return 0, 0
    return unembedded, logged_messages(conn, scope=filters["scope"], session=filters["session"])


def _best_first(hits: list[SearchHit]) -> list[SearchHit]:
    """Messages' and memory's BM25 hits as one ranking, by raw score (ties by uid).

    Both are BM25 over English words, so their raw scores are comparable
    enough; normalising each list on its own would put the best episode level
    with the best message whatever their scores, and one episode stands for
    hundreds of messages.
    """
    return sorted(hits, key=lambda h: (-h.score, h.uid))


def _swap(conn: Any, name: str, reached: int) -> None:
    """Point the daemon at the new directory and its cursor in one commit."""
    write_meta(conn, DIR_KEY, name)
    write_meta(conn, CURSOR_KEY, reached)
