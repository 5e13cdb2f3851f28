"""The search index: messages, history episodes and memory facts in LanceDB tables.

A message row holds its vector but not its text (``text`` is empty): SQLite
keeps the text and ranks messages by their words (``message_text``), and
LanceDB's full-text index, which each ``optimize()`` merges or rebuilds
whole, then covers only episodes and facts instead of growing with the log.
A message hit's text is read back from the log (``with_log_text``). Rows
written before this hold their text: harmless, as LanceDB's text search is
only asked for episodes and facts.

The index is derived data: SQLite and the Markdown memory tree are the truth,
and everything here can be dropped and rebuilt from them. It lives in its own
directory so that rebuilding is ``reset()`` followed by re-adding.

The table's schema metadata records the embedder's ``model_id`` and
``dimension``. An index built by another embedder is reported ``stale`` and
refuses reads and writes until ``reset()``: vectors of two models are never
mixed in one table.

A search reads the table through ``table_reads``: typed filters (a client's
scope or session name cannot change the query) applied before ranking, so
a search in one scope never sees or returns another scope's rows.

Messages go to generations of at most ``IndexLimits.generation_rows`` rows,
episodes and facts to the home table (``index_tables``), so an optimize
costs at most a generation, not the history. A search reads every table
that may hold rows of its filter and merges their hits by score.

The class is synchronous and blocking; the daemon calls it from a worker
thread. Appends should come in batches: each ``add`` writes one fragment
and ``optimize()`` folds fragments together.

Text scores are BM25 with LanceDB's statistics, which count rows that were
replaced or deleted until the full-text index is rebuilt. So ``optimize()``
also rebuilds that index when rows went away since it was built (and once
after opening, since a crash loses that knowledge): after it, the same docs
score the same as in an index built from scratch.
"""

from __future__ import annotations

import logging
import threading
import time
from collections.abc import Iterable, Iterator, Sequence
from contextlib import contextmanager
from pathlib import Path
from typing import Any, ClassVar

import lancedb
import msgspec
import numpy as np
import pyarrow as pa
import pyarrow.compute as pc
from lancedb.expr import Expr, col, lit
from lancedb.index import FTS

from reverie.config import InvalidArgument, ReverieError

from ..embed.embeddings import Embedder
from ..embed.query_vectors import QueryVectors
from ..errors import StoreError
from ..heap import release_free_memory
from ..ranking import TEXT_WEIGHT, VECTOR_WEIGHT, IndexDoc, SearchHit, fuse, meaning_score
from ..search_query import KINDS, Mode, candidate_depth, checked_query, fts_query
from .index_copy import link_table, rewrite_table
from .index_limits import IndexLimits
from .index_schema import NEW_VECTOR_TYPE, ensure_indexes, stored_text, table_schema, written_by
from .index_tables import (
    HOME,
    KEYS_SUFFIX,
    Keys,
    Tables,
    generation_name,
    generation_number,
    keys_path,
    merge_run,
)
from .table_reads import filter_expr, text_hits, vector_hits

__all__ = ["IndexLayout", "IndexLimits", "IndexStale", "SearchIndex"]

log = logging.getLogger(__name__)


class IndexLayout(msgspec.Struct, frozen=True):
    """How many data fragments and table versions the index holds on disk.

    Each write adds one of each until ``optimize`` folds the fragments and
    drops versions older than ``keep_versions``: searches slow down as
    fragments pile up, and every kept version is a manifest LanceDB may cache.
    """

    fragments: int
    versions: int


class IndexStale(StoreError):
    """The index was built by another embedder; ``reset()`` it and re-add its documents."""

    code: ClassVar[str] = "store.index_stale"


@contextmanager
def _wrapped(what: str) -> Iterator[None]:
    """LanceDB, Arrow and OS errors leave as StoreError; reverie's own pass through."""
    try:
        yield
    except ReverieError:
        raise
    except Exception as exc:
        raise StoreError(f"search index {what} failed: {type(exc).__name__}: {exc}") from exc


