"""Online backup: a consistent copy of a data dir, taken while the daemon serves.

The copy is itself a data dir (``reverie.sqlite3`` and ``memory/``), so
``reverie serve --data-dir DIR`` starts on it as it is. The search index is
not copied: it is derived, and a daemon that finds none rebuilds it.

Guarantees:

- The SQLite file is copied with SQLite's online backup API in a single
  step on a connection of its own: one snapshot that holds every write
  committed (so every append acknowledged) before the backup began, while
  the writer goes on (WAL readers do not block it).
- The Markdown tree is copied at the same point: no change to it can happen
  from just before the SQLite snapshot until the tree is copied. The
  consolidation writes the Markdown first and moves the SQLite cursor after,
  so the pair is a state the daemon was in, or one it recovers from as from
  a crash between those two steps (the job replays as a no-op).
- The copy is written into a temporary directory next to ``dest`` and
  renamed into place when complete: ``dest`` exists only whole.
"""

from __future__ import annotations

import os
import shutil
import tempfile
import time
from pathlib import Path

import apsw
import trio

from reverie.config import InvalidArgument

from ..base.backup import BackupInfo
from ..errors import StoreError
from .db import Database
from .memory_files import MemoryFiles
from .rows import one_row

__all__ = ["backup"]

DB_NAME = "reverie.sqlite3"
MEMORY_NAME = "memory"


def _check_dest(dest: Path, data_dir: Path) -> None:
    if not dest.is_absolute():
        raise InvalidArgument(f"backup directory {dest} must be an absolute path")
    if dest.resolve().is_relative_to(data_dir.resolve()):
        raise InvalidArgument(
            f"backup directory {dest} is inside the data dir {data_dir}; name one outside it"
        )
    if dest.exists() and (not dest.is_dir() or any(dest.iterdir())):
        raise InvalidArgument(f"backup directory {dest} exists and is not empty; name a new one")
    if not dest.parent.is_dir():
        raise InvalidArgument(f"parent directory {dest.parent} of the backup does not exist")


def _copy_sqlite(src: Path, dest: Path) -> int:
    """Copy ``src`` into the new file ``dest`` in one backup step; returns its message count."""
    source = apsw.Connection(str(src), flags=apsw.SQLITE_OPEN_READONLY)
    target = apsw.Connection(str(dest))
    try:
        source.set_busy_timeout(30_000)
        with target.backup("main", source, "main") as step:
            step.step(-1)  # all pages at once: one snapshot of the source
        return int(one_row(target, "SELECT count(*) FROM messages")[0])
    finally:
        target.close()
        source.close()


def _fsync_tree(root: Path) -> None:
    for directory, _dirs, files in os.walk(root):
        for name in files:
            fd = os.open(os.path.join(directory, name), os.O_RDONLY)
            try:
                os.fsync(fd)
            finally:
                os.close(fd)
        fd = os.open(directory, os.O_RDONLY)
        try:
            os.fsync(fd)
        finally:
            os.close(fd)


def _backup_sync(db_path: Path, memory: MemoryFiles, dest: Path) -> BackupInfo:
    started = time.monotonic()
    _check_dest(dest, db_path.parent)
    work = Path(tempfile.mkdtemp(prefix=f".{dest.name}.", dir=dest.parent))
    try:
        with memory.paused() as tree:
            messages = _copy_sqlite(db_path, work / DB_NAME)
            if tree.exists():
                shutil.copytree(tree, work / MEMORY_NAME, symlinks=True)
            else:
                (work / MEMORY_NAME).mkdir()
        _fsync_tree(work)
        if dest.exists():
            dest.rmdir()  # empty, checked above
        work.rename(dest)
    except BaseException:
        shutil.rmtree(work, ignore_errors=True)
        raise
    size = sum(f.stat().st_size for f in dest.rglob("*") if f.is_file())
    return BackupInfo(
        path=str(dest), bytes=size, messages=messages, seconds=time.monotonic() - started
    )


async def backup(db: Database, memory: MemoryFiles, dest: Path) -> BackupInfo:
    """Copy the database and the memory tree into the new directory ``dest`` (see the module)."""
    try:
        return await trio.to_thread.run_sync(_backup_sync, db.path, memory, dest)
    except shutil.Error as exc:  # one (src, dst, why) per file that failed: say the first
        failed = exc.args[0] if exc.args and isinstance(exc.args[0], list) else []
        first = failed[0][2] if failed and len(failed[0]) == 3 else str(exc)[:200]
        raise StoreError(
            f"backup to {dest} failed: {len(failed)} files could not be copied, the first: {first}"
        ) from exc
    except (apsw.Error, OSError) as exc:
        raise StoreError(f"backup to {dest} failed: {exc}") from exc
