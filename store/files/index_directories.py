"""Which index directory serves, and how a new one takes its place.

The search index lives in one directory under the data dir, and the
``meta`` table names it. Replacing the index (a forget's purge, a merge of
generations, a reindex) is therefore writing a whole new directory beside
the served one and one SQLite commit naming it: a crash at any point leaves
one whole index named, never a half-written one. The directories replaced
are removed once no search reads them; any a crash left are removed when the
index next opens.
"""

from __future__ import annotations

import logging
import shutil
import uuid
from pathlib import Path
from typing import Any

import trio

from ..base.db import GroupCommit
from ..base.index_feed import INDEX_DIR_KEY

__all__ = ["DEFAULT_DIR", "Directories", "drop_index_dirs", "index_dirs"]

log = logging.getLogger(__name__)

DEFAULT_DIR = "index"


async def index_dirs(root: Path, keep: Path | None) -> list[Path]:
    """Index directories under ``root`` other than ``keep``: replaced ones, or left by a crash."""

    def listed() -> list[Path]:
        found = [root / DEFAULT_DIR, *root.glob(f"{DEFAULT_DIR}-*")]
        return [p for p in found if p.is_dir() and p != keep]

    return await trio.to_thread.run_sync(listed)


async def drop_index_dirs(root: Path) -> None:
    """A forget while the index is off: delete every index directory under ``root``.

    Their rows cannot be rewritten without the index open, so their files go;
    the next start with the index on finds none and rebuilds it from the log
    and the Markdown, which the forget has already cleared.
    """
    dirs = await index_dirs(root, keep=None)
    for path in dirs:
        await trio.to_thread.run_sync(shutil.rmtree, path)
    if dirs:
        log.info("index is off: %d index directories deleted, rebuilt at the next start", len(dirs))


class Directories:
    """The index root's directories: the one served, new ones being written, the replaced."""

    def __init__(self, db: GroupCommit[Any], root: Path) -> None:
        self.db = db
        self.root = root
        self.building: set[Path] = set()  # directories a copy is writing: never removed

    async def served(self) -> Path:
        """The directory the ``meta`` table names (``index`` before any replacement)."""
        name = await self.db.read(lambda t: t.read_meta(INDEX_DIR_KEY))
        return self.root / (name if isinstance(name, str) and name else DEFAULT_DIR)

    def new_path(self) -> Path:
        """A fresh directory name beside the served one, for a copy or a rebuild."""
        return self.root / f"{DEFAULT_DIR}-{uuid.uuid4().hex[:12]}"

    async def others(self, keep: Path) -> list[Path]:
        """Every index directory but ``keep``."""
        return await index_dirs(self.root, keep)

    async def name_served(self, path: Path) -> None:
        """One SQLite commit: ``path`` is the directory searches read from now on."""
        await self.db.write(lambda t: t.write_meta(INDEX_DIR_KEY, path.name))
