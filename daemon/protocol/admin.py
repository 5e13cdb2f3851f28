"""Wire frames for the daemon's own state: ``status`` and ``metrics``.

Same conventions as the package: the tag is the op name, and a reply has the
same tag as its request.
"""

from __future__ import annotations

from typing import Any

import msgspec

from .frames import Data, Frame

__all__ = [
    "BackendStatus",
    "ClusterStatus",
    "DaemonStatus",
    "ForgetStatus",
    "IndexStatus",
    "MemberStatus",
    "MemoryStatus",
    "Metrics",
    "MetricsReply",
    "ProcessStatus",
    "ReindexStatus",
    "ScopeCounts",
    "SessionCounts",
    "Status",
    "StatusReply",
    "StoreStatus",
]


class Status(Frame, tag="status"):
    pass


class Metrics(Frame, tag="metrics"):
    """The daemon's status as Prometheus text exposition (the same data as ``status``)."""


class SessionCounts(Data):
    """Sessions with a live actor, passivated ones (only in the database), and both."""

    live: int
    passivated: int
    known: int


class ScopeCounts(Data):
    """Working-memory scopes with a live actor, and keys waiting on a TTL deadline."""

    live: int
    ttl_deadlines: int


class StoreStatus(Data):
    """The store's engine and place, its size, group-commit batches and writes since start."""

    bytes: int
    batches: int
    writes: int
    durability: str
    engine: str = "sqlite"
    where: str = ""  # the data dir, or the database's URL without its password


class BackendStatus(Data):
    """One consolidation backend: its queue, jobs by state, LLM health and call stats.

    ``llm`` is empty for the extractive backend; for an LLM it has ``calls``
    (by outcome), ``seconds_sum``, ``seconds_buckets``, ``prompt_tokens``,
    ``completion_tokens`` and ``cached_tokens`` (prompt tokens the server
    served from its cache). ``facts`` counts what the checks made of the
    model's answers: ``kept``, ``dropped`` (not in the turns), ``extractive``
    (facts of the same turns added beside the model's), ``summary_dropped``
    (summary sentences not in the turns), ``updated`` and ``deleted`` (shown
    facts replaced or removed by id), the updates and deletes dropped:
    ``update_unknown``, ``update_refused`` (a shown fact the job's turns are
    not about), ``update_ungrounded`` (the new text not in the turns),
    ``update_chatter`` (the new text a greeting, thanks or a question),
    ``delete_unknown`` and ``delete_refused``; and ``over_cap`` (facts,
    updates and deletes past the answer's item bounds, cut off).
    """

    kind: str
    queued: int
    running: int
    jobs: dict[str, int]
    failed_calls: int
    outcomes: dict[str, int]
    probe: str
    breaker: str
    streams: int
    timers: int
    llm: dict[str, Any]
    facts: dict[str, int] = msgspec.field(default_factory=dict)


class ForgetStatus(Data):
    """Forget jobs running, waiting, and finished since start; ``checkpoint_pending``:
    a reader held the WAL truncation off, so forgotten bytes may still be in the WAL
    until the background retry is done; ``retries_waiting``: forgets of a session
    whose forget is still running, each answered with its outcome once it is done."""

    running: int
    pending: int
    finished: int
    checkpoint_pending: bool = False
    retries_waiting: int = 0


class MemoryStatus(Data):
    """Hand edits of the memory tree noticed, and what cannot be read exactly, by scope."""

    edits_noticed: int
    problems: dict[str, list[str]]


class ReindexStatus(Data):
    """A rebuild of the index: ``state`` is idle, running, done or failed."""

    state: str = "idle"
    done: int = 0
    total: int = 0
    error: str = ""
    started: float = 0.0
    finished: float = 0.0


