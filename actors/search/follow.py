"""Following the store into the search index: the log after the cursor, and what changed.

Session hooks never work on the append path: they only mark what changed
(``Dirty``) and ``poke`` the follower, whose task reads the messages after
its durable cursor from the database in batches of ``index.batch_size``, embeds
and upserts them, then moves the cursor. After a consolidation it re-indexes
the scope's newest history entries and replaces the scope's facts; after a
Markdown edit it re-reads the whole scope. A forgotten session's docs are
deleted (searches hide them until then); a popped message's row is deleted
(``store.message_pop``: its durable marker is applied before and after each
batch, so a batch read before the pop cannot bring the row back).

The follower holds the indexer's write lock for one write at a time, and
embeds a batch, or a consolidated or edited scope's memory, without it: a
forget's purge waits for one write at most, never for the backlog or an
embedding (``Follower._index_batch`` says how a batch embedded before a
forget keeps the forgotten rows out; a scope is read again under the lock).

A follower that has caught up writes a partial batch no sooner than
``index.write_interval`` after its last batch of messages: each write is a
LanceDB fragment, every search visits every fragment until the next
optimize (about 2 ms each at 30,000 rows on 2 cores), and a follower that
wrote each append's few messages at once piled up hundreds of them between
two optimizes, the soak's searches slowing from one to seven seconds.
Behind, it writes full batches back to back.

Once writes have been quiet for ``SETTLE_AFTER`` seconds the follower
optimizes the index ("settles" it). Steady load is never quiet, so it also
optimizes after ``index.optimize_rows`` indexed messages or
``index.optimize_seconds`` after the first write since the last optimize:
each write adds a fragment and a version, and searches slow down and
LanceDB's caches grow as they pile up. Only a settled index ranks exactly like
one rebuilt from scratch (see ``SearchIndex.optimize``); until then a
rebuilt index may order text hits differently (invariant 7 of
docs/design.md holds at settled points; ``status`` says ``settled``).
"""

from __future__ import annotations

import logging
import time
from dataclasses import dataclass, field

import trio

from reverie.config import ReverieError
from reverie.store import (
    IndexDoc,
    LiveIndex,
    MemoryStore,
    Tx,
    memory_docs,
    message_uid,
)

from ..services import Services
from .lag import LagClock
from .rebuild import final_gid, text_docs

__all__ = ["SETTLE_AFTER", "Dirty", "Follower"]

log = logging.getLogger(__name__)

#: History entries re-read per consolidated scope (the newest ones: the one just written).
_ENTRIES_PER_CONSOLIDATION = 8
#: Quiet seconds after the last index write before the follower settles (optimizes) the index.
SETTLE_AFTER = 0.5
#: Under load, an optimize waits this many times as long as the last one took (see
#: ``Follower._optimize_due``): optimizing takes at most 1 / (1 + this) of the time.
_OPTIMIZE_PACE = 4.0


@dataclass(slots=True)
class Dirty:
    """What the hooks reported and the index does not reflect yet."""

    scopes: set[str] = field(default_factory=set)
    forgotten: dict[str, str] = field(default_factory=dict)  # session -> scope
    # What changed while a rebuild ran; it is redone on the new index before the swap.
    rebuild_scopes: set[str] = field(default_factory=set)
    rebuild_forgotten: dict[str, str] = field(default_factory=dict)
    edited: set[str] = field(default_factory=set)  # scopes whose Markdown was edited
    # A pop came while a rebuild ran: its marker is kept, to be applied to the new index too.
    rebuild_popped: bool = False


