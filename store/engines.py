"""Which engine keeps the daemon's state, chosen by ``[store] url``, opened in one place.

With no URL the file engine: SQLite for the log, jobs and working memory,
the Markdown tree for each scope's memory, LanceDB for the search index, all
in the data dir. With a ``postgresql://`` URL every durable state lives in
that database (``store.postgres``), and only the socket and the lock stay on
local disk. The daemon's composition root calls ``open_store`` and never
names an engine's classes.
"""

from __future__ import annotations

from collections.abc import Awaitable, Callable
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from reverie.config import ClusterConfig, ConfigError, StoreConfig

from .base.cluster import Cluster
from .base.db import GroupCommit
from .base.index import LiveIndex
from .base.job_leases import JobLeases
from .base.memory_store import MemoryStore
from .embed.primed_embedder import PrimedEmbedder
from .files.db import Database
from .files.index_lifecycle import IndexLimits
from .files.memory_files import MemoryFiles
from .files.memory_store import FileMemoryStore

__all__ = ["Store", "open_store"]


@dataclass(frozen=True)
class Store:
    """The engine's database and memory store (neither opened yet)."""

    db: GroupCommit[Any]
    memory: MemoryStore
    #: Where the state is, fit for a log line: the data dir, or the URL without its password.
    where: str
    #: How the engine makes its search index in its database; None: LanceDB files.
    index_factory: Callable[[PrimedEmbedder, IndexLimits], LiveIndex] | None = None
    #: Deletes that index (a forget while the index is off); None: its directories go.
    drop_index: Callable[[], Awaitable[None]] | None = None
    #: Databases of the engine's other parts (the Postgres index's own connections),
    #: opened after ``db`` and closed before it.
    others: tuple[GroupCommit[Any], ...] = ()
    #: This process among the others sharing the database; None: the files, one daemon.
    cluster: Cluster | None = None
    #: Consolidation jobs any member runs, leased in the database; None: the session actor's.
    leases: JobLeases | None = None

    async def open(self) -> None:
        await self.db.open()
        for other in self.others:
            await other.open()

    async def close(self) -> None:
        for other in self.others:
            await other.close()
        await self.db.close()


def open_store(config: StoreConfig, data_dir: Path, cluster: ClusterConfig | None = None) -> Store:
    """The store ``config`` names; SQLite and the memory tree under ``data_dir`` by default."""
    if config.url:
        return _postgres(config, cluster or ClusterConfig())
    db = Database(
        data_dir / "reverie.sqlite3",
        durability=config.durability,
        read_connections=config.read_connections,
        max_batch=config.max_batch,
    )
    return Store(db, FileMemoryStore(MemoryFiles(data_dir / "memory")), str(data_dir))


def _postgres(config: StoreConfig, cluster: ClusterConfig) -> Store:
    try:
        from .postgres.cluster import PostgresCluster, new_member_id
        from .postgres.db import PostgresDatabase
        from .postgres.index import PostgresSearchIndex, drop_search_index
        from .postgres.job_leases import PostgresJobLeases
        from .postgres.memory_store import MemoryStore as RowMemoryStore
        from .postgres.url import redact_url
    except ImportError as exc:  # psycopg is an extra: reverie[postgres]
        raise ConfigError(
            f"store.url names a PostgreSQL database, but its driver is missing ({exc}); "
            "install it with: pip install 'reverie[postgres]'"
        ) from exc
    member = new_member_id()
    db = PostgresDatabase(
        config.url,
        member=member,
        idle_in_transaction=cluster.owner_ttl,
        read_connections=config.read_connections,
        max_batch=config.max_batch,
    )
    # The index has a writer (and readers) of its own: a vector's HNSW insertion takes
    # milliseconds, and on the appends' writer every append queued behind it (64 clients
    # acked 0.1x SQLite's rate); apart, the database runs both at once.
    index_db = PostgresDatabase(
        config.url,
        member=member,
        idle_in_transaction=cluster.owner_ttl,
        read_connections=2,
        max_batch=config.max_batch,
    )
    return Store(
        db,
        RowMemoryStore(db),
        redact_url(config.url),
        lambda embedder, limits: PostgresSearchIndex(index_db, embedder, limits=limits),
        lambda: drop_search_index(index_db),
        (index_db,),
        PostgresCluster(db, member, cluster.owner_ttl, cluster.job_lease),
        PostgresJobLeases(db, cluster.owner_ttl, cluster.job_lease),
    )
