"""reverie.store: SQLite (apsw) state, with group commit, token counting, and search.

Nothing here knows about sockets or actors; every blocking call runs in a
thread (the writer thread, or a worker thread for reads).
"""

from .db import Database
from .embeddings import (
    LOCAL_MODEL_ID,
    Embedder,
    EmbeddingError,
    LocalEmbedder,
    OpenAIEmbedder,
    make_embedder,
)
from .errors import StoreError, StoreFull, StoreReadOnly
from .index import IndexStale, SearchIndex
from .journal import (
    AppendOutcome,
    MessageRecord,
    NewMessage,
    SessionRecord,
    append_requests,
    delete_session,
    list_sessions,
    load_session,
    read_history,
    read_tail,
)
from .ranking import (
    RRF_K,
    IndexDoc,
    SearchHit,
    doc_matches,
    rank_by_text,
    rank_by_vector,
    reciprocal_rank_fusion,
    search_delta,
    text_terms,
)
from .schema import SCHEMA_VERSION
from .tokens import TokenCounter

__all__ = [
    "LOCAL_MODEL_ID",
    "RRF_K",
    "SCHEMA_VERSION",
    "AppendOutcome",
    "Database",
    "Embedder",
    "EmbeddingError",
    "IndexDoc",
    "IndexStale",
    "LocalEmbedder",
    "MessageRecord",
    "NewMessage",
    "OpenAIEmbedder",
    "SearchHit",
    "SearchIndex",
    "SessionRecord",
    "StoreError",
    "StoreFull",
    "StoreReadOnly",
    "TokenCounter",
    "append_requests",
    "delete_session",
    "doc_matches",
    "list_sessions",
    "load_session",
    "make_embedder",
    "rank_by_text",
    "rank_by_vector",
    "read_history",
    "read_tail",
    "reciprocal_rank_fusion",
    "search_delta",
    "text_terms",
]
