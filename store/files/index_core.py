"""The state ``SearchIndex``'s parts share, and the one door its writes, upkeep and
searches go through (``_ready``).

``SearchIndex`` is one object over the tables, but its code falls into four
parts that each read as a whole: its lifecycle (``index``), writes and
deletes (``index_writes``), upkeep (``index_upkeep``) and searches
(``index_search``). They are mixins over this base, which holds every
attribute they share (all set here, in one ``__init__``, so none is a
surprise to another part) and declares the two things the parts ask of the
lifecycle: ``_ready`` (the tables, open and built by our embedder),
``_add_generation`` (a new open generation, when a write seals the last)
and ``open`` (of a copy, see ``copy_to``).
"""

from __future__ import annotations

import logging
import threading
import time
from abc import ABC, abstractmethod
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

import pyarrow as pa

from reverie.config import ReverieError

from ..embed.embeddings import Embedder
from ..embed.query_vectors import QueryVectors
from ..errors import StoreError
from .index_limits import IndexLimits
from .index_schema import NEW_VECTOR_TYPE, table_schema
from .index_tables import Keys, Tables

log = logging.getLogger("reverie.store.files.index_lifecycle")


@contextmanager
def wrapped(what: str) -> Iterator[None]:
    """LanceDB, Arrow and OS errors leave as StoreError; reverie's own pass through."""
    try:
        yield
    except ReverieError:
        raise
    except Exception as exc:
        raise StoreError(f"search index {what} failed: {type(exc).__name__}: {exc}") from exc


class IndexCore(ABC):
    """The attributes every part of ``SearchIndex`` reads or writes, and its schema."""

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

    def _schema(self) -> pa.Schema:
        return table_schema(self.embedder.model_id, self.embedder.dimension, self._vector_type)

    @abstractmethod
    def open(self) -> None:
        """Create or open the tables (``SearchIndex.open``)."""

    @abstractmethod
    def _ready(self) -> Tables:
        """The tables to read or write (``SearchIndex._ready``)."""

    @abstractmethod
    def _add_generation(self, number: int) -> None:
        """Open a new generation after the full one (``SearchIndex._add_generation``)."""