class SearchIndex:
    """The LanceDB table under ``path``, within ``limits``; call ``open()`` before anything else."""

    def __init__(self, path: Path, embedder: Embedder, limits: IndexLimits | None = None) -> None:
        self.path = path
        self.embedder = embedder
        self.limits = IndexLimits() if limits is None else limits
        self._queries = QueryVectors(embedder)
        self._lock = threading.Lock()
        self._db: Any = None
        self._tables: Tables | None = None
        self._keys: dict[str, Keys] = {}  # by table name; outlive release_idle (see Keys)
        self._dirty: set[str] = set()  # tables written since their last optimize
        #: Tables that may hold deleted rows' bytes: every table at the first open (a
        #: crash forgets), then those deleted from since (``copy_to`` rewrites them).
        self._deleted_from: set[str] = set()
        #: The generation the last messages went to, and their uids (see ``_write``).
        self._last_messages: tuple[str, frozenset[str]] = ("", frozenset())
        self._open_rows = 0  # rows in the open generation (counted at open, then by writes)
        self._sealed: set[str] = set()  # generations sealed and not optimized since
        self._stale = False
        self._vector_type = NEW_VECTOR_TYPE  # the open table's, once opened
        self._text_stats_stale = True  # rows replaced or deleted since the FTS index was built
        self._last_used = time.monotonic()
        self.opens = 0  # times the table was opened: closed by release_idle when _db is None

    # -- lifecycle -----------------------------------------------------------

    def _schema(self) -> pa.Schema:
        return table_schema(self.embedder.model_id, self.embedder.dimension, self._vector_type)

    def _create(self) -> None:
        self._vector_type = NEW_VECTOR_TYPE
        self._keys.clear()
        for saved in self.path.glob(f"*{KEYS_SUFFIX}"):  # a dropped table's
            saved.unlink()
        self._deleted_from.clear()
        self._last_messages = ("", frozenset())
        self._sealed.clear()
        self._tables = Tables(by_name={}, keys=self._keys)
        self._add_generation(0)
        self._stale = False
        log.info("created search index %s for %s", self.path, self.embedder.model_id)

    def _add_generation(self, number: int) -> None:
        """Create generation ``number``'s empty table (with its indexes); it is the open one."""
        assert self._tables is not None
        name = generation_name(number)
        table = self._db.create_table(name, schema=self._schema())
        ensure_indexes(table, name)
        self._keys[name] = Keys()
        self._open_rows = 0
        # A new dict, not the one searches in other threads may be iterating.
        self._tables.by_name = {**self._tables.by_name, name: table}

    def open(self) -> None:
        """Create the tables (and their indexes) or open them and check their embedder."""
        with self._lock, _wrapped("open"):
            self._open()

    def _open(self) -> None:
        """``open``, under the lock."""
        self.path.mkdir(parents=True, exist_ok=True)
        self._db = lancedb.connect(str(self.path), session=self.limits.session)
        self.opens += 1
        names = sorted(
            (number, name)
            for name in self._db.list_tables().tables
            if (number := generation_number(name)) is not None
        )
        if not names or names[0][0] != 0:  # new, or a generation left without its home
            for _, name in names:
                self._db.drop_table(name)
            self._create()
            return
        self._tables = Tables(by_name={}, keys=self._keys)
        open_name = names[-1][1]
        for _, name in names:
            table = self._db.open_table(name)
            ensure_indexes(table, name)
            self._tables.by_name[name] = table
            if name not in self._keys:
                self._keys[name] = self._keys_of(name, table, sealed=name != open_name)
        # A crash loses which tables were written since their last optimize, and whether
        # the home table's text statistics are stale: the next optimize redoes both.
        self._dirty |= {HOME, self._tables.open_name}
        self._open_rows = int(self._tables.by_name[self._tables.open_name].count_rows())
        if self.opens == 1:  # and which hold deleted rows: the first copy rewrites them all
            self._deleted_from = set(self._tables.by_name)
        self._check_embedder(self._tables.home.schema)

    def _keys_of(self, name: str, table: Any, *, sealed: bool) -> Keys:
        """A table's keys: those saved when it was sealed (and before each write to it
        since: the home table's summaries), else read from its rows (the
        open generation's always: it is still written to). So opening reads the
        names of at most a generation, not of the history. A sealed table's keys
        read from its rows (an index from before saved keys, a forget's rewritten
        table, a file that did not read back) are saved for the next open."""
        path = keys_path(self.path, name)
        if sealed and (saved := Keys.load(path)) is not None:
            return saved
        keys = Keys.of(_names_of(table))
        if sealed:
            try:
                keys.save(path)
            except OSError as exc:  # a read-only or full disk: read them again next time
                log.warning("could not save the keys of %s in %s: %s", name, self.path, exc)
        return keys

    def _check_embedder(self, schema: pa.Schema) -> None:
        """Mark the index stale when its vectors come from another embedder than ours."""
        model, dim, self._vector_type = written_by(schema)
        self._stale = model != self.embedder.model_id or dim != self.embedder.dimension
        if self._stale:
            log.warning(
                "search index %s was built by %s (%d dims), not %s (%d dims); it needs a reset",
                self.path,
                model or "an unknown embedder",
                dim,
                self.embedder.model_id,
                self.embedder.dimension,
            )

    def reset(self) -> None:
        """Drop every row and recreate the home table for the current embedder."""
        with self._lock, _wrapped("reset"):
            self._require_open()
            assert self._tables is not None
            for name in self._tables.by_name:
                self._db.drop_table(name)
            self._dirty.clear()
            self._create()

    @property
    def open_now(self) -> bool:
        """Opened, and not closed by ``release_idle`` since."""
        return self._db is not None

    @property
    def tables(self) -> int:
        """The LanceDB tables this index holds: the home table and its generations."""
        return len(self._keys)

    @property
    def stale(self) -> bool:
        """True when the stored vectors come from another embedder than ours."""
        return self._stale

    def _require_open(self) -> None:
        """Open the tables again if ``release_idle`` closed them; call under the lock."""
        if self.opens and self._db is None:
            with _wrapped("open"):
                self._open()
        if self._db is None:
            raise StoreError("search index used before open()")

    def _ready(self) -> Tables:
        """The tables, opened again if ``release_idle`` closed them; the call counts as a use."""
        with self._lock:
            self._require_open()
            if self._stale:
                raise IndexStale(
                    f"search index {self.path} was built by another embedder; reset it"
                )
            self._last_used = time.monotonic()
            assert self._tables is not None
            return self._tables

    def release_idle(self, idle_seconds: float) -> bool:
        """Close the tables and drop LanceDB's caches if nothing used the index for
        ``idle_seconds``, then give the freed heap back; True if it did.

        An idle daemon thus holds none of the tables' state or cached index
        pages (33 MiB at 30,000 messages with 16 MiB caches); the next search or write opens them
        again (milliseconds), with empty caches. A call under way keeps its
        own reference to a table and finishes on it.
        """
        with self._lock:
            idle = time.monotonic() - self._last_used >= idle_seconds
            if self._db is None or not idle:
                return False
            self._tables = self._db = None
            self.limits.drop_caches()
        release_free_memory()
        log.info("closed the idle search index after %.0fs without use", idle_seconds)
        return True

    # -- writes --------------------------------------------------------------

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
            with _wrapped("add"):
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
            with _wrapped("add"):
                self._keys[name].save(keys_path(self.path, name))
        if new:
            with _wrapped("add"):
                table.add(rows)
            return int(rows.num_rows)
        with _wrapped("add"):
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
            with _wrapped(what):
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

    def delete_facts(self, scope: str) -> None:
        """Remove the ``fact`` docs of ``scope`` (before re-adding its rewritten MEMORY.md)."""
        where = (col("scope") == lit(scope)) & (col("kind") == lit("fact"))
        self._delete_in([HOME], where, "delete_facts")

    def delete_episodes(self, scope: str) -> None:
        """Remove the ``episode`` docs of ``scope`` (before re-adding its edited history)."""
        where = (col("scope") == lit(scope)) & (col("kind") == lit("episode"))
        self._delete_in([HOME], where, "delete_episodes")

    def delete_uids(self, uids: Iterable[str]) -> None:
        """Remove the docs with these uids; unknown uids are ignored."""
        wanted = sorted(set(uids))
        if wanted:
            self._delete_in(list(self._ready().by_name), col("uid").isin(wanted), "delete_uids")

    def optimize(self) -> None:
        """Fold fragments together, refresh indexes and drop old versions, in each table
        written since its last optimize.

        Afterwards every doc is in the indexes and text scores equal those of
        an index built from scratch over the same docs. Versions older than
        ``limits.keep_versions`` are deleted; younger ones stay, because a search
        that began on one still reads its files. A generation sealed since the
        last optimize is optimized once more by the next, which drops those.
        """
        tables = self._ready()
        dirty, self._dirty = self._dirty, set()
        try:
            for name in [n for n in tables.by_name if n in dirty]:
                self._optimize_table(tables.by_name[name], home=name == HOME)
                dirty.discard(name)
                if name in self._sealed:
                    self._sealed.discard(name)
                    self._dirty.add(name)
        finally:
            self._dirty |= dirty

    def _optimize_table(self, table: Any, *, home: bool) -> None:
        with _wrapped("optimize"):
            table.optimize(cleanup_older_than=self.limits.keep_versions)
            if home and self._text_stats_stale:
                table.create_index("text", config=FTS(), replace=True)
                self._text_stats_stale = False

    def copy_to(self, path: Path, *, merge: Sequence[str] = ()) -> SearchIndex:
        """A new index in ``path`` with exactly this one's rows: without any deleted
        row's bytes (a purge), or with the sealed generations ``merge`` names (a
        ``merge_plan``) made one table.

        LanceDB only marks deleted rows as deleted: their bytes stay in the
        data files (and the text index) of this directory until the fragment
        is rewritten. A purge writes afresh each table that may hold such rows
        (deleted from since the first open or the last purge: a forget's
        session's generations), one at a time, its vectors copied, not
        recomputed. A merge writes the merged table afresh, named as the last
        of its generations (the order of the names stays the order of the
        writes). Every other table shares its files with this one
        (``link_table``); after a merge, the tables a purge would have
        rewritten still will be. Once the daemon serves the copy and this
        directory is removed, a forgotten text is gone from the disk, and a
        forget costs the generations it touched.
        """
        tables = self._ready()
        merged, keep = set(merge), self.limits.keep_versions
        with _wrapped("copy"):
            db = lancedb.connect(str(path), session=self.limits.session)
            for name, table in tables.by_name.items():
                if name in merged:
                    continue
                if not merged and name in self._deleted_from:
                    rewrite_table([table], db, name, self._schema(), keep)
                else:
                    link_table(self.path, name, path)
            if merge:
                sources = [tables.by_name[name] for name in merge]
                rewrite_table(sources, db, merge[-1], self._schema(), keep)
        copy = SearchIndex(path, self.embedder, self.limits)
        copy.open()
        copy._deleted_from = self._deleted_from - merged if merged else set()
        # The last write goes with the copy (a retry of it may come on the copy, see
        # ``_write``), under the name its table has there.
        last, uids = self._last_messages
        copy._last_messages = (merge[-1] if last in merged else last, uids)
        copy._text_stats_stale = True
        copy.optimize()
        return copy

    def merge_plan(self) -> list[str]:
        """The sealed generations due to be merged into one table (``merge_run``), oldest
        first; [] when none are. Reads each sealed table's row count (its manifest)."""
        names = list(self._ready().by_name.items())[1:-1]  # after home, before the open one
        with _wrapped("count"):
            sealed = [(name, int(table.count_rows())) for name, table in names]
        return merge_run(sealed, self.limits.generation_rows, self.limits.merged_rows)

    def count(self) -> int:
        tables = self._ready()
        with _wrapped("count"):
            return sum(int(t.count_rows()) for t in tables.by_name.values())

    def layout(self) -> IndexLayout:
        """The fragments and versions on disk now, all tables together (reads the
        manifests, not the data)."""
        tables = self._ready().by_name.values()
        with _wrapped("layout"):
            fragments = sum(t.stats()["fragment_stats"]["num_fragments"] for t in tables)
            versions = sum(len(t.list_versions()) for t in tables)
        return IndexLayout(fragments=int(fragments), versions=versions)

    # -- search --------------------------------------------------------------

    def search(
        self,
        query: str,
        *,
        scope: str | None = None,
        session: str | None = None,
        kinds: Iterable[str] | None = None,
        k: int = 10,
        since: float | None = None,
        until: float | None = None,
        mode: Mode = "hybrid",
    ) -> list[SearchHit]:
        """The ``k`` best docs matching every given filter (``since <= ts < until``).

        Scores: meaning (``meaning_score`` of the cosine similarity) in
        ``vector`` mode, LanceDB's raw BM25 in ``text`` mode (the daemon's
        search puts it on the words scale with the query's IDF reference,
        which only the message log's index knows). ``hybrid`` fuses the best
        ``candidate_depth(k)`` docs of each (``fuse``), the BM25 scaled by
        its best hit's for want of that reference; if the query has no
        searchable word left it ranks by meaning alone. Only the home table
        holds text (episodes and facts), so only it is searched by words.
        """
        text = checked_query(query, kinds=kinds, mode=mode, k=k)
        kind_list = None if kinds is None else sorted(set(kinds))
        every = self._ready()
        tables = every.reading(session=session, scope=scope, kinds=kind_list)
        if kind_list == [] or not tables:
            return []
        where = filter_expr(scope=scope, session=session, kinds=kind_list, since=since, until=until)
        depth = k if mode != "hybrid" else candidate_depth(k)
        fts = fts_query(text)
        by_vector = [] if mode == "text" else self._by_meaning(tables, text, where, depth)
        by_text: list[SearchHit] = []
        if mode != "vector" and fts and any(t is every.home for t in tables):
            with _wrapped("text search"):
                by_text = text_hits(every.home, fts, where, depth)
        if mode == "vector" or not fts:
            return by_vector[:k]
        if mode == "text":
            return by_text
        top = max((h.score for h in by_text), default=1.0) or 1.0
        by_words = [msgspec.structs.replace(h, score=h.score / top) for h in by_text]
        return fuse(by_words, by_vector, (TEXT_WEIGHT, VECTOR_WEIGHT))[:k]

    def meaning_among(
        self, query: str, uids: Iterable[str], sessions: Iterable[str]
    ) -> list[SearchHit]:
        """The docs with these uids, nearest to ``query`` first, scored by ``meaning_score``.

        How a summary's own messages are ranked (``actors.search.provenance``):
        an exact search over the few rows named, whatever their rank overall.
        ``sessions`` (theirs) lets the session index narrow the rows first, and
        skips the generations holding none of them.
        """
        wanted = sorted(set(uids))
        if not wanted:
            return []
        named = sorted(set(sessions))
        where = col("session").isin(named) & col("uid").isin(wanted)
        tables = self._ready().holding_any(named)
        return self._by_meaning(tables, query, where, len(wanted)) if tables else []

    def _by_meaning(
        self, tables: list[Any], text: str, where: Expr | None, limit: int
    ) -> list[SearchHit]:
        """The ``limit`` nearest docs over ``tables``: each table's nearest, merged."""
        vector = self._queries.of(text)
        with _wrapped("vector search"):
            by_cosine = [
                hit for table in tables for hit in vector_hits(table, vector, where, limit)
            ]
        by_cosine.sort(key=lambda h: (-h.score, h.uid))
        # Ranked by the cosine itself: hits below the meaning floor all score 0, and
        # their order is still the nearest first.
        return [msgspec.structs.replace(h, score=meaning_score(h.score)) for h in by_cosine[:limit]]


def _names_of(table: Any) -> pa.Table:
    """The session and scope columns of every row of ``table`` (for its ``Keys``)."""
    return table.search().select(["session", "scope"]).limit(None).to_arrow()
