"""The seam between the actors and their state: one transaction's view of storage.

The actors never touch a connection. ``db.read(fn)`` and ``db.write(fn)``
give ``fn`` a ``Tx``, whose methods are everything a reader or a writer may
ask of the sessions and messages, the consolidation jobs, the index feed,
the words of the log and working memory, within the one transaction the
database runs ``fn`` in (a snapshot for a read, the batch's transaction for
a write). The same ``Tx`` serves every engine: each method calls the
function of the same name in the engine's module for that concept (the
file engine's ``journal.load_session``, the Postgres engine's, ...), given
as an ``EngineSql``: each field is typed by the protocol its concept's
module in ``base/`` declares (``JournalSql``, ...), so mypy checks that both
engines' modules answer every call ``Tx`` makes. One ``Tx`` is made per database thread and reused for
every call it runs, so the seam costs a method call, not an allocation.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, TypeVar

from ..wm_bounds import Tally

if TYPE_CHECKING:
    from ..ranking import IndexDoc, SearchHit
    from ..wm_bounds import ScopeBounds
    from .index_feed import IndexFeedSql, LogPosition
    from .jobs import Job, JobsSql
    from .journal import (
        AppendOutcome,
        ForgetJob,
        JournalSql,
        MessageRecord,
        NewMessage,
        SessionRecord,
    )
    from .message_pop import MessagePopSql, Unindex
    from .message_text import MessageTextSql
    from .provenance import ProvenanceSql
    from .term_counts import TermCounts
    from .working_memory import (
        CheckpointRecord,
        KeyRecord,
        ScopeStats,
        ScratchRecord,
        TaskRecord,
        WorkingMemorySql,
    )

__all__ = ["EngineSql", "ReadFn", "Tx"]

T = TypeVar("T")


@dataclass(frozen=True, slots=True)
class EngineSql:
    """One engine's modules, by concept; each has the functions ``Tx`` names (its protocol)."""

    journal: JournalSql
    jobs: JobsSql
    index_feed: IndexFeedSql
    message_pop: MessagePopSql
    message_text: MessageTextSql
    provenance: ProvenanceSql
    working_memory: WorkingMemorySql


