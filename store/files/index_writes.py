"""How ``SearchIndex`` writes and deletes: embed and upsert docs, seal full generations,
delete by session, scope, kind or uid.

Every write keeps the tables' ``Keys`` ahead of their rows (a search in
between reads a table too many, never one too few) and marks what the next
``optimize`` must fold (``_dirty``) and what the next purge must rewrite
(``_deleted_from``); see ``index_upkeep``.
"""

from __future__ import annotations

from collections.abc import Iterable

import numpy as np
import pyarrow as pa
import pyarrow.compute as pc
from lancedb.expr import Expr, col, lit

from reverie.config import InvalidArgument

from ..errors import StoreError
from ..ranking import IndexDoc
from ..search_query import KINDS
from .index_core import IndexCore, log, wrapped
from .index_schema import stored_text
from .index_tables import HOME, Tables, generation_number, keys_path


class IndexWrites(IndexCore):
    """The index's writes and deletes (a part of ``SearchIndex``)."""

    def add(self, docs: list[IndexDoc], *, new: bool = False) -> None:
        """Embed and upsert ``docs`` (the last of a uid wins); with ``new`` (none of their
        uids is in the index) append them: a third of an upsert's cost.

        Messages go to the open generation, episodes and facts to the home table, one
        write each.
        """
        tables = self._ready()
        unique = list({d.uid: d for d in docs}.values())
        if not unique:
            return
        bad = {d.kind for d in unique} - KINDS
        if bad:
            raise InvalidArgument(f"unknown document kind(s) {sorted(bad)}; use {sorted(KINDS)}")
        vectors = self.embedder.embed([d.text for d in unique])
        dim = self.embedder.dimension
        if vectors.shape != (len(unique), dim):
            raise StoreError(
                f"embedder returned shape {vectors.shape}, expected ({len(unique)}, {dim})"
            )
        columns = {
            "uid": pa.array([d.uid for d in unique], pa.string()),
            "kind": pa.array([d.kind for d in unique], pa.string()),
            "text": pa.array([stored_text(d) for d in unique], pa.string()),
            "vector": pa.FixedSizeListArray.from_arrays(
                pa.array(np.ascontiguousarray(vectors, dtype=np.float32).reshape(-1)), dim
            ).cast(pa.list_(self._vector_type, dim)),
            "scope": pa.array([d.scope for d in unique], pa.string()),
            "session": pa.array([d.session for d in unique], pa.string()),
            "ts": pa.array([d.ts for d in unique], pa.float64()),
            "message_ids": pa.array([list(d.message_ids) for d in unique], pa.list_(pa.string())),
            "source": pa.array([d.source for d in unique], pa.string()),
        }
        self._write(tables, pa.Table.from_pydict(columns, schema=self._schema()), new=new)

    def _write(self, tables: Tables, rows: pa.Table, *, new: bool) -> None:
        """Messages of ``rows`` to the open generation, sealed first if it is full; the
        rest to the home table.

        An upsert of messages that the last write put in a generation sealed since
        (a batch retried after its cursor failed to move) first deletes them there:
        a sealed generation's rows are never upserted, so they would be there twice.
        A generation is sealed only before a write of messages, so the last write
        is the only one a retry can repeat.
        """
        is_message = pc.equal(rows["kind"], "message")
        messages, summaries = rows.filter(is_message), rows.filter(pc.invert(is_message))
        uids = frozenset(messages["uid"].to_pylist())
        if uids and self._open_rows >= self.limits.generation_rows:
            self._seal(tables)
        sealed, written = self._last_messages
        if uids and not new and sealed != tables.open_name and (again := uids & written):
            self._delete_in([sealed], col("uid").isin(sorted(again)), "add")
        if uids:
            self._last_messages = (tables.open_name, uids)
        self._open_rows += self._write_to(tables, tables.open_name, messages, new=new)
        self._write_to(tables, HOME, summaries, new=new)

    def _seal(self, tables: Tables) -> None:
        """Open the generation after the full open one (``tables.open_name`` then names it).

        The next two optimizes optimize the sealed table: the first folds its
        last writes, the second drops the versions they replaced. If
        ``release_idle`` closed the tables meanwhile, the write goes to them
        unsealed, and the next write after they reopen seals.
        """
        sealed = tables.open_name
        number = generation_number(sealed)
        assert number is not None
        with self._lock:
            if self._tables is not tables:
                return
            with wrapped("add"):
                self._keys[sealed].save(keys_path(self.path, sealed))
                self._add_generation(number + 1)
        self._dirty.add(sealed)
        self._sealed.add(sealed)
        log.info("search index %s: generation %s sealed", self.path, sealed)

    def _write_to(self, tables: Tables, name: str, rows: pa.Table, *, new: bool) -> int:
        """Write ``rows`` to table ``name``; the rows it gained."""
        if not rows.num_rows:
            return 0
        table = tables.by_name[name]
        self._dirty.add(name)
        # The keys before the rows: a search in between reads one table too many, never
        # one too few. A sealed table written to (the home table, by a consolidation)
        # has its saved keys rewritten first, for the same reason across a crash.
        self._keys[name].add(rows)
        if name != tables.open_name:
            with wrapped("add"):
                self._keys[name].save(keys_path(self.path, name))
        if new:
            with wrapped("add"):
                table.add(rows)
            return int(rows.num_rows)
        with wrapped("add"):
            result = (
                table.merge_insert("uid")
                .when_matched_update_all()
                .when_not_matched_insert_all()
                .execute(rows)
            )
        if name == HOME and (result.num_updated_rows or result.num_deleted_rows):
            self._text_stats_stale = True
        return int(result.num_inserted_rows)

    def _delete_in(self, names: Iterable[str], where: Expr, what: str) -> None:
        """Delete the rows matching ``where`` from the tables named."""
        tables = self._ready()
        for name in names:
            with wrapped(what):
                tables.by_name[name].delete(where)
            self._dirty.add(name)
            self._deleted_from.add(name)
            self._text_stats_stale |= name == HOME

    def _delete_where(self, where: Expr, what: str, **filters: str) -> None:
        """Delete the rows matching ``where`` from every table that may hold ``filters``'."""
        tables = self._ready()
        names = [n for n in tables.by_name if self._keys[n].may_hold(**filters)]
        self._delete_in(names, where, what)

    def delete_session(self, session: str) -> None:
        """Remove every doc of ``session`` (messages and episodes it produced)."""
        self._delete_where(col("session") == lit(session), "delete_session", session=session)

    def delete_scope(self, scope: str) -> None:
        """Remove every doc of ``scope``."""
        self._delete_where(col("scope") == lit(scope), "delete_scope", scope=scope)

    def delete_facts(self, scope: str, *, retired: bool = False) -> None:
        """Remove the ``MEMORY.md`` fact docs of ``scope`` (before re-adding its rewritten
        MEMORY.md), and with ``retired`` those its history retired too (``is_retired``)."""
        where = (col("scope") == lit(scope)) & (col("kind") == lit("fact"))
        if not retired:
            where = where & (col("session") == lit(""))
        self._delete_in([HOME], where, "delete_facts")

    def delete_episodes(self, scope: str) -> None:
        """Remove the docs of ``scope``'s history, its ``episode`` docs and the facts they
        retired (before re-adding its edited history)."""
        retired = (col("kind") == lit("fact")) & (col("session") != lit(""))
        where = (col("scope") == lit(scope)) & ((col("kind") == lit("episode")) | retired)
        self._delete_in([HOME], where, "delete_episodes")

    def delete_uids(self, uids: Iterable[str]) -> None:
        """Remove the docs with these uids; unknown uids are ignored."""
        wanted = sorted(set(uids))
        if wanted:
            self._delete_in(list(self._ready().by_name), col("uid").isin(wanted), "delete_uids")
