"""Search at scale on the Postgres engine, beside SQLite's, for ``--store``.

The same store as ``bench/search_scale/`` builds, in a fresh database on
the server ``--store`` names (``bench/_engines.py``): the same messages
appended through the client (index off), then the engine's own search index
(pgvector, ``Store.index_factory``) written at the store level with the same
pooled vectors, and the index cursor moved to the log's end, through the
engine-neutral transaction (``Tx``) the daemon's indexer uses. A database is
not cached between runs (every Postgres run starts from a fresh one), so the
build is part of each run.
"""

from __future__ import annotations

import tempfile
import time
from pathlib import Path
from typing import Any

import trio

from bench._engines import postgres_databases, store_config
from bench._machine import say
from bench.search import _PoolEmbedder
from reverie.config import StoreConfig
from reverie.store import PrimedEmbedder, open_store
from reverie.store.files.index_lifecycle import IndexLimits
from tests.daemon_process import DaemonProcess

__all__ = ["postgres_searches"]

_CHUNK = 5_000


async def _index(url: str, embedder: _PoolEmbedder, data_dir: Path) -> None:
    """Write every logged message into the engine's index; the cursor then says all are."""
    store = open_store(StoreConfig(url=url), data_dir)
    assert store.index_factory is not None, "a postgresql:// store makes its index in its database"
    await store.db.open()
    primed = PrimedEmbedder(embedder, 1)  # type: ignore[arg-type]
    try:
        index = store.index_factory(primed, IndexLimits())
        await index.open()
        gid, done = 0, 0
        embedder.bulk = True

        def after(gid: int) -> Any:
            return lambda t: t.messages_after(gid, _CHUNK)

        while batch := await store.db.write(after(gid)):
            await index.write([doc for _, doc in batch], new=True)
            gid, done = batch[-1][0], done + len(batch)
            if done % 20_000 < _CHUNK:
                say(f"  indexed {done:,} messages in Postgres")
        await store.db.write(lambda t: t.write_cursor(t.log_position().max_gid))
    finally:
        embedder.bulk = False
        primed.close()
        await store.db.close()


def postgres_searches(
    spec: str,
    total: int,
    embedder: _PoolEmbedder,
    append: Any,
    measure: Any,
    config: str,
) -> tuple[dict[str, list[float]], str]:
    """Per-mode search milliseconds at ``total`` messages on the Postgres engine, and how
    the build went. ``append(daemon, total)`` and ``measure(data_dir, total, config)``
    are search_scale's own."""
    say(f"\nPostgres engine: {total:,} messages in a fresh database")
    with (
        postgres_databases(spec) as fresh,
        tempfile.TemporaryDirectory(prefix="reverie-scale-") as tmp,
    ):
        url = fresh()
        on_postgres = config + store_config(url)
        daemon = DaemonProcess(Path(tmp), config=on_postgres + "[index]\nenabled = false\n")
        daemon.start()
        try:
            rate = append(daemon, total)
        finally:
            daemon.stop()
        started = time.perf_counter()
        trio.run(_index, url, embedder, Path(tmp) / "data")
        seconds = time.perf_counter() - started
        note = f"appended at {rate:,.0f} messages/s through the client; indexed in {seconds:.0f} s"
        say(f"  {note}")
        return measure(Path(tmp), total, on_postgres), note
