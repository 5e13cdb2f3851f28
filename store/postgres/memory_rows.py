"""Each scope's ``MEMORY.md`` and history entries as rows: the SQL of the Postgres memory engine.

The file engine keeps a scope's memory in ``MEMORY.md`` and its episodes in
one history file per UTC day (``memory_files``). Here the same text lives
in two tables, byte for byte:

- ``memory_versions``: one row per write of a scope's ``MEMORY.md``; the
  current memory is the highest ``version``. A write inserts ``version + 1``
  of the version its writer read, so two writers that read the same version
  cannot both succeed (the primary key makes the insert a compare-and-swap,
  which several daemons on one database rely on). The newest
  ``KEPT_VERSIONS`` are kept, older ones go with each write.
- ``history_entries``: one row per episode, ``body`` the Markdown section
  ``render_entry`` makes of it; ``seq`` is the order of appends, which is
  the order of the entries in the file engine's day file, so ``day_text``
  rebuilds that file exactly.

Every function runs inside a transaction its caller owns (``Database.write``
or ``read``) and neither commits nor rolls back. A write function may be
re-run in a new transaction (group commit re-runs a failed batch one by
one), so each is a pure function of the database state. The isolation is
READ COMMITTED, Postgres' default: a writer that lost a version to another
reads again, and its next statement sees the newer version.
"""

from __future__ import annotations

from typing import Any

import msgspec
import psycopg

from reverie.config import default_scope
from reverie.store import (
    Consolidated,
    ForgetJob,
    HistoryEntry,
    drop_session,
    entry_day,
    fact_key,
    parse_history,
    render_entry,
)
from reverie.store.facts import drop_fact

__all__ = [
    "DDL",
    "KEPT_VERSIONS",
    "day_text",
    "delete_scope",
    "entries",
    "forget",
    "has_entry",
    "history_days",
    "insert_version",
    "memory_version",
    "newest_memory",
    "scope_memory",
    "scopes",
    "write_consolidation",
    "write_memory",
]

Conn = psycopg.Connection[Any]
#: Versions of a scope's ``MEMORY.md`` kept: the newest few, to see what a write
#: replaced; each write of a whole document must not make the table grow for ever.
KEPT_VERSIONS = 8

DDL: tuple[str, ...] = (
    """
CREATE TABLE IF NOT EXISTS memory_versions (
    scope   text NOT NULL,
    version bigint NOT NULL,              -- the current memory is the highest
    body    text NOT NULL,                -- MEMORY.md, byte for byte
    created double precision NOT NULL,    -- seconds since the epoch, of the transaction
    PRIMARY KEY (scope, version)
)""",
    """
CREATE TABLE IF NOT EXISTS history_entries (
    seq     bigint GENERATED ALWAYS AS IDENTITY,  -- append order: a day file's order
    scope   text NOT NULL,
    id      text NOT NULL,
    day     text NOT NULL,                -- entry_day(entry): the file engine's day file
    end_ts  double precision NOT NULL,
    session text NOT NULL,
    body    text NOT NULL,                -- render_entry(entry)
    PRIMARY KEY (scope, id)
)""",
    "CREATE INDEX IF NOT EXISTS history_entries_time ON history_entries (scope, end_ts, seq)",
)


#: What makes a read share-lock the rows it returns until its transaction ends.
_SHARE = " FOR SHARE"


def newest_memory(conn: Conn, scope: str, *, share: bool = False) -> tuple[int, str]:
    """The scope's current ``MEMORY.md`` and its version; ``(0, "")`` when it has none.
    ``share``: its row share-locked (``scope_memory``)."""
    row = conn.execute(
        "SELECT version, body FROM memory_versions WHERE scope = %s ORDER BY version DESC LIMIT 1"
        + (_SHARE if share else ""),
        (scope,),
    ).fetchone()
    return (0, "") if row is None else (row[0], row[1])


def memory_version(conn: Conn, scope: str) -> tuple[int, float]:
    """The scope's current ``MEMORY.md`` version and its write time, without its text."""
    row = conn.execute(
        "SELECT version, created FROM memory_versions WHERE scope = %s"
        " ORDER BY version DESC LIMIT 1",
        (scope,),
    ).fetchone()
    return (0, 0.0) if row is None else (int(row[0]), float(row[1]))


