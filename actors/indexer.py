"""The indexer: keeps the search index following the message log and the memory tree.

It is a session hook (``appended``, ``consolidated``, ``forgotten``), never
on the append path: a hook only sets a flag and wakes the indexer's task,
which reads the messages after its durable cursor from SQLite in batches of
``index.batch_size``, embeds them and upserts them into LanceDB in a worker
thread, then moves the cursor. After a consolidation it re-indexes the
scope's newest history entries and replaces the scope's facts. A forgotten
session's docs are deleted, and searches hide them until then.

Searches (``search``) run in worker threads. With ``fresh`` they also rank
the messages the index has not taken yet (read from SQLite, embedded on the
fly, bounded to ``FRESH_MAX``) and merge them with the index's hits, so a
message is findable as soon as its append was acknowledged.

``reindex`` rebuilds into a new directory while the old index serves, then
swaps: the directory in use is named in the ``meta`` table, so the swap is
one SQLite commit. An index built by another embedder (``stale``) or a
missing index directory is rebuilt from scratch at start.
"""

from __future__ import annotations

import dataclasses
import logging
import shutil
import threading
import time
import uuid
from collections import OrderedDict
from collections.abc import Callable, Iterable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Literal

import numpy as np
import numpy.typing as npt
import trio

from reverie.config import NotFound
from reverie.store import (
    CURSOR_KEY,
    Embedder,
    IndexDoc,
    LogPosition,
    MemoryFiles,
    SearchHit,
    SearchIndex,
    SessionRecord,
    doc_matches,
    log_position,
    memory_docs,
    messages_after,
    read_cursor,
    read_meta,
    reciprocal_rank_fusion,
    search_delta,
    write_cursor,
    write_meta,
)

from .services import Services, SessionHooks

__all__ = ["FRESH_MAX", "Indexer"]

log = logging.getLogger(__name__)

DIR_KEY = "index.dir"
DEFAULT_DIR = "index"
#: Newest unindexed messages a fresh search ranks in memory; older ones wait for the index.
FRESH_MAX = 512
#: History entries re-read per consolidated scope (the newest ones: the one just written).
_ENTRIES_PER_CONSOLIDATION = 8
_OPTIMIZE_EVERY = 16
MAX_QUERY_CHARS = 2000  # as the index: MiniLM reads 256 tokens at most
Mode = Literal["hybrid", "vector", "text"]


@dataclass(slots=True)
class _Progress:
    state: str = "idle"  # idle | running | done | failed
    done: int = 0
    total: int = 0
    error: str = ""
    started: float = 0.0
    finished: float = 0.0


@dataclass(slots=True)
class _Dirty:
    scopes: set[str] = field(default_factory=set)
    forgotten: dict[str, str] = field(default_factory=dict)  # session -> scope


