"""How ``SearchIndex`` keeps its tables small and fast: optimize, purge or merge
copies, and the counts that tell the daemon when to do which.

Writes leave fragments and versions behind, deletes leave bytes; these
methods fold the first, drop the second by rewriting, and merge sealed
generations, all on the tables the writes marked (see ``index_writes``).
"""

from __future__ import annotations

from collections.abc import Sequence
from pathlib import Path
from typing import Any, Self

import lancedb
from lancedb.index import FTS

from ..base.index import IndexLayout
from .index_copy import link_table, rewrite_table
from .index_core import IndexCore, wrapped
from .index_tables import HOME, merge_run


class IndexUpkeep(IndexCore):
    """The index's optimize, copies and layout counts (a part of ``SearchIndex``)."""

    def optimize(self) -> None:
        """Fold fragments together, refresh indexes and drop old versions, in each table
        written since its last optimize.

        Afterwards every doc is in the indexes and text scores equal those of
        an index built from scratch over the same docs. Versions older than
        ``limits.keep_versions`` are deleted; younger ones stay, because a search
        that began on one still reads its files. A generation sealed since the
        last optimize is optimized once more by the next, which drops those.
        """
        tables = self._ready()
        dirty, self._dirty = self._dirty, set()
        try:
            for name in [n for n in tables.by_name if n in dirty]:
                self._optimize_table(tables.by_name[name], home=name == HOME)
                dirty.discard(name)
                if name in self._sealed:
                    self._sealed.discard(name)
                    self._dirty.add(name)
        finally:
            self._dirty |= dirty

    def _optimize_table(self, table: Any, *, home: bool) -> None:
        with wrapped("optimize"):
            table.optimize(cleanup_older_than=self.limits.keep_versions)
            if home and self._text_stats_stale:
                table.create_index("text", config=FTS(), replace=True)
                self._text_stats_stale = False

    def copy_to(self, path: Path, *, merge: Sequence[str] = ()) -> Self:
        """A new index in ``path`` with exactly this one's rows: without any deleted
        row's bytes (a purge), or with the sealed generations ``merge`` names (a
        ``merge_plan``) made one table.

        LanceDB only marks deleted rows as deleted: their bytes stay in the
        data files (and the text index) of this directory until the fragment
        is rewritten. A purge writes afresh each table that may hold such rows
        (deleted from since the first open or the last purge: a forget's
        session's generations), one at a time, its vectors copied, not
        recomputed. A merge writes the merged table afresh, named as the last
        of its generations (the order of the names stays the order of the
        writes). Every other table shares its files with this one
        (``link_table``); after a merge, the tables a purge would have
        rewritten still will be. Once the daemon serves the copy and this
        directory is removed, a forgotten text is gone from the disk, and a
        forget costs the generations it touched.
        """
        tables = self._ready()
        merged, keep = set(merge), self.limits.keep_versions
        with wrapped("copy"):
            db = lancedb.connect(str(path), session=self.limits.session)
            for name, table in tables.by_name.items():
                if name in merged:
                    continue
                if not merged and name in self._deleted_from:
                    rewrite_table([table], db, name, self._schema(), keep)
                else:
                    link_table(self.path, name, path)
            if merge:
                sources = [tables.by_name[name] for name in merge]
                rewrite_table(sources, db, merge[-1], self._schema(), keep)
        copy = type(self)(path, self.embedder, self.limits)
        copy.open()
        copy._deleted_from = self._deleted_from - merged if merged else set()
        # The last write goes with the copy (a retry of it may come on the copy, see
        # ``_write``), under the name its table has there.
        last, uids = self._last_messages
        copy._last_messages = (merge[-1] if last in merged else last, uids)
        copy._text_stats_stale = True
        copy.optimize()
        return copy

    def merge_plan(self) -> list[str]:
        """The sealed generations due to be merged into one table (``merge_run``), oldest
        first; [] when none are. Reads each sealed table's row count (its manifest)."""
        names = list(self._ready().by_name.items())[1:-1]  # after home, before the open one
        with wrapped("count"):
            sealed = [(name, int(table.count_rows())) for name, table in names]
        return merge_run(sealed, self.limits.generation_rows, self.limits.merged_rows)

    def count(self) -> int:
        tables = self._ready()
        with wrapped("count"):
            return sum(int(t.count_rows()) for t in tables.by_name.values())

    def layout(self) -> IndexLayout:
        """The fragments and versions on disk now, all tables together (reads the
        manifests, not the data)."""
        tables = self._ready().by_name.values()
        with wrapped("layout"):
            fragments = sum(t.stats()["fragment_stats"]["num_fragments"] for t in tables)
            versions = sum(len(t.list_versions()) for t in tables)
        return IndexLayout(fragments=int(fragments), versions=versions)
