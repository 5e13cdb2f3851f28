"""The search index of the Postgres engine: messages', episodes' and facts' vectors in pgvector.

What ``AsyncSearchIndex`` (over LanceDB) does for the actors, on one table
of the engine's own database, with the same methods, hits and scores: the
meaning signal is the same cosine of the same half-float vectors (pgvector's
``halfvec`` is LanceDB's float16), and the words signal of episodes and
facts is LanceDB's BM25, kept exactly (``index_words``). So a search, and
its ``min_score``, means the same on both engines.

The table (``index_docs`` unless named) is made by ``open`` or ``reset``,
not by the schema's migration: its vector column has the embedder's
dimension. The embedder's model and dimension are recorded in ``meta``; a
table written by another embedder is ``stale``, refuses reads and writes
(``IndexStale``) until ``reset()``, and its vectors are never mixed with
new ones.

What a directory of LanceDB files needs and a database does not is left
out: no generations, fragments or versions to fold (``optimize`` has
nothing to do: the HNSW and GIN indexes take each row as it commits, and
the words' statistics are exact at every commit), no table to close when
idle, no directory to copy, merge or remove. A deleted row's bytes leave
the disk at the next VACUUM (``Database.compact`` after a forget).

Writes go through the database's writer (``db.write``), one transaction
each: a forget's rows all go or none do. Searches go through its readers.
Vectors are computed before the transaction, on the embedder's threads, so
no transaction waits on the model.
"""

from __future__ import annotations

import logging
from collections.abc import AsyncIterator, Callable, Iterator
from contextlib import asynccontextmanager, contextmanager
from functools import partial
from typing import Any, TypeVar

import msgspec
import numpy as np
import numpy.typing as npt
import psycopg
import trio
from psycopg import sql
from psycopg.types.json import Jsonb

from reverie.config import InvalidArgument, default_scope
from reverie.store import (
    TEXT_WEIGHT,
    VECTOR_WEIGHT,
    IndexDoc,
    IndexLayout,
    IndexStale,
    LiveIndex,
    MemoryStore,
    PrimedEmbedder,
    SearchHit,
    SearchQuery,
    Serving,
    StoreError,
    Tx,
    candidate_depth,
    checked_query,
    fuse,
    memory_docs,
)
from reverie.store.embed.query_vectors import QueryVectors
from reverie.store.search_query import KINDS, fts_query

from .db import PostgresDatabase
from .index_schema import create_table, replace_scope_rows, upsert
from .index_search import filter_sql, on_meaning_scale, text_hits, vector_hits, vector_literal
from .memory_rows import scope_memory

__all__ = ["PostgresSearchIndex", "drop_search_index"]

log = logging.getLogger(__name__)

T = TypeVar("T")
Conn = psycopg.Connection[Any]

#: Reads of a scope that another member keeps changing before ``replace_scope`` gives up.
_SCOPE_READS = 3


