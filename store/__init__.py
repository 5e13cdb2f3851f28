"""reverie.store: the daemon's durable state behind one seam, on the engine ``[store] url`` names.

Nothing here knows about sockets or actors; every blocking call runs in a
thread (the writer thread, or a worker thread for reads). This package
exports only what holds whichever engine runs: the seam (``base/``), the
records, the embedders and ``open_store``, which imports the engine it
opens (``engines``). An engine's own modules (``files/``, ``postgres/``)
are imported by name, by the engine and its tests.
"""

from .base.backup import BackupInfo
from .base.cluster import Cluster, MemberView
from .base.db import GroupCommit
from .base.features import Features
from .base.index import IndexLayout, IndexStale, LiveIndex, Serving
from .base.index_feed import (
    CURSOR_KEY,
    INDEX_DIR_KEY,
    LogPosition,
    entry_doc,
    fact_doc_text,
    fact_docs,
    memory_docs,
    message_uid,
)
from .base.job_leases import JobLeases
from .base.jobs import Job, job_entry, new_job
from .base.journal import AppendOutcome, ForgetJob, MessageRecord, NewMessage, SessionRecord
from .base.memory_store import Consolidated, MemoryStore
from .base.message_pop import Unindex
from .base.message_text import STOP_WORDS
from .base.provenance import fact_sources
from .base.term_counts import TermCounts
from .base.tx import ReadFn, Tx
from .base.working_memory import CheckpointRecord, KeyRecord, ScopeStats, ScratchRecord, TaskRecord
from .clock import TEST_CLOCK_ENV, Clock
from .code_pages import page_out_code, page_out_code_async
from .embed.embeddings import (
    LOCAL_MODEL_ID,
    Embedder,
    EmbeddingError,
    LocalEmbedder,
    OpenAIEmbedder,
    make_embedder,
)
from .embed.primed_embedder import PrimedEmbedder
from .embed.vocabulary import known_word
from .engines import Store, open_store
from .errors import (
    MemoryUnreadable,
    SessionMoved,
    StoreConflict,
    StoreError,
    StoreFull,
    StoreReadOnly,
    StoreUnavailable,
)
from .facts import (
    Fact,
    drop_session,
    fact_id,
    fact_key,
    merge_facts,
    parse_memory,
    prompt_view,
    render_memory,
    replace_fact,
)
from .heap import heap_usage, release_free_memory, tune_allocator
from .history import HistoryEntry, entry_day, history_problems, parse_history, render_entry
from .ranking import (
    HISTORY_PRIOR,
    TEXT_WEIGHT,
    VECTOR_WEIGHT,
    IndexDoc,
    SearchHit,
    above_background,
    fuse,
    hit_from_doc,
    is_retired,
    meaning_score,
    on_words_scale,
    specific_first,
    text_terms,
)
from .scope_writes import (
    AddScratch,
    DropCheckpoint,
    ExpireKeys,
    LoadCheckpoint,
    PatchTask,
    PutKey,
    PutTask,
    RemoveKey,
    RemoveKeys,
    RemoveScratch,
    SaveCheckpoint,
    ScopeWrite,
    apply_writes,
)
from .search_query import (
    MAX_K,
    MAX_QUERY_CHARS,
    Mode,
    SearchQuery,
    candidate_depth,
    checked_query,
)
from .tokens import TokenCounter
from .wm_bounds import ScopeBounds

__all__ = [
    "CURSOR_KEY",
    "HISTORY_PRIOR",
    "INDEX_DIR_KEY",
    "LOCAL_MODEL_ID",
    "MAX_K",
    "MAX_QUERY_CHARS",
    "STOP_WORDS",
    "TEST_CLOCK_ENV",
    "TEXT_WEIGHT",
    "VECTOR_WEIGHT",
    "AddScratch",
    "AppendOutcome",
    "BackupInfo",
    "CheckpointRecord",
    "Clock",
    "Cluster",
    "Consolidated",
    "DropCheckpoint",
    "Embedder",
    "EmbeddingError",
    "ExpireKeys",
    "Fact",
    "Features",
    "ForgetJob",
    "GroupCommit",
    "HistoryEntry",
    "IndexDoc",
    "IndexLayout",
    "IndexStale",
    "Job",
    "JobLeases",
    "KeyRecord",
    "LiveIndex",
    "LoadCheckpoint",
    "LocalEmbedder",
    "LogPosition",
    "MemberView",
    "MemoryStore",
    "MemoryUnreadable",
    "MessageRecord",
    "Mode",
    "NewMessage",
    "OpenAIEmbedder",
    "PatchTask",
    "PrimedEmbedder",
    "PutKey",
    "PutTask",
    "ReadFn",
    "RemoveKey",
    "RemoveKeys",
    "RemoveScratch",
    "SaveCheckpoint",
    "ScopeBounds",
    "ScopeStats",
    "ScopeWrite",
    "ScratchRecord",
    "SearchHit",
    "SearchQuery",
    "Serving",
    "SessionMoved",
    "SessionRecord",
    "Store",
    "StoreConflict",
    "StoreError",
    "StoreFull",
    "StoreReadOnly",
    "StoreUnavailable",
    "TaskRecord",
    "TermCounts",
    "TokenCounter",
    "Tx",
    "Unindex",
    "above_background",
    "apply_writes",
    "candidate_depth",
    "checked_query",
    "drop_session",
    "entry_day",
    "entry_doc",
    "fact_doc_text",
    "fact_docs",
    "fact_id",
    "fact_key",
    "fact_sources",
    "fuse",
    "heap_usage",
    "history_problems",
    "hit_from_doc",
    "is_retired",
    "job_entry",
    "known_word",
    "make_embedder",
    "meaning_score",
    "memory_docs",
    "merge_facts",
    "message_uid",
    "new_job",
    "on_words_scale",
    "open_store",
    "page_out_code",
    "page_out_code_async",
    "parse_history",
    "parse_memory",
    "prompt_view",
    "release_free_memory",
    "render_entry",
    "render_memory",
    "replace_fact",
    "specific_first",
    "text_terms",
    "tune_allocator",
]
