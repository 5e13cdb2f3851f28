"""Which engine keeps the daemon's state, chosen by ``[store] url``, opened in one place.

With no URL the file engine (``files/``): SQLite for the log, jobs and
working memory, the Markdown tree for each scope's memory, LanceDB for the
search index, all in the data dir. With a ``postgresql://`` URL every
durable state lives in that database (``postgres/``), and only the socket
and the lock stay on local disk. The daemon's composition root calls
``open_store`` and never names an engine's classes.

An engine's package is imported here, when that engine is opened, and
LanceDB only when the file engine's index opens, on a worker thread while
the daemon already serves (docs/design.md, "Start-up"): a daemon on
PostgreSQL never loads the file engine or LanceDB.
"""

from __future__ import annotations

import importlib
from collections.abc import Awaitable, Callable
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import trio

from reverie.config import ClusterConfig, ConfigError, IndexConfig, InvalidArgument, StoreConfig

from .base.backup import BackupInfo
from .base.cluster import Cluster
from .base.db import GroupCommit
from .base.features import Features
from .base.index import LiveIndex
from .base.job_leases import JobLeases
from .base.memory_store import MemoryStore
from .embed.primed_embedder import PrimedEmbedder

__all__ = ["Store", "open_store"]

#: How an engine makes its search index (not opened yet) for the embedder and ``[index]``.
OpenIndex = Callable[[PrimedEmbedder, IndexConfig], Awaitable[LiveIndex]]


@dataclass(frozen=True)
class Store:
    """The engine's database and memory store (neither opened yet)."""

    db: GroupCommit[Any]
    memory: MemoryStore
    #: Where the state is, fit for a log line: the data dir, or the URL without its password.
    where: str
    #: What the engine has and does (``base/features.py``).
    features: type[Features]
    #: Makes the engine's search index; the indexer opens it.
    open_index: OpenIndex
    #: Deletes that index (a forget while the index is off): the next start rebuilds it.
    drop_index: Callable[[], Awaitable[None]]
    #: Copies the engine's state into a new data dir (``features.backs_up_data_dir``).
    copy_data: Callable[[Path], Awaitable[BackupInfo]] | None = None
    #: Databases of the engine's other parts (the Postgres index's own connections),
    #: opened after ``db`` and closed before it.
    others: tuple[GroupCommit[Any], ...] = ()
    #: This process among the others sharing the database (``features.shared_members``).
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

    async def backup(self, dest: Path) -> BackupInfo:
        """A consistent copy of the state in ``dest``, taken while the daemon serves."""
        if not self.features.backs_up_data_dir or self.copy_data is None:
            raise InvalidArgument(
                "reverie backup copies a data dir; a postgresql store is backed up with the "
                "database's own tools (pg_dump, see docs/scale-out.md)"
            )
        return await self.copy_data(dest)


def open_store(config: StoreConfig, data_dir: Path, cluster: ClusterConfig | None = None) -> Store:
    """The store ``config`` names; SQLite and the memory tree under ``data_dir`` by default."""
    if config.url:
        return _postgres(config, cluster or ClusterConfig())
    return _files(config, data_dir)


def _files(config: StoreConfig, data_dir: Path) -> Store:
    from .files.backup import backup
    from .files.db import Database
    from .files.features import Features as FileFeatures
    from .files.index_directories import drop_index_dirs
    from .files.memory_files import MemoryFiles
    from .files.memory_store import FileMemoryStore

    db = Database(
        data_dir / "reverie.sqlite3",
        durability=config.durability,
        read_connections=config.read_connections,
        max_batch=config.max_batch,
    )
    files = MemoryFiles(data_dir / "memory")

    async def open_index(embedder: PrimedEmbedder, index: IndexConfig) -> LiveIndex:
        # LanceDB's import is most of a default daemon's start (2 s of 3.5 on two quiet
        # cores, 5-7 s loaded): on a worker thread, so the event loop serves meanwhile.
        await trio.to_thread.run_sync(importlib.import_module, "reverie.store.files.index")
        from .files.index import open_index

        return await open_index(db, data_dir, embedder, index)

    return Store(
        db,
        FileMemoryStore(files),
        str(data_dir),
        FileFeatures,
        open_index,
        lambda: drop_index_dirs(data_dir),
        lambda dest: backup(db, files, dest),
    )


def _postgres(config: StoreConfig, cluster: ClusterConfig) -> Store:
    try:
        from .postgres.cluster import PostgresCluster, new_member_id
        from .postgres.db import PostgresDatabase
        from .postgres.features import Features as PostgresFeatures
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

    async def open_index(embedder: PrimedEmbedder, index: IndexConfig) -> LiveIndex:
        return PostgresSearchIndex(index_db, embedder)

    return Store(
        db,
        RowMemoryStore(db),
        redact_url(config.url),
        PostgresFeatures,
        open_index,
        lambda: drop_search_index(index_db),
        others=(index_db,),
        cluster=PostgresCluster(db, member, cluster.owner_ttl, cluster.job_lease),
        leases=PostgresJobLeases(db, cluster.owner_ttl, cluster.job_lease),
    )