class PostgresSearchIndex:
    """The search index in table ``table`` of ``db``, with ``embedder``'s vectors;
    ``open()`` it first."""

    def __init__(
        self,
        db: PostgresDatabase,
        embedder: PrimedEmbedder,
        *,
        table: str = "index_docs",
    ) -> None:
        self.db = db
        self.name = table
        self._table = sql.Identifier(table)
        self._embedder = embedder
        self._queries = QueryVectors(embedder)
        self._meta_key = f"index:{table}"
        self._stale = False
        self.opens = 0

    async def _read(self, fn: Callable[[Conn], T]) -> T:
        """``fn`` on the connection of a read snapshot of the engine's database."""
        return await self.db.read(lambda t: fn(t.conn))

    async def _write(self, fn: Callable[[Conn], T]) -> T:
        """``fn`` on the writer's connection, in the next group-committed transaction."""
        return await self.db.write(lambda t: fn(t.conn))

    # -- lifecycle ---------------------------------------------------------------

    def _written_by(self) -> dict[str, Any]:
        return {"model": self._embedder.model_id, "dimension": self._embedder.dimension}

    async def open(self) -> bool:
        """Create the table (and its indexes) or find it and check its embedder; False
        when it did not exist before."""
        existed, recorded = await self._write(self._open)
        self.opens += 1
        wanted = self._written_by()
        self._stale = existed and recorded != wanted
        if self._stale:
            log.warning(
                "search index %s was built by %s, not %s; it needs a reset",
                self.name,
                recorded or "an unknown embedder",
                wanted,
            )
        return existed

    def _open(self, conn: Conn) -> tuple[bool, object]:
        # Members opening a new index at once make it one at a time: a concurrent
        # CREATE TABLE fails on the catalog's unique index, the next finds the table.
        conn.execute(
            "SELECT pg_advisory_xact_lock(hashtextextended(%s, 0))", ("reverie.index:" + self.name,)
        )
        found = conn.execute("SELECT to_regclass(quote_ident(%s))", (self.name,)).fetchone()
        if found != (None,):
            row = conn.execute("SELECT value FROM meta WHERE key = %s", (self._meta_key,))
            recorded = row.fetchone()
            return True, None if recorded is None else recorded[0]
        self._create(conn)
        return False, self._written_by()

    def _create(self, conn: Conn) -> None:
        create_table(conn, self._table, int(self._embedder.dimension))
        conn.execute(
            "INSERT INTO meta (key, value) VALUES (%s, %s)"
            " ON CONFLICT (key) DO UPDATE SET value = excluded.value",
            (self._meta_key, Jsonb(self._written_by())),
        )
        log.info("created search index %s for %s", self.name, self._embedder.model_id)

    async def reset(self) -> None:
        """Drop every row and make the table again for the current embedder."""
        self._require_open()

        def reset(conn: Conn) -> None:
            conn.execute(sql.SQL("DROP TABLE IF EXISTS {}").format(self._table))
            self._create(conn)

        await self._write(reset)
        self._stale = False

    async def optimize(self) -> None:
        """Nothing to fold: each committed row is indexed, and scored exactly, at once."""
        self._ready()

    async def release_idle(self, idle_seconds: float) -> bool:
        """Always False: the database's connections are the daemon's, not the index's."""
        return False

    @property
    def location(self) -> str:
        """Where it is, for ``status``: the table of the engine's database."""
        return f"table {self.name}"

    @property
    def open_now(self) -> bool:
        return self.opens > 0

    @property
    def tables(self) -> int:
        return 1

    def cached_bytes(self) -> int:
        """Nothing cached in the daemon: the database's buffers are the server's."""
        return 0

    @property
    def stale(self) -> bool:
        """True when the stored vectors come from another embedder (``reset()`` it)."""
        return self._stale

    async def layout(self) -> IndexLayout:
        """One table in one version: nothing piles up between optimizes."""
        self._ready()
        return IndexLayout(fragments=1, versions=1)

    async def count(self) -> int:
        self._ready()
        query = sql.SQL("SELECT count(*) FROM {}").format(self._table)
        return await self._read(lambda c: int(c.execute(query).fetchone()[0]))  # type: ignore[index]

    def _require_open(self) -> None:
        if not self.opens:
            raise StoreError("search index used before open()")

    def _ready(self) -> None:
        self._require_open()
        if self._stale:
            raise IndexStale(f"search index {self.name} was built by another embedder; reset it")

    @contextmanager
    def reading(self) -> Iterator[None]:
        """Nothing to hold: a search reads a snapshot, which a reindex's swap cannot remove."""
        yield

    # -- its lifecycle: one table, purged and rebuilt in place (``LiveIndex``) ---------

    async def merge_plan(self) -> list[str]:
        """None: one table, no generations."""
        return []

    async def compacted(self, merge: list[str] | None = None) -> PostgresSearchIndex:
        """Itself: its rows are gone, and the forget's compaction reclaims their bytes."""
        return self

    def for_rebuild(self) -> PostgresSearchIndex:
        """Itself: a reindex writes every doc again in place."""
        return self

    def mark_served(self, tx: Tx, reached: int) -> None:
        tx.write_cursor(reached)

    async def retire(self, old: LiveIndex) -> None:
        """Nothing to remove: the old index was this table."""

    async def discard(self) -> None:
        """Nothing to remove: a rebuild in place wrote only rows the table keeps."""

    async def drop_replaced(self, serving: Serving) -> None:
        """Nothing replaced: one table."""

    # -- writes ------------------------------------------------------------------

    async def add(self, docs: list[IndexDoc], chunk: int, *, new: bool = False) -> None:
        """Embed ``docs`` in chunks on the background threads, then write them in one
        transaction (the last of a uid wins)."""
        async with self.primed(docs, chunk):
            await self.write(docs, new=new)

    @asynccontextmanager
    async def primed(self, docs: list[IndexDoc], chunk: int) -> AsyncIterator[None]:
        """Embed ``docs`` on the background threads; inside, a ``write`` of them only writes."""
        async with self._embedder.primed([d.text for d in docs], chunk):
            yield

    async def write(self, docs: list[IndexDoc], *, new: bool = False) -> None:
        """Upsert ``docs`` (their vectors from ``primed``, else embedded now). ``new`` is
        accepted for the follower's sake: an upsert costs Postgres no more than an insert."""
        rows = await self._rows(docs)
        if rows:
            await self._write(lambda c: upsert(c, self._table, rows))

    async def _rows(self, docs: list[IndexDoc]) -> list[tuple[IndexDoc, str]]:
        """The distinct docs (the last of a uid) with their vectors as pgvector text."""
        self._ready()
        unique = list({d.uid: d for d in docs}.values())
        bad = {d.kind for d in unique} - KINDS
        if bad:
            raise InvalidArgument(f"unknown document kind(s) {sorted(bad)}; use {sorted(KINDS)}")
        if not unique:
            return []
        vectors = await trio.to_thread.run_sync(self._embed, [d.text for d in unique])
        return [(d, vector_literal(v)) for d, v in zip(unique, vectors, strict=True)]

    def _embed(self, texts: list[str]) -> npt.NDArray[np.float32]:
        vectors = self._embedder.embed(texts)
        dim = self._embedder.dimension
        if vectors.shape != (len(texts), dim):
            raise StoreError(
                f"embedder returned shape {vectors.shape}, expected ({len(texts)}, {dim})"
            )
        return np.asarray(vectors, dtype=np.float32)

    async def _delete(self, where: str, *params: Any) -> None:
        self._ready()
        query = sql.SQL("DELETE FROM {} WHERE ").format(self._table) + sql.SQL(where)
        await self._write(lambda c: c.execute(query, params))

    async def forget_session(self, session: str, scope: str) -> None:
        """Delete a forgotten session's docs, and its own scope's when it was
        ``session/<name>``, in one transaction."""
        own = scope if scope == default_scope(session) else None
        await self._delete("session = %s OR scope = %s", session, own)

    async def delete_uids(self, uids: list[str]) -> None:
        """Delete the docs with these uids (a popped message's); unknown ones are ignored."""
        if uids:
            await self._delete("uid = ANY(%s)", sorted(set(uids)))

    async def delete_scope(self, scope: str) -> None:
        await self._delete("scope = %s", scope)

    async def delete_episodes(self, scope: str) -> None:
        """Remove the docs of ``scope``'s history, its ``episode`` docs and the facts they
        retired (before re-adding its edited history)."""
        await self._delete(
            "scope = %s AND (kind = 'episode' OR (kind = 'fact' AND session <> ''))", scope
        )

    async def replace_scope(self, memory: MemoryStore, scope: str, entries: int | None) -> None:
        """Re-add the scope's newest ``entries`` episodes (all when None) and replace its
        facts, in one transaction: a search sees the old facts or the new, never neither.
        With all episodes, the facts its history retired are replaced too (a forgotten
        fact leaves the history as well); else they stay (``is_retired``).

        The scope is read from this index's own database, where the engine's
        ``memory`` keeps it, in one snapshot; its docs are embedded outside
        the transaction, and written only if the scope's rows, read again
        share-locked in it, are still what they were made of
        (``replace_scope_rows``): another member's forget in between is not
        undone. A scope that changed is read again, up to ``_SCOPE_READS``
        times; what changed it indexes it anew after its own commit (a
        consolidation's or edit's hook, another member's through the memory
        watcher, a forget's purge), so giving up leaves nothing stale.
        """
        replace = partial(replace_scope_rows, table=self._table, scope=scope, limit=entries)
        for _ in range(_SCOPE_READS):
            read = await self._read(lambda c: scope_memory(c, scope, entries))
            rows = await self._rows(memory_docs(scope, *read))
            if await self._write(partial(replace, read=read, rows=rows)):
                return
        log.info(
            "scope %s changed while it was indexed, %d times: left to its change",
            scope,
            _SCOPE_READS,
        )

    # -- reads -------------------------------------------------------------------

    async def search(self, query: SearchQuery) -> list[SearchHit]:
        """The ``k`` best docs matching every filter, scored as ``SearchIndex.search``
        scores them: meaning in ``vector`` mode, raw BM25 in ``text`` mode (episodes and
        facts only hold words), both fused in ``hybrid``."""
        q = query
        text = checked_query(q.query, kinds=q.kinds, mode=q.mode, k=q.k)
        self._ready()
        kinds = None if q.kinds is None else sorted(set(q.kinds))
        if kinds == []:
            return []
        where, params = filter_sql(kinds=kinds, **q.filters())
        depth = q.k if q.mode != "hybrid" else candidate_depth(q.k)
        fts = fts_query(text)
        vector = None if q.mode == "text" else await self._vector_of(text)
        table = self._table

        def read(conn: Conn) -> tuple[list[SearchHit], list[SearchHit]]:
            by_vector = (
                [] if vector is None else vector_hits(conn, table, vector, where, params, depth)
            )
            if q.mode == "vector" or not fts:
                return by_vector, []
            return by_vector, text_hits(conn, table, fts, where, params, depth)

        by_cosine, by_text = await self._read(read)
        by_vector = on_meaning_scale(by_cosine)
        if q.mode == "vector" or not fts:
            return by_vector[: q.k]
        if q.mode == "text":
            return by_text
        top = max((h.score for h in by_text), default=1.0) or 1.0
        by_words = [msgspec.structs.replace(h, score=h.score / top) for h in by_text]
        return fuse(by_words, by_vector, (TEXT_WEIGHT, VECTOR_WEIGHT))[: q.k]

    async def meaning_among(
        self, query: str, uids: list[str], sessions: list[str]
    ) -> list[SearchHit]:
        """The docs with these uids, nearest to ``query`` first, scored by ``meaning_score``:
        an exact search over the few rows named (``SearchIndex.meaning_among``)."""
        wanted = sorted(set(uids))
        if not wanted:
            return []
        self._ready()
        vector = await self._vector_of(query)
        where, params = filter_sql(
            scope=None,
            session=None,
            kinds=None,
            since=None,
            until=None,
            uids=wanted,
            sessions=sorted(set(sessions)),
        )
        table = self._table
        hits = await self._read(lambda c: vector_hits(c, table, vector, where, params, len(wanted)))
        return on_meaning_scale(hits)

    async def _vector_of(self, text: str) -> npt.NDArray[np.float32]:
        """The query's vector, embedded on a worker thread (kept for the next search)."""
        return await trio.to_thread.run_sync(self._queries.of, text)


async def drop_search_index(db: PostgresDatabase, table: str = "index_docs") -> None:
    """Drop the index's table and its record (a forget while the index is off: its rows
    cannot be rewritten then); the next ``open`` finds none and it is rebuilt."""

    def drop(tx: Tx) -> None:
        tx.conn.execute(sql.SQL("DROP TABLE IF EXISTS {}").format(sql.Identifier(table)))
        tx.conn.execute("DELETE FROM meta WHERE key = %s", (f"index:{table}",))

    await db.write(drop)