def insert_version(conn: Conn, scope: str, text: str, read_version: int) -> bool:
    """Write ``text`` as the version after ``read_version``, unless another writer did first.

    The compare-and-swap of the memory: False, and nothing written, when
    version ``read_version + 1`` exists (or a writer holding it uncommitted
    commits it: the insert waits for that writer). Versions older than the
    newest ``KEPT_VERSIONS`` go in the same statement.
    """
    row = conn.execute(
        """
WITH new AS (
    INSERT INTO memory_versions (scope, version, body, created)
    VALUES (%(scope)s, %(version)s, %(body)s, extract(epoch FROM now()))
    ON CONFLICT DO NOTHING
    RETURNING version
), pruned AS (
    DELETE FROM memory_versions
    WHERE scope = %(scope)s AND version <= %(version)s - %(kept)s AND EXISTS (SELECT FROM new)
)
SELECT version FROM new""",
        {"scope": scope, "version": read_version + 1, "body": text, "kept": KEPT_VERSIONS},
    ).fetchone()
    return row is not None


def write_memory(conn: Conn, scope: str, text: str) -> None:
    """Replace the scope's ``MEMORY.md`` (a new version), whatever it held."""
    while not insert_version(conn, scope, text, newest_memory(conn, scope)[0]):
        pass  # another writer took the version: read the newer one (a new statement sees it)


def has_entry(conn: Conn, scope: str, entry_id: str) -> bool:
    """Whether the scope's history holds the entry ``entry_id``."""
    row = conn.execute(
        "SELECT EXISTS (SELECT FROM history_entries WHERE scope = %s AND id = %s)",
        (scope, entry_id),
    ).fetchone()
    return bool(row and row[0])


def entries(
    conn: Conn, scope: str, limit: int | None = None, *, share: bool = False
) -> list[HistoryEntry]:
    """The scope's entries, oldest first (by ``end_ts``, then append order); the newest
    ``limit`` if given. ``share``: their rows share-locked (``scope_memory``)."""
    rows = conn.execute(
        "SELECT body FROM history_entries WHERE scope = %s ORDER BY end_ts DESC, seq DESC LIMIT %s"
        + (_SHARE if share else ""),
        (scope, limit),
    ).fetchall()
    return [entry for (body,) in reversed(rows) for entry in parse_history(body)]


def scope_memory(
    conn: Conn, scope: str, limit: int | None, *, share: bool = False
) -> tuple[str, list[HistoryEntry]]:
    """The scope's ``MEMORY.md`` and its newest ``limit`` entries (all when None): what
    its index docs are made of (``memory_docs``).

    ``share``: the rows read are share-locked until the transaction ends, so
    whatever deletes or rewrites them in another transaction (a forget:
    ``forget`` deletes the version it replaces, and the entries of the
    session or the fact) waits for that end; one that committed before is
    not read (a row deleted while this waited for it is skipped, so the
    memory reads as another text). Memory first, then entries: the order
    ``forget`` and ``delete_scope`` take them in, so the two cannot deadlock.
    """
    return newest_memory(conn, scope, share=share)[1], entries(conn, scope, limit, share=share)


def _append(conn: Conn, entry: HistoryEntry, body: str) -> None:
    conn.execute(
        "INSERT INTO history_entries (scope, id, day, end_ts, session, body)"
        " VALUES (%s, %s, %s, %s, %s, %s)",
        (entry.scope, entry.id, entry_day(entry), entry.end_ts, entry.session, body),
    )


def write_consolidation(conn: Conn, entry: HistoryEntry, memory: str, base: str) -> Consolidated:
    """A consolidation's ``MEMORY.md`` (``memory``) and history ``entry``, together.

    "present" when the scope's history holds the entry (a replay: nothing to
    do); "moved", writing nothing, when the memory is no longer ``base``, or
    another writer wrote a version after the one read here; else "written".
    The memory is read before the entry is looked for: a writer of the same
    entry that commits in between is seen, and one that commits later took
    the version this one would write, so the entry is never written twice.
    """
    version, current = newest_memory(conn, entry.scope)
    if has_entry(conn, entry.scope, entry.id):
        return "present"
    if current != base or not insert_version(conn, entry.scope, memory, version):
        return "present" if has_entry(conn, entry.scope, entry.id) else "moved"
    _append(conn, entry, render_entry(entry))
    return "written"