class Follower:
    """Writes what changed into ``index`` (the serving one; a swap replaces it) until cancelled.

    ``write_lock`` makes one writer of the index: the follower takes it for
    each write, and a swap (a rebuild's, a purge's, a merge's) takes it to
    hold the follower off between two of them.
    """

    def __init__(self, services: Services, memory: MemoryStore) -> None:
        self.services = services
        self.memory = memory
        self.cfg = services.config.index
        self.index: LiveIndex | None = None
        self.dirty = Dirty()
        self.lag = LagClock()
        self.write_lock = trio.Lock()
        self.batches = 0
        self.indexed = 0
        self.failures = 0
        self.optimized = 0  # optimizes run, settled or under load
        self.unsettled = False  # written to since the last optimize
        #: A drain is running: what it read is not in the index yet (a pop's marker, taken
        #: off ``pops_pending`` before its row is deleted), so the index is not settled.
        self.draining = False
        self._unoptimized_rows = 0  # messages indexed since the last optimize
        self._first_write: float | None = None  # trio time of the first write since then
        self._optimized_at = 0.0  # trio time the last optimize ended
        self._optimize_took = 0.0  # seconds it took
        self._batch_written_at = float("-inf")  # trio time the last batch of messages went in
        self.optimize_pace = _OPTIMIZE_PACE
        self.reread_scopes = False  # a new or reset index: every scope's whole history
        #: Pop markers may be pending (``store.message_pop``): true until a drain applied
        #: them, so at start too (a crash may have left some).
        self.pops_pending = True
        #: Set when an optimize finds sealed generations due to merge; the indexer merges.
        self.merge_wanted = trio.Event()
        self._wake = trio.Event()
        #: The index known to hold exactly the messages up to the cursor: this follower
        #: wrote its last batch and then the cursor. Its next batch's docs are new, so they
        #: are appended, not upserted. Any other index (at start, after a swap or a failed
        #: round, when a batch may be in it without the cursor past it) is upserted into.
        self._in_step: LiveIndex | None = None

    def poke(self) -> None:
        """Something changed: the follower's task runs again."""
        self._wake.set()

    async def add(self, index: LiveIndex, docs: list[IndexDoc], *, new: bool = False) -> None:
        """Embed on the background threads, then write; a cancel waits for the chunks running."""
        await index.add(docs, self.services.config.embeddings.batch_size, new=new)
        self._wrote()

    def _wrote(self) -> None:
        """The index changed: it is unsettled, and its optimize clock runs."""
        self.unsettled = True
        if self._first_write is None:
            self._first_write = trio.current_time()

    def settled(self, messages_behind: int) -> bool:
        """Caught up and optimized: answers now equal those of an index rebuilt from scratch."""
        dirty = self.dirty.scopes or self.dirty.forgotten or self.dirty.edited or self.pops_pending
        busy = self.draining or self.unsettled or self._wake.is_set()
        return not (messages_behind or dirty or busy)

    async def run(self) -> None:
        """Drain, settle once quiet, wait for a poke; a failed round is counted and retried."""
        while True:
            try:
                self.draining = True
                try:
                    await self._drain()
                finally:
                    self.draining = False
                if self.unsettled and await self._quiet(max(SETTLE_AFTER, self._pace_wait())):
                    async with self.write_lock:
                        await self.optimize()
                    continue
            except (
                Exception
            ) as exc:  # keep following: the cursor did not move, the batch is retried
                self._in_step = None  # the batch may be in the index: upsert it again
                self.failures += 1
                if isinstance(exc, ReverieError):  # said by the store (a database restarting)
                    log.warning("indexing failed (%s): %s; retrying shortly", exc.code, exc.message)
                else:
                    log.exception("indexing failed; retrying shortly")
                await trio.sleep(1.0)
                continue
            await self._wake.wait()
            self._wake = trio.Event()

    async def _quiet(self, seconds: float) -> bool:
        """True when nothing woke the follower for ``seconds``."""
        with trio.move_on_after(seconds):
            await self._wake.wait()
        return not self._wake.is_set()

    async def optimize(self) -> None:
        """Fold the writes so far into the index's fragments and text statistics; say
        whether sealed generations are due to merge (``merge_wanted``)."""
        index = self.index
        assert index is not None
        began = trio.current_time()
        await index.optimize()
        # Only a directory of LanceDB files has generations to merge.
        if await index.merge_plan():
            self.merge_wanted.set()
        self._optimized_at = trio.current_time()
        self._optimize_took = self._optimized_at - began
        self.optimized += 1
        self.unsettled = False
        self._unoptimized_rows = 0
        self._first_write = None

    def _optimize_due(self) -> bool:
        """Enough rows or time since the last optimize that load must not put it off.

        An optimize rewrites the open generation whole (LanceDB's compaction),
        so it costs more as that fills, up to ``index.generation_rows`` rows
        (about 1.2 s at 254,000 on 2 quiet cores). Under load that never pauses,
        one every ``optimize_seconds`` would take more of the indexer's time,
        and the CPU that searches and embedding need: the next one waits for
        ``_pace_wait``.
        """
        now = trio.current_time()
        if self._pace_wait() > 0:
            return False
        if self._unoptimized_rows >= self.cfg.optimize_rows:
            return True
        started = self._first_write
        return started is not None and now - started >= self.cfg.optimize_seconds

    def _pace_wait(self) -> float:
        """Seconds until ``optimize_pace`` times the last optimize's time has passed since it.

        Every optimize waits for it, under load and when settling, so optimizing takes at
        most a fifth of the time whatever the index's size: settling after each of a
        trickle of messages would otherwise rewrite a large table every few seconds.
        """
        return self._optimized_at + self.optimize_pace * self._optimize_took - trio.current_time()

    def _current(self) -> LiveIndex:
        """The index served now; read under the write lock (a swap replaces it)."""
        index = self.index
        assert index is not None
        return index

    async def _drain(self) -> None:
        """Index everything pending: forgets first, then messages, then consolidated scopes.

        The write lock is held for one step at a time (the forgets, one batch's
        write, the scopes), never across the backlog, and a batch is embedded
        without it (``_index_batch``): a purge or a swap waits for one step at
        most, however far behind the log the index is.
        """
        while True:
            self._wake = trio.Event()
            async with self.write_lock:
                if self._optimize_due():
                    await self.optimize()
                await self._apply_forgets(self._current())
                await self._apply_pops(self._current())
            if await self._index_batch():
                continue
            if self.dirty.scopes:
                await self._index_scopes()
                continue
            if self.dirty.edited:
                await self._index_edits()
                continue
            if not self.dirty.forgotten:
                return

    async def _apply_forgets(self, index: LiveIndex) -> None:
        while self.dirty.forgotten:
            session, scope = next(iter(self.dirty.forgotten.items()))
            await index.forget_session(session, scope)
            self._wrote()
            self.dirty.forgotten.pop(session, None)

    async def _apply_pops(self, index: LiveIndex) -> None:
        """Delete popped messages' rows; a message that took a popped seq and is indexed
        already is written back (same uid). Markers stay while a rebuild runs."""
        if not self.pops_pending:  # no pop since the last round: no marker to read
            return
        db = self.services.db
        self.pops_pending = False  # a pop from now on sets it again
        markers = await db.read(Tx.pending_unindex)
        if not markers:
            return
        await index.delete_uids([message_uid(m.session, m.seq) for m in markers])
        kept = [d for d in await db.read(lambda t: [t.unindexed_doc(m) for m in markers]) if d]
        if kept:
            await self.add(index, kept)
        self._wrote()
        if self.dirty.rebuild_popped:
            self.pops_pending = True  # applied again to the rebuilt index
        else:
            await db.write(lambda t: t.finish_unindex(markers))

    async def _index_batch(self) -> bool:
        """Index the batch after the cursor; False when the log holds none.

        The batch is read and embedded without the write lock. Under it, it is
        read again and written only if the cursor has not moved and every message
        between the cursor and the batch's last is one embedded; otherwise nothing
        is written and the next round reads afresh. What that catches: a forget
        since the first read deleted rows (written now, they would outlive the
        purge that already ran), a reindex's swap moved the cursor, or an append
        reused the gid of a forgotten newest message.
        """
        db, size = self.services.db, max(1, self.cfg.batch_size)
        cursor = await db.read(Tx.read_cursor)
        upto = await final_gid(db)
        batch = await db.read(lambda t: t.messages_after(cursor, size, upto=upto))
        partial_at = self._partial_batch_at()
        if batch and len(batch) < size and trio.current_time() < partial_at:
            await trio.sleep_until(partial_at)  # more arrive meanwhile
            upto = await final_gid(db)
            batch = await db.read(lambda t: t.messages_after(cursor, size, upto=upto))
        if not batch:
            self.lag.indexed(cursor)
            return False
        self.lag.seen((await db.read(Tx.log_position)).max_gid, time.time())
        last = batch[-1][0]
        chunk = self.services.config.embeddings.batch_size
        async with self._current().primed(text_docs(batch), chunk), self.write_lock:
            kept = await self._still_there(cursor, batch, upto)
            if kept is None:
                return True
            index, docs = self._current(), text_docs(kept)
            await index.write(docs, new=self._in_step is index)
            self._wrote()
            moved = await db.write(lambda t: t.move_cursor(cursor, last, len(kept)))
            self._in_step = index if moved else None  # else: upserted again next round
        if not moved:
            return True
        self.lag.indexed(last)
        self.indexed += len(docs)
        self._unoptimized_rows += len(docs)
        self.batches += 1
        self._batch_written_at = trio.current_time()
        return True

    async def _still_there(
        self, cursor: int, batch: list[tuple[int, IndexDoc]], upto: int | None
    ) -> list[tuple[int, IndexDoc]] | None:
        """The messages of ``batch`` the log still holds, read again at ``cursor``; None when
        the cursor moved or a message in the batch's range is not one of ``batch``."""
        last, embedded = batch[-1][0], dict(batch)

        def again(t: Tx) -> tuple[int, list[tuple[int, IndexDoc]]]:
            # One more than the batch: a range that gained a message shows it.
            return t.read_cursor(), t.messages_after(cursor, len(batch) + 1, upto=upto)

        now, rows = await self.services.db.read(again)
        kept = [(gid, doc) for gid, doc in rows if gid <= last]
        if now != cursor or any(embedded.get(gid) != doc for gid, doc in kept):
            log.info("index batch after %d changed before its write: read again", cursor)
            return None
        return kept

    def _partial_batch_at(self) -> float:
        """The trio time from which a batch smaller than ``index.batch_size`` is written:
        ``index.write_interval`` after the last batch (see the module docstring)."""
        return self._batch_written_at + self.cfg.write_interval

    async def _index_scopes(self) -> None:
        entries = None if self.reread_scopes else _ENTRIES_PER_CONSOLIDATION
        while self.dirty.scopes:
            await self._replace_scope(self.dirty.scopes.pop(), entries, edited=False)
        self.reread_scopes = False

    async def _index_edits(self) -> None:
        """Edited scopes: every fact and episode re-read, the ones edited away deleted."""
        while self.dirty.edited:
            await self._replace_scope(self.dirty.edited.pop(), None, edited=True)

    async def _replace_scope(self, scope: str, entries: int | None, *, edited: bool) -> None:
        """Write the scope's facts and ``entries`` newest episodes, embedded without the
        write lock as a batch of messages is: a forget waits for the write, never for the
        embedding (an edited scope of 300 episodes took 37 s). Under the lock the index
        reads the scope again, so what a forget removed meanwhile is not written back;
        only what changed since the first read is embedded there. A forget's memory
        change is not under this lock: one landing during the write may be written back,
        and the forget's purge, which takes the lock after that change, removes it before
        the forget returns. Another member's forget takes no lock of this daemon: the
        Postgres index checks the scope's rows in its write (docs/design.md, "Several
        daemons on one database")."""
        text = await self.memory.read_memory(scope)
        docs = memory_docs(scope, text, await self.memory.entries(scope, limit=entries))
        chunk = self.services.config.embeddings.batch_size
        async with self._current().primed(docs, chunk), self.write_lock:
            index = self._current()
            if edited:
                await index.delete_episodes(scope)
            await index.replace_scope(self.memory, scope, entries)
            self._wrote()
