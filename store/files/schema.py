"""The SQLite schema and its forward migrations, versioned by ``PRAGMA user_version``.

``MIGRATIONS[i]`` takes a database from version ``i`` to ``i + 1``. A
migration is only ever appended, never edited once released; each runs in
one transaction with the version bump, so a crash leaves either the old or
the new schema.
"""

from __future__ import annotations

import apsw

from ..errors import StoreError
from .message_text import MESSAGE_TERMS_DDL, MESSAGE_TEXT_DDL
from .rows import one_row

__all__ = ["MIGRATIONS", "SCHEMA_VERSION", "migrate"]

_SESSIONS = """
CREATE TABLE sessions (
    name        TEXT PRIMARY KEY,
    scope       TEXT NOT NULL,
    created     REAL NOT NULL,
    last_seq    INTEGER NOT NULL DEFAULT 0,
    cursor_seq  INTEGER NOT NULL DEFAULT 0,  -- messages with seq <= cursor_seq are consolidated
    tail_tokens INTEGER NOT NULL DEFAULT 0,
    tail_count  INTEGER NOT NULL DEFAULT 0,
    last_active REAL NOT NULL
) WITHOUT ROWID;
"""

_MESSAGES = """
CREATE TABLE messages (
    gid          INTEGER PRIMARY KEY,        -- position in the global message log
    session      TEXT NOT NULL,
    seq          INTEGER NOT NULL,           -- per session, gap free, from 1
    id           TEXT NOT NULL,              -- client-supplied or generated
    role         TEXT NOT NULL,
    content      TEXT NOT NULL,
    name         TEXT,
    tool_calls   TEXT,                       -- JSON, as the client sent it
    tool_call_id TEXT,
    ts           REAL NOT NULL,
    tokens       INTEGER NOT NULL
);
CREATE UNIQUE INDEX messages_session_seq ON messages(session, seq);
CREATE UNIQUE INDEX messages_session_id ON messages(session, id);
"""

_META = """
CREATE TABLE meta (
    key   TEXT PRIMARY KEY,
    value
) WITHOUT ROWID;
"""

_JOBS = """
CREATE TABLE jobs (
    id        TEXT PRIMARY KEY,
    session   TEXT NOT NULL,
    scope     TEXT NOT NULL,
    backend   TEXT NOT NULL,
    first_seq INTEGER NOT NULL,
    last_seq  INTEGER NOT NULL,
    tokens    INTEGER NOT NULL,
    count     INTEGER NOT NULL,
    state     TEXT NOT NULL,               -- running | done | archived
    attempts  INTEGER NOT NULL DEFAULT 0,
    created   REAL NOT NULL,
    updated   REAL NOT NULL,
    error     TEXT
) WITHOUT ROWID;
CREATE INDEX jobs_open ON jobs(session) WHERE state = 'running';
"""

_WORKING_MEMORY = (
    """
CREATE TABLE wm_keys (
    scope      TEXT NOT NULL,
    key        TEXT NOT NULL,
    value      BLOB NOT NULL,              -- msgpack
    version    INTEGER NOT NULL,
    expires_at REAL,                       -- NULL = no TTL
    updated    REAL NOT NULL,
    PRIMARY KEY (scope, key)
) WITHOUT ROWID;
""",
    "CREATE INDEX wm_keys_expiring ON wm_keys(expires_at) WHERE expires_at IS NOT NULL;",
    """
CREATE TABLE wm_tasks (
    scope       TEXT PRIMARY KEY,
    task_id     TEXT NOT NULL,
    description TEXT NOT NULL,
    status      TEXT NOT NULL,
    step        INTEGER NOT NULL,
    total_steps INTEGER NOT NULL,
    data        BLOB,                      -- msgpack
    created     REAL NOT NULL,
    updated     REAL NOT NULL
) WITHOUT ROWID;
""",
    """
CREATE TABLE wm_scratch (
    scope TEXT NOT NULL,
    n     INTEGER NOT NULL,
    text  TEXT NOT NULL,
    ts    REAL NOT NULL,
    PRIMARY KEY (scope, n)
) WITHOUT ROWID;
""",
    """
CREATE TABLE wm_checkpoints (
    id      TEXT PRIMARY KEY,              -- UUID
    scope   TEXT NOT NULL,
    label   TEXT,
    created REAL NOT NULL,
    size    INTEGER NOT NULL,
    blob    BLOB NOT NULL                  -- msgpack of keys, task, scratchpad
);
""",
    "CREATE INDEX wm_checkpoints_scope ON wm_checkpoints(scope, created);",
    """
CREATE TABLE wm_stats (
    scope TEXT PRIMARY KEY,
    swept INTEGER NOT NULL DEFAULT 0       -- expired keys the sweeper deleted
) WITHOUT ROWID;
""",
)

MIGRATIONS: list[tuple[str, ...]] = [
    (_SESSIONS, _MESSAGES, _META, _JOBS),
    _WORKING_MEMORY,
    MESSAGE_TEXT_DDL,
    MESSAGE_TERMS_DDL,
]
SCHEMA_VERSION = len(MIGRATIONS)


def migrate(conn: apsw.Connection) -> int:
    """Bring the database up to ``SCHEMA_VERSION``; returns the version found.

    A database newer than this code is refused rather than guessed at.
    """
    found = one_row(conn, "PRAGMA user_version")[0]
    if found > SCHEMA_VERSION:
        raise StoreError(
            f"database schema version {found} is newer than this reverie ({SCHEMA_VERSION}); "
            "upgrade reverie"
        )
    for version in range(found, SCHEMA_VERSION):
        with conn:
            for ddl in MIGRATIONS[version]:
                conn.execute(ddl)
            conn.execute(f"PRAGMA user_version={version + 1}")
    return int(found)
