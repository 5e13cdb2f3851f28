"""An append plan's write is a pure function of the database: the writer may run it twice.

The writer re-runs a batch one function at a time when another function of
the batch fails; a plan that changed the row it was given would start its
second run from its first run's row (seqs skipping, tail counts doubled).
"""

from __future__ import annotations

import threading
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import trio
import trio.testing

from reverie.actors import AppendRequest, Envelope, Services
from reverie.actors.appends import AppendPlan
from reverie.config import load_config
from reverie.store import SessionRecord, TokenCounter, Tx
from reverie.store.files.db import Database


@dataclass
class _Message:
    content: str
    role: str = "user"
    id: str | None = None
    name: str | None = None
    tool_calls: Any = None
    tool_call_id: str | None = None
    ts: float | None = None


def test_a_plan_re_run_after_its_batch_failed_writes_what_one_run_writes(tmp_path: Path) -> None:
    async def main() -> None:
        config = load_config(env={"REVERIE_DAEMON__DATA_DIR": str(tmp_path)})
        db = Database(tmp_path / "plan.sqlite3", durability="process")
        await db.open()
        services = Services(config=config, db=db, tokens=TokenCounter())
        replies: list[object] = []
        request = AppendRequest([_Message("hello", id="a"), _Message("again", id="b")])
        plan = AppendPlan("s", None, [Envelope(request, replies.append)], services)
        started, release = threading.Event(), threading.Event()

        def hold(t: Tx) -> None:  # keeps the writer busy while the batch queues
            started.set()
            release.wait(5)

        def bug(t: Tx) -> None:
            raise ValueError("another session's write fails: the batch is re-run one by one")

        try:
            async with trio.open_nursery() as nursery:
                nursery.start_soon(db.write, hold)
                await trio.to_thread.run_sync(started.wait)
                outcomes: list[Any] = []

                async def batch() -> None:
                    outcomes.extend(await db.write_many([plan.write, bug]))

                nursery.start_soon(batch)
                await trio.testing.wait_all_tasks_blocked()  # both queued behind ``hold``
                release.set()
            record, acks = outcomes[0]
            assert isinstance(outcomes[1], Exception)
            assert isinstance(record, SessionRecord)
            assert record.last_seq == 2 and record.tail_count == 2
            assert [o.acks for o in acks] == [[(1, "a"), (2, "b")]]
            assert plan.finish(outcomes[0]) == record and replies == [[(1, "a"), (2, "b")]]
        finally:
            await db.close()

    trio.run(main)