def _text_docs(pairs: Iterable[tuple[int, IndexDoc]]) -> list[IndexDoc]:
    return [doc for _, doc in pairs if doc.text.strip()]


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
        self._embedder: Embedder | None = None
        self.index: SearchIndex | None = None
        self._ready = trio.Event()
        self._wake = trio.Event()
        self._dirty = _Dirty()
        self._write_lock = trio.Lock()  # one index writer: the follower or the swap
        self._nursery: trio.Nursery | None = None
        self._batches = 0
        self.indexed = 0
        self.failures = 0
        self.reindex_progress = _Progress()
        self._open_error: str = ""
        self._rebuild_scopes = False
        self._reached = 0
        self._vectors_lock = threading.Lock()
        self._vectors: OrderedDict[str, npt.NDArray[np.float32]] = OrderedDict()

    # -- lifecycle -----------------------------------------------------------

    @property
    def embedder(self) -> Embedder:
        if self._embedder is None:
            self._embedder = self._make_embedder()
        return self._embedder

    async def run(self, *, task_status: trio.TaskStatus[None] = trio.TASK_STATUS_IGNORED) -> None:
        """Open (or rebuild) the index in the background, then follow the log until cancelled.

        Ready at once: opening LanceDB must not delay the daemon's socket;
        searches wait for it instead.
        """
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
        self._poke()

    def consolidated(self, session: SessionRecord) -> None:
        self._dirty.scopes.add(session.scope)
        self._poke()

    def forgotten(self, session: str, scope: str) -> None:
        self._dirty.forgotten[session] = scope
        with self._vectors_lock:  # its uids (session, seq) may come back with other text
            self._vectors.clear()
        self._poke()

    # -- following ----------------------------------------------------------------

    async def _follow(self) -> None:
        while True:
            try:
                async with self._write_lock:
                    await self._drain()
            except Exception:  # keep following: the cursor did not move, the batch is retried
                self.failures += 1
                log.exception("indexing failed; retrying shortly")
                await trio.sleep(1.0)
                continue
            await self._wake.wait()
            self._wake = trio.Event()

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
            if not self._dirty.forgotten:
                return

    async def _apply_forgets(self, index: SearchIndex) -> None:
        while self._dirty.forgotten:
            session, scope = next(iter(self._dirty.forgotten.items()))
            await trio.to_thread.run_sync(index.delete_session, session)
            if scope == f"session/{session}":
                await trio.to_thread.run_sync(index.delete_scope, scope)
            self._dirty.forgotten.pop(session, None)

    async def _index_batch(self, index: SearchIndex) -> bool:
        db, size = self.services.db, max(1, self.cfg.batch_size)
        cursor = await db.read(read_cursor)
        batch = await db.read(lambda c: messages_after(c, cursor, size))
        if not batch:
            return False
        docs = _text_docs(batch)
        await trio.to_thread.run_sync(index.add, docs)
        last = batch[-1][0]
        await db.write(lambda c: write_cursor(c, last))
        self.indexed += len(docs)
        self._batches += 1
        if self._batches % _OPTIMIZE_EVERY == 0:
            await trio.to_thread.run_sync(index.optimize)
        return True

    async def _index_scopes(self, index: SearchIndex) -> None:
        entries = None if self._rebuild_scopes else _ENTRIES_PER_CONSOLIDATION
        while self._dirty.scopes:
            scope = self._dirty.scopes.pop()
            await trio.to_thread.run_sync(_replace_scope, index, self.memory, scope, entries)
        self._rebuild_scopes = False

    # -- status -------------------------------------------------------------------

    async def status(self) -> dict[str, Any]:
        pos: LogPosition = await self.services.db.read(log_position)
        behind = pos.max_gid - pos.cursor
        seconds = 0.0 if pos.oldest_ts is None else max(0.0, time.time() - pos.oldest_ts)
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
            "failures": self.failures,
            "reindex": progress,
        }

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
        fresh: bool = True,
    ) -> list[SearchHit]:
        """The ``k`` best hits; with ``fresh``, acknowledged messages not yet indexed too."""
        index = await self._index()
        hidden = set(self._dirty.forgotten)
        hidden_scopes = {f"session/{name}" for name in hidden}
        extra = len(hidden) and 50
        filters: dict[str, Any] = {
            "scope": scope,
            "session": session,
            "kinds": kinds,
            "since": since,
            "until": until,
        }
        hits = await trio.to_thread.run_sync(
            lambda: index.search(query, k=min(k + extra, 1000), mode=mode, **filters)
        )
        if fresh and (kinds is None or "message" in kinds):
            cursor = await self.services.db.read(read_cursor)
            delta = await self.services.db.read(
                lambda c: messages_after(c, cursor, FRESH_MAX, newest=True)
            )
            docs = _text_docs(delta)
            if docs:
                found = await trio.to_thread.run_sync(
                    self._search_delta, query, docs, filters, k, mode
                )
                hits = _merge(hits, found, k=k + extra, mode=mode)
        return [h for h in hits if h.session not in hidden and h.scope not in hidden_scopes][:k]

    def _search_delta(
        self, query: str, docs: list[IndexDoc], filters: dict[str, Any], k: int, mode: Mode
    ) -> list[SearchHit]:
        """Rank unindexed messages in memory; their vectors are cached by uid."""
        kept = [d for d in docs if doc_matches(d, **filters)]
        if not kept:
            return []
        text = query[:MAX_QUERY_CHARS].replace("\x00", " ")
        dim = self.embedder.dimension
        if mode == "text":
            qvec, vecs = np.zeros(dim, np.float32), np.zeros((len(kept), dim), np.float32)
        else:
            with self._vectors_lock:
                known = {d.uid: v for d in kept if (v := self._vectors.get(d.uid)) is not None}
            missing = [d for d in kept if d.uid not in known]
            rows = self.embedder.embed([text, *[d.text for d in missing]])
            qvec = rows[0]
            known.update((d.uid, row) for d, row in zip(missing, rows[1:], strict=True))
            with self._vectors_lock:
                for doc in missing:
                    self._vectors[doc.uid] = known[doc.uid]
                while len(self._vectors) > 2 * FRESH_MAX:
                    self._vectors.popitem(last=False)
            vecs = np.stack([known[d.uid] for d in kept])
        return search_delta(text, qvec, kept, vecs, k=k, mode=mode, **filters)

    # -- reindex ------------------------------------------------------------------------

    def start_reindex(self) -> bool:
        """Start a rebuild in the background; False when one is already running."""
        if self.reindex_progress.state == "running":
            return False
        if self._nursery is None or self.index is None:
            raise NotFound("the search index is not open yet; retry in a moment")
        self.reindex_progress = _Progress(state="running", started=time.time())
        self._nursery.start_soon(self._reindex)
        return True

    async def _reindex(self) -> None:
        progress = self.reindex_progress
        name = f"{DEFAULT_DIR}-{uuid.uuid4().hex[:12]}"
        fresh = SearchIndex(self.root / name, self.embedder)
        try:
            await self._build(fresh, progress)
            async with self._write_lock:  # the follower waits: nothing is added to the old one
                reached = await self._catch_up(fresh, progress)
                await self.services.db.write(lambda c: _swap(c, name, reached))
                old, self.index = self.index, fresh
                self._dirty.scopes.clear()
            if old is not None and old.path != fresh.path:
                await trio.to_thread.run_sync(lambda: shutil.rmtree(old.path, ignore_errors=True))
            progress.state = "done"
            log.info("reindex done: %d docs in %s", progress.done, fresh.path)
        except Exception as exc:
            progress.state, progress.error = "failed", f"{type(exc).__name__}: {exc}"
            log.exception("reindex failed; the old index keeps serving")
            await trio.to_thread.run_sync(lambda: shutil.rmtree(fresh.path, ignore_errors=True))
        finally:
            progress.finished = time.time()
            self._poke()

    async def _build(self, fresh: SearchIndex, progress: _Progress) -> None:
        await trio.to_thread.run_sync(fresh.open)
        pos: LogPosition = await self.services.db.read(log_position)
        scopes = await trio.to_thread.run_sync(self.memory.scopes)
        progress.total = pos.max_gid + len(scopes)
        self._reached = 0
        await self._copy_messages(fresh, progress)
        for scope in scopes:
            await trio.to_thread.run_sync(_replace_scope, fresh, self.memory, scope, None)
            progress.done += 1

    async def _copy_messages(self, fresh: SearchIndex, progress: _Progress) -> None:
        size = max(1, self.cfg.batch_size)
        while True:
            after = self._reached
            batch = await self.services.db.read(lambda c, a=after: messages_after(c, a, size))
            if not batch:
                return
            await trio.to_thread.run_sync(fresh.add, _text_docs(batch))
            self._reached = batch[-1][0]
            progress.done = min(self._reached, progress.total)
            progress.total = max(progress.total, self._reached)

    async def _catch_up(self, fresh: SearchIndex, progress: _Progress) -> int:
        """Copy what arrived during the build; forgets and consolidations since are redone."""
        await self._copy_messages(fresh, progress)
        for session, scope in list(self._dirty.forgotten.items()):
            await trio.to_thread.run_sync(fresh.delete_session, session)
            if scope == f"session/{session}":
                await trio.to_thread.run_sync(fresh.delete_scope, scope)
        for scope in list(self._dirty.scopes):
            await trio.to_thread.run_sync(_replace_scope, fresh, self.memory, scope, None)
        await trio.to_thread.run_sync(fresh.optimize)
        return self._reached