class IndexStatus(Data):
    """The search index; with ``enabled`` false (``index.enabled = false``) the rest is unset."""

    enabled: bool
    #: The index is open; not yet for the first seconds after a start (docs/search.md).
    ready: bool = False
    error: str | None = None
    path: str = ""
    cursor: int = 0
    messages_behind: int = 0
    seconds_behind: float = 0.0
    indexed: int = 0
    batches: int = 0
    settled: bool = False
    failures: int = 0
    reindex: ReindexStatus | None = None
    #: Optimizes run since start (settled, or due under steady load).
    optimized: int = 0
    #: What LanceDB's caches hold (bounded by index.cache_mib and index.metadata_cache_mib).
    cache_bytes: int = 0
    #: The local embedding model is in memory (it is dropped after ``embeddings.unload_after``
    #: seconds unused), and how many times it was loaded since start; both stay unset with
    #: an embedding server.
    model_loaded: bool = False
    model_loads: int = 0
    #: More than ``index.max_backlog`` messages behind; ``degraded_reason`` says what it means.
    degraded: bool = False
    degraded_reason: str = ""
    #: The index's LanceDB table is open, and how many times it was opened since start: it
    #: is closed, and LanceDB's caches dropped, after ``embeddings.unload_after`` seconds
    #: without a search or write, and opened again by the next one.
    table_open: bool = False
    table_opens: int = 0
    #: LanceDB tables the index holds: the home table (episodes, facts, the first
    #: messages) and the generations of messages after it, each sealed at
    #: ``index.generation_rows`` rows so that an optimize rewrites at most one, four
    #: sealed ones merged into one up to ``index.merged_rows`` rows.
    tables: int = 0
    #: Merges of sealed generations since start, each swapped in as a new directory.
    merges: int = 0
    #: The local model last loaded runs on its int8 weights (``embeddings.int8_weights``);
    #: false with the shipped graph, which the daemon loads where the rewrite cannot be
    #: made or run (its log says why), and before the model was first loaded.
    model_int8: bool = False
    #: Times the idle daemon handed its libraries' code pages back to the kernel, once
    #: the table closed (Linux 5.4+); the next search reads back what it needs.
    code_page_outs: int = 0


class ProcessStatus(Data):
    """The daemon process's resources: resident memory now and at its peak, threads,
    descriptors, the client connections open now and the reply bytes they have not
    read (bounded by ``daemon.max_unread_bytes_total``).

    Resident memory in parts (zeros where the system does not tell): anonymous
    (the process's own) and file-backed (mostly the libraries' code, which the
    kernel takes back under pressure); of the process's own, the C heap in use
    and free between the blocks in use (resident where it was touched; a trim
    hands back only its whole pages), and Arrow's pool."""

    rss_bytes: int = 0
    peak_rss_bytes: int = 0
    rss_anon_bytes: int = 0
    rss_file_bytes: int = 0
    heap_in_use_bytes: int = 0
    heap_free_bytes: int = 0
    arrow_in_use_bytes: int = 0
    threads: int = 0
    open_files: int = 0
    connections: int = 0
    unread_reply_bytes: int = 0


class MemberStatus(Data):
    """One daemon or worker sharing the database: ``alive`` while it beat within
    ``owner_ttl`` and its connection is open; the sessions it owns and the jobs it
    holds now; ``serves`` is a daemon's socket ("" for a worker); ``started`` is the
    database's clock and ``beat_age`` is in seconds."""

    id: str
    role: str
    host: str
    pid: int
    serves: str
    started: float
    beat_age: float
    alive: bool
    sessions: int
    jobs: int


class ClusterStatus(Data):
    """The members sharing a Postgres store, as the database sees them now: ``member``
    and ``role`` are this daemon's, ``members`` every one the database knows (the dead
    too, for ``10 × owner_ttl``), oldest first, and ``jobs`` the consolidation jobs of
    all of them by state."""

    member: str
    role: str
    owner_ttl: float
    members: list[MemberStatus]
    jobs: dict[str, int]


class DaemonStatus(Data, omit_defaults=True):
    """The daemon's state for a person or a monitor (never secrets): ``status``'s answer.

    Fields at their default are left out of the frame, so that on the file engine
    (no ``cluster``) the answer is what it was before clusters existed."""

    version: str
    pid: int
    uptime_seconds: float
    socket: str
    data_dir: str
    sessions: SessionCounts
    mailbox_depths: dict[str, int]
    scopes: ScopeCounts
    store: StoreStatus
    consolidation: dict[str, BackendStatus]
    forgets: ForgetStatus
    memory: MemoryStatus
    index: IndexStatus
    counters: dict[str, int]
    errors: dict[str, int]
    config_reloads: int
    log_level: str
    process: ProcessStatus = ProcessStatus()
    #: Several daemons and workers on one Postgres store; None on the file engine.
    cluster: ClusterStatus | None = None


class StatusReply(Frame, tag="status"):
    status: DaemonStatus


class MetricsReply(Frame, tag="metrics"):
    text: str