def day_text(day: str, bodies: list[str]) -> str:
    """The file engine's history file of ``day`` with these entries, in append order."""
    text = f"# History · {day}\n"
    for body in bodies:
        sep = "" if text.endswith("\n\n") else "\n" if text.endswith("\n") else "\n\n"
        text += sep + body
    return text


def history_days(conn: Conn, scope: str) -> dict[str, str]:
    """Each day's history text of the scope, as the file engine's ``history/<day>.md``."""
    days: dict[str, list[str]] = {}
    for day, body in conn.execute(
        "SELECT day, body FROM history_entries WHERE scope = %s ORDER BY day, seq", (scope,)
    ):
        days.setdefault(day, []).append(body)
    return {day: day_text(day, bodies) for day, bodies in days.items()}


def scopes(conn: Conn) -> list[str]:
    """Every scope with a memory or a history entry, sorted as the file engine sorts them."""
    rows = conn.execute(
        "SELECT scope FROM memory_versions UNION SELECT scope FROM history_entries"
    ).fetchall()
    return sorted(scope for (scope,) in rows)


def delete_scope(conn: Conn, scope: str) -> None:
    """Remove the scope's memory, every version of it, and its history."""
    conn.execute("DELETE FROM memory_versions WHERE scope = %s", (scope,))
    conn.execute("DELETE FROM history_entries WHERE scope = %s", (scope,))


def _forget_in_memory(conn: Conn, job: ForgetJob) -> int:
    """Drop ``job``'s facts from its scope's ``MEMORY.md``; how many went.

    Only the newest version is kept: an older one may hold the fact or the
    session's facts even when the newest no longer does. A changed memory is
    written as a new version, so a writer that read the old one is refused.
    """
    scope = job.scope
    while True:
        version, text = newest_memory(conn, scope)
        if job.session is not None:
            new, removed = drop_session(text, job.session)
        else:
            assert job.fact is not None
            new, removed = drop_fact(text, job.fact)
        if new == text:  # not ``removed``: a fact that only loses a source is a change too
            break
        if insert_version(conn, scope, new, version):
            version += 1
            break
    conn.execute("DELETE FROM memory_versions WHERE scope = %s AND version < %s", (scope, version))
    return removed


def _forget_fact_in_history(conn: Conn, scope: str, fact: str) -> int:
    """Drop ``fact`` from the facts and retired facts of the scope's entries; how many changed."""
    key = fact_key(fact)
    changed = []
    for entry_id, body in conn.execute(
        "SELECT id, body FROM history_entries WHERE scope = %s", (scope,)
    ).fetchall():
        for entry in parse_history(body):
            kept = [f for f in entry.facts if fact_key(f) != key]
            retired = [f for f in entry.retired if fact_key(f) != key]
            if (kept, retired) != (entry.facts, entry.retired):
                replacement = msgspec.structs.replace(entry, facts=kept, retired=retired)
                changed.append((render_entry(replacement), scope, entry_id))
    if changed:
        with conn.cursor() as cur:
            cur.executemany(
                "UPDATE history_entries SET body = %s WHERE scope = %s AND id = %s", changed
            )
    return len(changed)


def forget(conn: Conn, job: ForgetJob) -> int:
    """Remove ``job``'s traces; how many episodes and facts went (as ``forget_files``).

    A fact leaves ``MEMORY.md`` and the episodes; a session leaves a shared
    scope (its episodes and the facts only it supports), or takes its own
    scope (``session/<name>``) with it whole. Idempotent: redone, it finds
    nothing more to remove.
    """
    if job.session is not None and job.scope == default_scope(job.session):
        delete_scope(conn, job.scope)
        return 0
    removed = _forget_in_memory(conn, job)
    if job.session is None:
        assert job.fact is not None
        return removed + _forget_fact_in_history(conn, job.scope, job.fact)
    gone = conn.execute(
        "DELETE FROM history_entries WHERE scope = %s AND session = %s",
        (job.scope, job.session),
    )
    return removed + gone.rowcount
