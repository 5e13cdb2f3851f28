"""The Postgres schema and its forward migrations, versioned in ``schema_version``.

``MIGRATIONS[i]`` takes a database from version ``i`` to ``i + 1``, in one
transaction with the version bump, under an advisory lock so two daemons
starting on one database never migrate it at once. A migration is only ever
appended, never edited once released; a database written by a newer reverie
is refused with a message that says so.
"""

from __future__ import annotations

from typing import Any

import psycopg

from reverie.store import StoreError

from . import index_words, memory_changes, memory_rows, message_text, words_stats

__all__ = ["MIGRATIONS", "SCHEMA_VERSION", "migrate"]

#: pg_advisory_xact_lock key: "reverie" in ASCII, so it is recognisable in pg_locks.
_MIGRATION_LOCK = 0x726576657269

_VERSION = (
    "CREATE TABLE IF NOT EXISTS schema_version ("
    " one boolean PRIMARY KEY DEFAULT true CHECK (one), version integer NOT NULL)"
)

_CORE = (
    "CREATE EXTENSION IF NOT EXISTS vector",
    """
CREATE TABLE sessions (
    name        text PRIMARY KEY,
    scope       text NOT NULL,
    created     double precision NOT NULL,
    last_seq    bigint NOT NULL DEFAULT 0,
    cursor_seq  bigint NOT NULL DEFAULT 0,   -- messages with seq <= cursor_seq are consolidated
    tail_tokens bigint NOT NULL DEFAULT 0,
    tail_count  bigint NOT NULL DEFAULT 0,
    last_active double precision NOT NULL
)""",
    "CREATE INDEX sessions_scope ON sessions (scope)",
    # Keyset paging of list_sessions is in byte order, as SQLite's: an index in that order.
    'CREATE INDEX sessions_name_c ON sessions (name COLLATE "C")',
    "CREATE INDEX sessions_tail ON sessions (tail_tokens)",
    """
CREATE TABLE messages (
    gid          bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,  -- position in the global log
    session      text NOT NULL,
    seq          bigint NOT NULL,          -- per session, gap free, from 1
    id           text NOT NULL,            -- client-supplied or generated
    role         text NOT NULL,
    content      text NOT NULL,
    name         text,
    tool_calls   text,                     -- JSON, as the client sent it
    tool_call_id text,
    ts           double precision NOT NULL,
    tokens       integer NOT NULL,
    UNIQUE (session, seq),
    UNIQUE (session, id)
)""",
    "CREATE TABLE meta (key text PRIMARY KEY, value jsonb NOT NULL)",
    """
CREATE TABLE jobs (
    id        text PRIMARY KEY,
    session   text NOT NULL,
    scope     text NOT NULL,
    backend   text NOT NULL,
    first_seq bigint NOT NULL,
    last_seq  bigint NOT NULL,
    tokens    bigint NOT NULL,
    count     bigint NOT NULL,
    state     text NOT NULL,               -- running | done | archived
    attempts  integer NOT NULL DEFAULT 0,
    created   double precision NOT NULL,
    updated   double precision NOT NULL,
    error     text
)""",
    "CREATE INDEX jobs_open ON jobs (session) WHERE state = 'running'",
    """
CREATE TABLE wm_keys (
    scope      text NOT NULL,
    key        text NOT NULL,
    value      bytea NOT NULL,             -- msgpack
    version    bigint NOT NULL,
    expires_at double precision,           -- NULL = no TTL
    updated    double precision NOT NULL,
    PRIMARY KEY (scope, key)
)""",
    "CREATE INDEX wm_keys_expiring ON wm_keys (expires_at) WHERE expires_at IS NOT NULL",
    """
CREATE TABLE wm_tasks (
    scope       text PRIMARY KEY,
    task_id     text NOT NULL,
    description text NOT NULL,
    status      text NOT NULL,
    step        bigint NOT NULL,
    total_steps bigint NOT NULL,
    data        bytea,                     -- msgpack
    created     double precision NOT NULL,
    updated     double precision NOT NULL
)""",
    """
CREATE TABLE wm_scratch (
    scope text NOT NULL,
    n     bigint NOT NULL,
    text  text NOT NULL,
    ts    double precision NOT NULL,
    PRIMARY KEY (scope, n)
)""",
    """
CREATE TABLE wm_checkpoints (
    id      text PRIMARY KEY,              -- UUID
    seq     bigint GENERATED ALWAYS AS IDENTITY,  -- creation order (SQLite's rowid)
    scope   text NOT NULL,
    label   text,
    created double precision NOT NULL,
    size    bigint NOT NULL,
    blob    bytea NOT NULL                 -- msgpack of keys, task, scratchpad
)""",
    "CREATE INDEX wm_checkpoints_scope ON wm_checkpoints (scope, created)",
    """
CREATE TABLE wm_stats (
    scope text PRIMARY KEY,
    swept bigint NOT NULL DEFAULT 0        -- expired keys the sweeper deleted
)""",
)

