"""A batch indexed again after a crash is not indexed twice.

The follower appends a batch's docs without looking their uids up only
while it knows the index holds exactly the messages up to its cursor. A
daemon killed between writing a batch to the index and moving the cursor
past it finds, on restart, that batch in the index but behind the cursor:
it must upsert it, not append it a second time.
"""

from __future__ import annotations

import apsw
import lancedb
import pytest

from reverie.store.files.index_feed import write_cursor
from tests.checks import poll
from tests.inprocess import InProcessDaemon

pytestmark = [pytest.mark.engines, pytest.mark.in_process]

TEXTS = [
    "The wifi password is zebra-orchid-42",
    "Our flight to Lisbon leaves on the 14th of May",
    "Maria is allergic to peanuts",
]


@pytest.mark.files
def test_a_batch_replayed_behind_the_cursor_is_upserted_not_duplicated(
    daemon: InProcessDaemon,
) -> None:
    with daemon.client() as client:
        for i, text in enumerate(TEXTS):
            client.append("s:replay", "user", text, id=f"m{i}")
        poll(lambda: client.status().index.settled)
    daemon.stop()
    db = apsw.Connection(str(daemon.data_dir / "reverie.sqlite3"))
    with db:  # the crash: the index has every doc, the cursor is back at the start
        write_cursor(db, 0)
    db.close()

    daemon.start()
    with daemon.client() as client:
        poll(lambda: client.status().index.cursor > 0 and client.status().index.settled)
        path = client.status().index.path
        assert [
            h.message_ids for h in client.search(TEXTS[0], k=1, mode="text", everywhere=True)
        ] == [["m0"]]
    daemon.stop()
    docs = lancedb.connect(path).open_table("docs")  # the index's one table
    assert docs.count_rows() == len(TEXTS)  # one doc per message, not two
