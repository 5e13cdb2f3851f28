"""Copying a search index's tables into another directory: the purge after a forget, and
the merge of sealed generations.

LanceDB only marks deleted rows as deleted; their bytes stay in the table's
data files (and its text index) until the fragment is rewritten. A table
rows were deleted from is therefore written afresh (``rewrite_table``), and
the others are linked (``link_table``): Lance writes a table's data and
index files once and never changes them, so sharing them costs no byte and
leaves nothing of the deleted rows behind.
"""

from __future__ import annotations

import os
import shutil
from collections.abc import Sequence
from datetime import timedelta
from pathlib import Path
from typing import Any

import pyarrow as pa

from .index_schema import ensure_indexes
from .index_tables import keys_path

__all__ = ["link_table", "rewrite_table"]

#: Rows per batch when a table is rewritten: about 4 MB of them.
_COPY_BATCH_ROWS = 4096
#: The folders of a LanceDB table whose files Lance writes once and never changes:
#: the rows and the indexes, nearly all of its bytes.
_WRITTEN_ONCE = frozenset({"data", "_indices"})


def rewrite_table(
    sources: Sequence[Any], db: Any, name: str, schema: pa.Schema, keep_versions: timedelta
) -> None:
    """Table ``name`` made afresh in ``db`` from the live rows of ``sources`` (one table
    rewritten, or generations merged), optimized; the rows stream through in batches
    (a full generation is hundreds of megabytes) and their vectors are copied, not
    recomputed."""
    fresh = db.create_table(name, schema=schema)
    ensure_indexes(fresh, name)
    batches = (
        batch.cast(schema)
        for table in sources
        for batch in table.search().limit(None).to_batches(_COPY_BATCH_ROWS)
    )
    fresh.add(pa.RecordBatchReader.from_batches(schema, batches))
    fresh.optimize(cleanup_older_than=keep_versions)


def link_table(root: Path, name: str, target_root: Path) -> None:
    """Put table ``name`` of the index in ``root`` into the one in ``target_root``: its
    data and index files hard-linked (no byte copied), the rest (manifests, deletion
    files, the version hint, which Lance may replace) copied, and so are its saved
    keys. Where the file system cannot link, they are copied too. A rewritten table
    gets no saved keys: the copy reads them from its rows when it opens, so a
    forgotten session's name hash does not outlive its rows."""
    source, target = root / f"{name}.lance", target_root / f"{name}.lance"
    for file in sorted(p for p in source.rglob("*") if p.is_file()):
        relative = file.relative_to(source)
        (target / relative).parent.mkdir(parents=True, exist_ok=True)
        if relative.parts[0] in _WRITTEN_ONCE:
            try:
                os.link(file, target / relative)
                continue
            except OSError:
                pass
        shutil.copy2(file, target / relative)
    if (saved := keys_path(root, name)).exists():
        shutil.copy2(saved, keys_path(target_root, name))
