"""What the search index may hold in this process: replaced versions, caches, I/O threads.

These bounds are LanceDB's process-wide settings rather than the table's: one
``lancedb.Session`` carries the caches of every index made with the same
limits, and Lance reads its I/O setting once per process.
"""

from __future__ import annotations

import os
from dataclasses import dataclass
from datetime import timedelta
from functools import cached_property
from typing import Any

import lancedb

from reverie.config import IndexConfig

__all__ = [
    "GENERATION_ROWS",
    "KEEP_OLD_VERSIONS",
    "MERGED_ROWS",
    "IndexLimits",
    "bound_io_threads",
]

#: The daemon's defaults (``[index]``), which an index made outside it takes too: the
#: reasons for each value are given there, once.
_DAEMON_DEFAULTS = IndexConfig()
#: How long ``optimize`` keeps a replaced version's files by default: searches in flight
#: read them (the daemon takes ``index.keep_versions``).
KEEP_OLD_VERSIONS = timedelta(seconds=60)
#: Rows per generation of messages by default (``index.generation_rows``).
GENERATION_ROWS = _DAEMON_DEFAULTS.generation_rows
#: Rows a table of merged generations may hold by default (``index_tables.merge_run``,
#: ``index.merged_rows``): four generations of the default size.
MERGED_ROWS = _DAEMON_DEFAULTS.merged_rows
#: Lance's own setting for how many reads a scan keeps in flight on a local disk (8 by
#: default). Each runs on a thread of LanceDB's tokio blocking pool, which grows to the
#: reads in flight across concurrent searches, writes and optimizes and keeps a thread
#: while steady load uses it every ten seconds: 67 threads after four minutes of the soak,
#: against 42 with two reads per scan, at the same throughput and search latency
#: (BENCHMARKS.md, "LanceDB's I/O threads").
_LANCE_IO_THREADS = "LANCE_IO_THREADS"


@dataclass
class IndexLimits:
    """What an index may keep: replaced versions for a while, caches up to a size.

    ``keep_versions``: how long ``optimize`` keeps replaced versions. Longer
    than any search runs (a search reads the files of the version it began
    on), and no longer: under steady writes the versions kept are about
    ``keep_versions`` times the write rate.

    ``cache_bytes`` and ``metadata_cache_bytes`` bound LanceDB's two caches
    (index pages; manifests and fragment metadata), which otherwise grow to
    gigabytes. One ``lancedb.Session`` holds both and is shared by every
    index made with these limits (the live one and a rebuild's), so the
    budget holds for them together.

    ``generation_rows``: the rows after which the table new messages go to
    is sealed and another begins (``index_tables``): what one optimize may
    rewrite at most.

    ``merged_rows``: the largest table sealed generations are merged into
    (``index_tables.merge_run``; 0: never merged).
    """

    keep_versions: timedelta = KEEP_OLD_VERSIONS
    cache_bytes: int = _DAEMON_DEFAULTS.cache_mib << 20
    metadata_cache_bytes: int = _DAEMON_DEFAULTS.metadata_cache_mib << 20
    generation_rows: int = GENERATION_ROWS
    merged_rows: int = MERGED_ROWS

    @cached_property
    def session(self) -> Any:
        bound_io_threads()
        return lancedb.Session(
            index_cache_size_bytes=self.cache_bytes,
            metadata_cache_size_bytes=self.metadata_cache_bytes,
        )

    def cached_bytes(self) -> int:
        """What the caches hold now (0 before any index was opened with them)."""
        return int(self.session.size_bytes) if "session" in self.__dict__ else 0

    def drop_caches(self) -> None:
        """Let go of the caches: an index opened after this starts a new, empty pair.

        LanceDB offers no way to empty a ``Session``; it is freed with the last
        connection holding it. An index still open on the old pair (a rebuild's)
        keeps it until it closes: for that while the two pairs together may hold
        twice the bound.
        """
        self.__dict__.pop("session", None)


def bound_io_threads() -> None:
    """Keep a scan's reads in flight to the cores (2 to 8) unless ``LANCE_IO_THREADS`` is set.

    Lance reads the variable once, at its first scan, so this runs before the first
    table opens. On a local disk the reads are page-cache copies that the cores bound
    anyway; an operator with storage that wants more sets the variable in the unit.
    """
    os.environ.setdefault(_LANCE_IO_THREADS, str(min(8, max(2, os.cpu_count() or 2))))
