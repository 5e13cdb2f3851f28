"""reverie.store: SQLite (apsw) state, with group commit, and token counting.

Nothing here knows about sockets or actors; every blocking call runs in a
thread (the writer thread, or a worker thread for reads).
"""

from .db import Database
from .errors import StoreError, StoreFull, StoreReadOnly
from .jobs import Job, create_job, finish_job, job_counts, open_job, open_jobs, record_attempt
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
    save_session,
)
from .memory_files import (
    HistoryEntry,
    MemoryFiles,
    decode_scope,
    encode_scope,
    merge_facts,
    parse_history,
    render_entry,
)
from .schema import SCHEMA_VERSION
from .tokens import TokenCounter

__all__ = [
    "SCHEMA_VERSION",
    "AppendOutcome",
    "Database",
    "HistoryEntry",
    "Job",
    "MemoryFiles",
    "MessageRecord",
    "NewMessage",
    "SessionRecord",
    "StoreError",
    "StoreFull",
    "StoreReadOnly",
    "TokenCounter",
    "append_requests",
    "create_job",
    "decode_scope",
    "delete_session",
    "encode_scope",
    "finish_job",
    "job_counts",
    "list_sessions",
    "load_session",
    "merge_facts",
    "open_job",
    "open_jobs",
    "parse_history",
    "read_history",
    "read_tail",
    "record_attempt",
    "render_entry",
    "save_session",
]