#: Several daemons (and workers) on one database: who is alive, who owns a session at which
#: epoch (``cluster.py``), who holds a job or a periodic duty and until when. Times are the
#: database's clock (``extract(epoch FROM clock_timestamp())``), never a member's.
_CLUSTER = (
    """
CREATE TABLE members (
    id          text PRIMARY KEY,            -- host/pid/random: one process's lifetime
    role        text NOT NULL,               -- daemon | worker
    host        text NOT NULL,
    pid         integer NOT NULL,
    started     double precision NOT NULL,
    heartbeat   double precision NOT NULL,
    backend_pid integer NOT NULL,            -- its beat's server process: gone when it dies
    serves      text NOT NULL DEFAULT ''     -- a daemon's socket path, for the operator
)""",
    "ALTER TABLE sessions ADD COLUMN owner text, ADD COLUMN epoch bigint NOT NULL DEFAULT 0",
    "CREATE INDEX sessions_owner ON sessions (owner) WHERE owner IS NOT NULL",
    "ALTER TABLE jobs ADD COLUMN lease_owner text, ADD COLUMN lease_until double precision",
    "CREATE INDEX jobs_running_scope ON jobs (scope) WHERE state = 'running'",
    """
CREATE TABLE duties (
    name   text PRIMARY KEY,                 -- periodic work one member does at a time
    holder text NOT NULL,
    until  double precision NOT NULL
)""",
)

MIGRATIONS: list[tuple[str, ...]] = [
    _CORE + message_text.DDL + memory_rows.DDL + index_words.DDL,
    _CLUSTER + memory_changes.DDL,
    message_text.CONTEXT_PLAN_DDL,
    words_stats.OWN_SHARD_DDL,
]
SCHEMA_VERSION = len(MIGRATIONS)


def migrate(conn: psycopg.Connection[Any]) -> int:
    """Bring the database up to ``SCHEMA_VERSION``; returns the version found.

    ``conn`` must be in autocommit mode (each migration is its own
    transaction). A database newer than this code is refused rather than
    guessed at.
    """
    # Under the lock too: ``CREATE TABLE IF NOT EXISTS`` run by two members at once
    # fails in one of them on the catalog's unique index, not "already exists".
    with conn.transaction():
        conn.execute("SELECT pg_advisory_xact_lock(%s)", (_MIGRATION_LOCK,))
        conn.execute(_VERSION)
    found = 0
    for version in range(SCHEMA_VERSION + 1):
        with conn.transaction():
            conn.execute("SELECT pg_advisory_xact_lock(%s)", (_MIGRATION_LOCK,))
            found = _version(conn) if version == 0 else found
            current = _version(conn)
            if current > SCHEMA_VERSION:
                raise StoreError(
                    f"database schema version {current} is newer than this reverie "
                    f"({SCHEMA_VERSION}); upgrade reverie"
                )
            if current == SCHEMA_VERSION:
                return found
            for ddl in MIGRATIONS[current]:
                conn.execute(ddl)
            conn.execute(
                "INSERT INTO schema_version (version) VALUES (%s)"
                " ON CONFLICT (one) DO UPDATE SET version = excluded.version",
                (current + 1,),
            )
    return found


def _version(conn: psycopg.Connection[Any]) -> int:
    row = conn.execute("SELECT version FROM schema_version").fetchone()
    return 0 if row is None else int(row[0])
