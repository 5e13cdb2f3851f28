"""An engine is imported when it is opened: a daemon on PostgreSQL loads no LanceDB.

Each case runs the daemon's start path in a fresh interpreter (its modules,
``open_store``, the index the indexer opens) and reads ``sys.modules``:
what a process has imported is only visible from a process of its own.
"""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

#: The daemon's modules (``reverie serve``), the store the URL names, and its index.
START = """
import json, sys
import trio
import reverie.daemon.cli.serve, reverie.daemon.app
from reverie.config import IndexConfig, StoreConfig
from reverie.store import open_store

store = open_store(StoreConfig(url=sys.argv[1]), __import__("pathlib").Path(sys.argv[2]))
after_open = sorted(m for m in ("lancedb", "reverie.store.files", "reverie.store.postgres") if m in sys.modules)


async def index_type():
    # SQLite is opened (its file is local); a PostgreSQL database need not be reachable:
    # its index is made without a connection, and imported with what it needs.
    if not sys.argv[1]:
        await store.open()
    try:
        return type(await store.open_index(None, IndexConfig())).__name__
    finally:
        if not sys.argv[1]:
            await store.close()


index = trio.run(index_type)
print(json.dumps({
    "after_open": after_open,
    "after_index": sorted(m for m in ("lancedb", "reverie.store.files") if m in sys.modules),
    "index": index,
}))
"""


def _start(url: str, data_dir: Path) -> dict[str, object]:
    done = subprocess.run(
        [sys.executable, "-c", START, url, str(data_dir)],
        capture_output=True,
        text=True,
        timeout=120,
        check=False,
    )
    assert done.returncode == 0, done.stderr
    return dict(json.loads(done.stdout))


def test_a_postgres_daemon_imports_neither_lancedb_nor_the_file_engine(tmp_path: Path) -> None:
    seen = _start("postgresql://nobody@/reverie?host=/nonexistent", tmp_path)
    assert seen == {
        "after_open": ["reverie.store.postgres"],
        "after_index": [],
        "index": "PostgresSearchIndex",
    }


def test_the_file_engine_imports_lancedb_only_when_its_index_opens(tmp_path: Path) -> None:
    seen = _start("", tmp_path)
    assert seen == {
        "after_open": ["reverie.store.files"],
        "after_index": ["lancedb", "reverie.store.files"],
        "index": "AsyncSearchIndex",
    }
