"""Which index directory serves, and how a new one takes its place.

The search index lives in one directory under the daemon's index root, and
the ``meta`` table names it. Replacing the index (a forget's purge, a merge
of generations, a reindex) is therefore writing a whole new directory beside
the served one and one SQLite commit naming it: a crash at any point leaves
one whole index named, never a half-written one. The directories replaced
are removed once no search reads them; any a crash left are removed when the
index next opens.
"""

from __future__ import annotations

import logging
import uuid
from pathlib import Path
from typing import Any, Protocol

import trio

from reverie.store import (
    INDEX_DIR_KEY,
    AsyncSearchIndex,
    GroupCommit,
    drop_index_dirs,
    index_dirs,
)

__all__ = ["DEFAULT_DIR", "Directories", "Serving", "drop_index"]

log = logging.getLogger(__name__)

DEFAULT_DIR = "index"


async def drop_index(root: Path) -> None:
    """A forget while the index is off: delete every index directory under ``root``.

    Their rows cannot be rewritten without the index open, so their files go;
    the next start with the index on finds none and rebuilds it from the log
    and the Markdown, which the forget has already cleared.
    """
    if dropped := await drop_index_dirs(root, DEFAULT_DIR):
        log.info("index is off: %d index directories deleted, rebuilt at the next start", dropped)


class Serving(Protocol):
    """What ``drop_replaced`` asks of the index's owner as it goes, since it awaits."""

    def served_path(self) -> Path | None:
        """The directory searches read now."""

    def rebuilding(self) -> bool:
        """Whether a reindex is writing a directory of its own."""


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

    async def drop_leftovers(self, index: AsyncSearchIndex) -> None:
        """Before ``index`` opens: remove every other directory, which a crash left."""
        for old in await index_dirs(self.root, DEFAULT_DIR, keep=index.path):
            await index.remove_dir(old)

    async def copy_in(
        self, index: AsyncSearchIndex, merge: list[str] | None = None
    ) -> AsyncSearchIndex:
        """Copy ``index`` into a new directory (``copy_to``) and name the copy served: one
        SQLite commit. The caller holds the follower's write lock, so nothing is added
        to ``index`` meanwhile, and serves the copy from now on; a copy that fails is
        removed and ``index`` stays named."""
        path = self.new_path()
        self.building.add(path)
        try:
            fresh = await index.copy_to(path, merge)
            await self.db.write(lambda t: t.write_meta(INDEX_DIR_KEY, path.name))
        except BaseException:
            with trio.CancelScope(shield=True):
                await index.remove_dir(path)
            raise
        finally:
            self.building.discard(path)
        return fresh

    async def drop_replaced(self, fresh: AsyncSearchIndex, serving: Serving) -> None:
        """Remove every directory but ``fresh``'s, each once no search reads it: the
        replaced ones, and any a crash or an interrupted purge left. Not one a copy or a
        rebuild is writing, nor the one served by then (another swap may have come)."""
        for old in await index_dirs(self.root, DEFAULT_DIR, keep=fresh.path):
            await fresh.unused(old)
            if serving.rebuilding():  # one of these is the rebuild's
                break
            if old != serving.served_path() and old not in self.building:
                await fresh.remove_dir(old)
