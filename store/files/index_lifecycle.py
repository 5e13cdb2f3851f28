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

import time
from typing import Any

import lancedb
import pyarrow as pa

from ..base.index import IndexStale
from ..errors import StoreError
from ..heap import release_free_memory
from .index_core import log, wrapped
from .index_limits import IndexLimits
from .index_schema import NEW_VECTOR_TYPE, ensure_indexes, written_by
from .index_search import IndexSearch
from .index_tables import (
    HOME,
    KEYS_SUFFIX,
    Keys,
    Tables,
    generation_name,
    generation_number,
    keys_path,
)
from .index_upkeep import IndexUpkeep
from .index_writes import IndexWrites

__all__ = ["IndexLimits", "SearchIndex"]


class SearchIndex(IndexWrites, IndexUpkeep, IndexSearch):
    """The LanceDB table under ``path``, within ``limits``; call ``open()`` before anything else.

    Its writes, upkeep and searches are the mixins' (``index_writes``,
    ``index_upkeep``, ``index_search``); its state is ``IndexCore``'s.
    """

    # -- lifecycle -----------------------------------------------------------

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
        with self._lock, wrapped("open"):
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
        with self._lock, wrapped("reset"):
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
            with wrapped("open"):
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


def _names_of(table: Any) -> pa.Table:
    """The session and scope columns of every row of ``table`` (for its ``Keys``)."""
    return table.search().select(["session", "scope"]).limit(None).to_arrow()
