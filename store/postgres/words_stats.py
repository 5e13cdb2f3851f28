"""The words index's row and token counts in Postgres: ``message_words_stats``, in shards.

The statement triggers of ``message_text`` add each insert's and delete's
rows and tokens to one row of ``message_words_stats``; readers sum the rows
(``N`` and ``avgdl`` of BM25, ``TermCounts``' clock). One row for every
writer would be locked by each append until its commit, and daemons sharing
the database would append one at a time, so the counts are split in shards.

A daemon's writer counts into a shard it holds alone (``take_stats_shard``:
a session advisory lock, gone with its connection; ``OWN_SHARD_DDL``, the
fourth migration). Before, every connection counted into the shard of its
server process, ``pg_backend_pid() % STATS_SHARDS``: two daemons' writers
sharing one waited for each other's commit there while each held session
rows the other wanted, and deadlocked (1 pair in 16 at each reconnection).
Any other connection (a tool, a test) still counts that way.
"""

from __future__ import annotations

from typing import Any

import psycopg

__all__ = ["OWN_SHARD_DDL", "STATS_SHARDS", "count_function", "take_stats_shard"]
#: Shards of the connections that hold none of their own (by server process).
STATS_SHARDS = 16
#: The shards a daemon's writer may hold alone, above those of the other connections.
OWN_SHARDS = range(STATS_SHARDS, STATS_SHARDS + 1024)
#: The advisory lock space (the first key of two) of the shards held alone.
_SHARD_LOCKS = 0x5245_5653  # "REVS"


def count_function(shard: str) -> str:
    """The statement trigger's function, counting into the shard SQL ``shard`` names."""
    return f"""
CREATE OR REPLACE FUNCTION reverie_words_count() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
    INSERT INTO message_words_stats AS t (shard, rows, tokens)
    SELECT {shard}, s.sign * c.n, s.sign * c.t
    FROM (SELECT CASE TG_OP WHEN 'DELETE' THEN -1 ELSE 1 END AS sign) AS s,
        (SELECT count(*) AS n, coalesce(sum(words_len), 0) AS t FROM changed) AS c
    WHERE c.n > 0
    ON CONFLICT (shard) DO UPDATE SET rows = t.rows + excluded.rows,
        tokens = t.tokens + excluded.tokens;
    RETURN NULL;
END $$"""


#: The migration that counts a writer's rows into the shard it holds alone
#: (``take_stats_shard``), the others' into their server process's.
OWN_SHARD_DDL: tuple[str, ...] = (
    count_function(
        "coalesce(nullif(current_setting('reverie.shard', true), '')::integer,"
        f" pg_backend_pid() % {STATS_SHARDS})"
    ),
)


def take_stats_shard(conn: psycopg.Connection[Any]) -> int | None:
    """Hold a words-stats shard no other connection counts into, for ``conn``'s life, and
    count its writes there; None (the shared ones then) if every one is held."""
    for shard in OWN_SHARDS:  # one at a time: a set-returning query would lock them all
        taken = conn.execute("SELECT pg_try_advisory_lock(%s, %s)", (_SHARD_LOCKS, shard))
        if taken.fetchone() == (True,):
            conn.execute("SELECT set_config('reverie.shard', %s, false)", (str(shard),))
            return shard
    return None
