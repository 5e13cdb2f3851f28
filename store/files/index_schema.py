"""What each table of the search index holds: its columns, its indexes and the
embedder that wrote its vectors.

Every table of an index (the home table and its generations, ``index_tables``)
has the same columns. The schema's metadata records the embedder's model, and
the vector column's type its dimension, so an index written by another model
is recognized and never mixed with this one's vectors. Indexes differ by
table: only the home table holds text (episodes and facts) and so a
full-text index.
"""

from __future__ import annotations

import logging
from typing import Any

import pyarrow as pa
from lancedb.index import FTS, Bitmap, BTree

from ..ranking import stored_text
from .index_tables import HOME

__all__ = ["NEW_VECTOR_TYPE", "ensure_indexes", "stored_text", "table_schema", "written_by"]

log = logging.getLogger(__name__)

_META_MODEL = b"reverie.model_id"
#: The element type of the vectors a new table stores. Half floats halve the table (a
#: message row from 1.6 to 0.8 KB) and so what each optimize reads and rewrites, which
#: is the table whole while it is under LanceDB's compaction target ("What still grows
#: with the index" in BENCHMARKS.md). The cosine moves by under 4e-5, and LoCoMo's
#: recall not at all. A table written before keeps its float32 vectors until rebuilt.
NEW_VECTOR_TYPE = pa.float16()
#: Each indexed column's LanceDB index type and config. ``session`` has one value per
#: session, thousands of them: a bitmap index there (one bitmap per value) made an
#: optimize at 61,000 rows over 10,000 sessions 1.0 to 2.7 s, a B-tree 0.5 to 1.5 s,
#: with searches filtered by session as fast (BENCHMARKS.md, "The session index: a
#: B-tree, not a bitmap"). ``scope`` is the same case: a session whose host names no
#: scope has its own (``session/<name>``); at 102,400 rows over 10,000 scopes an
#: optimize took 3.9-5.0 s with a bitmap there, 0.8-1.0 s with a B-tree, and over three
#: scopes both took under 1 s with scope-filtered searches as fast ("The scope index").
#: ``kind`` has three values: a bitmap suits it.
_INDEXES = {
    "scope": ("BTree", BTree()),
    "session": ("BTree", BTree()),
    "kind": ("Bitmap", Bitmap()),
    "text": ("FTS", FTS()),
}
#: The generations after the home table hold messages, whose text is not stored: no
#: full-text index there.
_GENERATION_INDEXES = {c: ix for c, ix in _INDEXES.items() if c != "text"}


def table_schema(model_id: str, dimension: int, vector_type: pa.DataType) -> pa.Schema:
    """The columns of every table of an index written by the embedder ``model_id``."""
    fields = [
        pa.field("uid", pa.string(), nullable=False),
        pa.field("kind", pa.string(), nullable=False),
        pa.field("text", pa.string(), nullable=False),
        pa.field("vector", pa.list_(vector_type, dimension), nullable=False),
        pa.field("scope", pa.string(), nullable=False),
        pa.field("session", pa.string(), nullable=False),
        pa.field("ts", pa.float64(), nullable=False),
        pa.field("message_ids", pa.list_(pa.string()), nullable=False),
        pa.field("source", pa.string(), nullable=False),
    ]
    # The dimension is in the vector column's type; only the model needs metadata.
    return pa.schema(fields, metadata={_META_MODEL: model_id.encode()})


def written_by(schema: pa.Schema) -> tuple[str, int, pa.DataType]:
    """The model (empty if unrecorded), dimension and vector element type of a table."""
    model = (schema.metadata or {}).get(_META_MODEL, b"").decode()
    vector = schema.field("vector").type
    return model, int(vector.list_size), vector.value_type


def ensure_indexes(table: Any, name: str) -> None:
    """Create whichever scalar or FTS index table ``name`` lacks (a crash may have left
    one out), and replace one of another type than wanted (an index from an older
    release).

    Rows appended after an index was built are still searched (unindexed
    rows are scanned); ``optimize()`` folds them into the indexes.
    """
    wanted = _INDEXES if name == HOME else _GENERATION_INDEXES
    have = {ix.columns[0]: ix for ix in table.list_indices() if len(ix.columns) == 1}
    for column, (kind, config) in wanted.items():
        found = have.get(column)
        if found is not None and found.index_type == kind:
            continue
        if found is not None:
            log.info("replacing the %s index on %s by a %s index", found.index_type, column, kind)
            table.drop_index(found.name)
        table.create_index(column, config=config)