class Tx:
    """What ``fn`` may do inside one transaction of ``db.read`` / ``db.write``.

    ``conn`` is the engine's own connection, for the engine's code and its
    tests; code outside the store calls only the methods.
    """

    __slots__ = ("_sql", "conn", "term_counts")

    def __init__(self, conn: Any, sql: EngineSql, term_counts: TermCounts) -> None:
        self.conn = conn
        self._sql = sql
        #: The words index's per-word row counts, shared by the reader threads' searches.
        self.term_counts = term_counts

    def tally(self, scope: str, bounds: ScopeBounds) -> Tally:
        """What ``scope``'s working memory holds, to check writes against ``bounds``."""
        return Tally(scope, bounds, lambda: self._sql.working_memory.scope_usage(self.conn, scope))

    # -- journal ---------------------------------------------------------------
    def append_requests(
        self, session: SessionRecord, requests: Sequence[Sequence[NewMessage]]
    ) -> list[AppendOutcome]:
        return self._sql.journal.append_requests(self.conn, session, requests)

    def save_session(self, s: SessionRecord) -> None:
        return self._sql.journal.save_session(self.conn, s)

    def claim_session(self, name: str) -> SessionRecord | None:
        return self._sql.journal.claim_session(self.conn, name)

    def release_sessions(self, owned: list[tuple[str, int]]) -> None:
        self._sql.journal.release_sessions(self.conn, owned)

    def load_session(self, name: str) -> SessionRecord | None:
        return self._sql.journal.load_session(self.conn, name)

    def read_history(self, session: str, after_seq: int, limit: int) -> list[MessageRecord]:
        return self._sql.journal.read_history(self.conn, session, after_seq, limit)

    def read_tail(self, session: str, cursor_seq: int) -> list[MessageRecord]:
        return self._sql.journal.read_tail(self.conn, session, cursor_seq)

    def count_sessions(self) -> int:
        return self._sql.journal.count_sessions(self.conn)

    def list_sessions(self, after: str, limit: int, prefix: str = "") -> list[SessionRecord]:
        return self._sql.journal.list_sessions(self.conn, after, limit, prefix)

    def sessions_over(self, tokens: int) -> list[SessionRecord]:
        return self._sql.journal.sessions_over(self.conn, tokens)

    def delete_session(self, name: str, scope: str | None = None) -> int:
        return self._sql.journal.delete_session(self.conn, name, scope)

    def record_forget(self, job: ForgetJob) -> None:
        return self._sql.journal.record_forget(self.conn, job)

    def finish_forget(self, job: ForgetJob) -> None:
        return self._sql.journal.finish_forget(self.conn, job)

    def pending_forgets(self) -> list[ForgetJob]:
        return self._sql.journal.pending_forgets(self.conn)

    # -- jobs ------------------------------------------------------------------
    def create_job(self, job: Job) -> Job:
        return self._sql.jobs.create_job(self.conn, job)

    def open_job(self, session: str) -> Job | None:
        return self._sql.jobs.open_job(self.conn, session)

    def open_jobs(self) -> list[Job]:
        return self._sql.jobs.open_jobs(self.conn)

    def record_attempt(self, job_id: str, error: str | None, now: float) -> None:
        return self._sql.jobs.record_attempt(self.conn, job_id, error, now)

    def finish_job(self, job: Job, session: SessionRecord, state: str, now: float) -> bool:
        return self._sql.jobs.finish_job(self.conn, job, session, state, now)

    def job_counts(self) -> dict[str, dict[str, int]]:
        return self._sql.jobs.job_counts(self.conn)

    # -- index_feed ------------------------------------------------------------
    def read_meta(self, key: str) -> object:
        return self._sql.index_feed.read_meta(self.conn, key)

    def write_meta(self, key: str, value: object) -> None:
        return self._sql.index_feed.write_meta(self.conn, key, value)

    def read_cursor(self) -> int:
        return self._sql.index_feed.read_cursor(self.conn)

    def write_cursor(self, gid: int) -> None:
        return self._sql.index_feed.write_cursor(self.conn, gid)

    def move_cursor(self, start: int, last: int, count: int) -> bool:
        return self._sql.index_feed.move_cursor(self.conn, start, last, count)

    def swap_index(self, name: str, reached: int) -> None:
        return self._sql.index_feed.swap_index(self.conn, name, reached)

    def log_position(self) -> LogPosition:
        return self._sql.index_feed.log_position(self.conn)

    def messages_after(
        self, gid: int, limit: int, *, newest: bool = False, upto: int | None = None
    ) -> list[tuple[int, IndexDoc]]:
        return self._sql.index_feed.messages_after(self.conn, gid, limit, newest=newest, upto=upto)

    def feed_horizon(self) -> int:
        return self._sql.index_feed.feed_horizon(self.conn)

    # -- message_pop -----------------------------------------------------------
    def pop_newest(self, session: SessionRecord) -> MessageRecord | None:
        return self._sql.message_pop.pop_newest(self.conn, session)

    def pending_unindex(self) -> list[Unindex]:
        return self._sql.message_pop.pending_unindex(self.conn)

    def unindexed_doc(self, marker: Unindex) -> IndexDoc | None:
        return self._sql.message_pop.unindexed_doc(self.conn, marker)

    def finish_unindex(self, markers: list[Unindex]) -> None:
        return self._sql.message_pop.finish_unindex(self.conn, markers)

    # -- message_text ----------------------------------------------------------
    def search_message_text(
        self,
        query: str,
        *,
        scope: str | None = None,
        session: str | None = None,
        since: float | None = None,
        until: float | None = None,
        among: Sequence[int] | None = None,
        limit: int = 10,
    ) -> list[SearchHit]:
        return self._sql.message_text.search_message_text(
            self.conn,
            query,
            self.term_counts,
            scope=scope,
            session=session,
            since=since,
            until=until,
            among=among,
            limit=limit,
        )

    def words_reference(self, query: str) -> float:
        return self._sql.message_text.words_reference(self.conn, query, self.term_counts)

    def with_log_text(self, hits: list[SearchHit]) -> list[SearchHit]:
        return self._sql.message_text.with_log_text(self.conn, hits)

    def vector_gap(
        self, *, scope: str | None, session: str | None, since: float | None, until: float | None
    ) -> tuple[int, int]:
        return self._sql.message_text.vector_gap(
            self.conn, scope=scope, session=session, since=since, until=until
        )

    # -- provenance ------------------------------------------------------------
    def covered_messages(
        self,
        named: Sequence[tuple[str, str]],
        *,
        since: float | None = None,
        until: float | None = None,
    ) -> list[tuple[int, str]]:
        return self._sql.provenance.covered_messages(self.conn, named, since=since, until=until)

    # -- working_memory --------------------------------------------------------
    def lookup_key(
        self, scopes: Sequence[str], key: str, now: float
    ) -> tuple[str, KeyRecord] | None:
        return self._sql.working_memory.lookup_key(self.conn, scopes, key, now)

    def set_key(
        self,
        scope: str,
        key: str,
        value: bytes,
        *,
        expires_at: float | None,
        expected_version: int | None,
        now: float,
        tally: Tally,
    ) -> int:
        return self._sql.working_memory.set_key(
            self.conn,
            scope,
            key,
            value,
            expires_at=expires_at,
            expected_version=expected_version,
            now=now,
            tally=tally,
        )

    def delete_key(self, scope: str, key: str, now: float) -> bool:
        return self._sql.working_memory.delete_key(self.conn, scope, key, now)

    def list_keys(self, scope: str, prefix: str, now: float) -> list[KeyRecord]:
        return self._sql.working_memory.list_keys(self.conn, scope, prefix, now)

    def clear_keys(self, scope: str, now: float) -> int:
        return self._sql.working_memory.clear_keys(self.conn, scope, now)

    def sweep_keys(self, scope: str, keys: Sequence[str], now: float) -> int:
        return self._sql.working_memory.sweep_keys(self.conn, scope, keys, now)

    def expiring_keys(self) -> list[tuple[float, str, str]]:
        return self._sql.working_memory.expiring_keys(self.conn)

    def scope_stats(self, scope: str, now: float) -> ScopeStats:
        return self._sql.working_memory.scope_stats(self.conn, scope, now)

    def load_task(self, scope: str) -> TaskRecord | None:
        return self._sql.working_memory.load_task(self.conn, scope)

    def save_task(self, scope: str, task: TaskRecord | None) -> None:
        return self._sql.working_memory.save_task(self.conn, scope, task)

    def append_scratch(
        self, scope: str, text: str, ts: float, capacity: int, tally: Tally
    ) -> tuple[int, int]:
        return self._sql.working_memory.append_scratch(self.conn, scope, text, ts, capacity, tally)

    def read_scratch(self, scope: str, last: int | None) -> list[ScratchRecord]:
        return self._sql.working_memory.read_scratch(self.conn, scope, last)

    def clear_scratch(self, scope: str) -> int:
        return self._sql.working_memory.clear_scratch(self.conn, scope)

    def create_checkpoint(
        self, scope: str, checkpoint_id: str, label: str | None, now: float, tally: Tally
    ) -> CheckpointRecord:
        return self._sql.working_memory.create_checkpoint(
            self.conn, scope, checkpoint_id, label, now, tally
        )

    def restore_checkpoint(self, scope: str, checkpoint_id: str) -> list[KeyRecord]:
        return self._sql.working_memory.restore_checkpoint(self.conn, scope, checkpoint_id)

    def list_checkpoints(self, scope: str) -> list[CheckpointRecord]:
        return self._sql.working_memory.list_checkpoints(self.conn, scope)

    def delete_checkpoint(self, scope: str, checkpoint_id: str) -> None:
        return self._sql.working_memory.delete_checkpoint(self.conn, scope, checkpoint_id)

    def delete_scope_state(self, scope: str) -> int:
        return self._sql.working_memory.delete_scope_state(self.conn, scope)


#: A read: run on a read connection in a snapshot of its own (``GroupCommit.read``).
ReadFn = Callable[[Tx], T]