def _swap(conn: Any, name: str, reached: int) -> None:
    """Point the daemon at the new directory and its cursor in one commit."""
    write_meta(conn, DIR_KEY, name)
    write_meta(conn, CURSOR_KEY, reached)


def _replace_scope(
    index: SearchIndex, memory: MemoryFiles, scope: str, entries: int | None
) -> None:
    """Re-add the scope's newest episodes and replace its facts (MEMORY.md was rewritten)."""
    docs = memory_docs(memory, scope, entries=entries)
    index.delete_facts(scope)
    index.add(docs)


def _merge(
    indexed: list[SearchHit], delta: list[SearchHit], *, k: int, mode: Mode
) -> list[SearchHit]:
    """Index hits and fresh hits as one ranking; a doc in both counts once.

    Cosine (vector) and RRF (hybrid) scores are on one scale in both lists,
    so they merge by score. BM25 scores depend on the corpus they were
    computed over, so text hits are fused by rank instead.
    """
    if not delta:
        return indexed
    if mode == "text":
        return reciprocal_rank_fusion([indexed, delta], limit=k)
    best: dict[str, SearchHit] = {}
    for hit in [*indexed, *delta]:
        if hit.uid not in best or hit.score > best[hit.uid].score:
            best[hit.uid] = hit
    return sorted(best.values(), key=lambda h: (-h.score, h.uid))[:k]
