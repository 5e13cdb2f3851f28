"""``pop``: the session's newest message taken back, from the log, the counters and the index."""

from __future__ import annotations

from collections.abc import Callable

import lancedb
import psycopg
import pytest

from reverie import Client, Conflict
from tests.checks import poll
from tests.daemon_process import DaemonProcess
from tests.fakellm import FakeLLM, extractive_config
from tests.inprocess import InProcessDaemon

pytestmark = [pytest.mark.engines, pytest.mark.in_process]


def _vector_ids(client: Client, query: str, session: str) -> list[str]:
    hits = client.search(query, session=session, mode="vector", min_score=0.0, k=20)
    return [i for hit in hits for i in hit.message_ids]


def _indexed_ids(daemon: InProcessDaemon) -> list[str]:
    """The message ids of the rows of the index: its LanceDB tables, or its table in the
    Postgres store (a search hides a row the log lacks, so only the rows show whether
    the row went)."""
    url = daemon.env.get("REVERIE_STORE__URL")
    if url:
        with psycopg.connect(url) as conn:
            rows = conn.execute("SELECT unnest(message_ids) FROM index_docs ORDER BY 1")
            return [str(mid) for (mid,) in rows]
    ids: list[str] = []
    for path in daemon.data_dir.glob("index*"):
        table = lancedb.connect(str(path)).open_table("docs").to_arrow()
        ids.extend(i for row in table["message_ids"].to_pylist() for i in row)
    return ids


def test_pop_takes_the_newest_message_and_its_seq_back(daemon: InProcessDaemon) -> None:
    with daemon.client() as client:
        assert client.pop("s") is None  # no such session: nothing to pop
        client.append("s", "user", "first words", id="a")
        client.append("s", "assistant", "second words about zebras", id="b")
        popped = client.pop("s")
        assert popped is not None and (popped.id, popped.seq) == ("b", 2)
        assert popped.content == "second words about zebras"
        assert [m.id for m in client.history("s")] == ["a"]
        (info,) = client.sessions(prefix="s")
        assert (info.messages, info.tail_messages) == (1, 1)
        assert client.search("zebras", session="s", mode="text", min_score=0.0).hits == []
        again = client.append("s", "assistant", "other words", id="c")
        assert again.seq == 2  # seqs stay gap free
        assert client.pop("s") is not None and client.pop("s") is not None
        assert client.pop("s") is None
        assert client.sessions(prefix="s")[0].tail_tokens == 0


@pytest.fixture
def indexed(make_daemon: Callable[..., InProcessDaemon], fake_llm: FakeLLM) -> InProcessDaemon:
    """A daemon (fake embeddings, to be quick) whose session ``s`` holds two indexed messages,
    ``keep`` then ``gone``."""
    daemon = make_daemon(config=extractive_config(fake_llm))
    with daemon.client() as client:
        client.append("s", "user", "the weather in Lisbon is sunny", id="keep")
        client.append("s", "assistant", "my pet iguana eats strawberries", id="gone")
        poll(lambda: client.status().index.settled, what="both messages indexed")
    return daemon


def test_a_popped_message_leaves_the_search_index(indexed: InProcessDaemon) -> None:
    daemon = indexed
    with daemon.client() as client:
        assert "gone" in _vector_ids(client, "iguana strawberries", "s")
        client.pop("s")
        client.append("s", "assistant", "volcanoes erupt basalt lava", id="new")
        poll(lambda: client.status().index.settled, what="the pop and the new message applied")
        assert "gone" not in _vector_ids(client, "iguana strawberries", "s")
        assert sorted(_indexed_ids(daemon)) == ["keep", "new"]
        assert "keep" in _vector_ids(client, "weather Lisbon", "s")


@pytest.mark.in_process(False)  # kill -9
def test_a_pop_survives_a_restart_and_the_marker_is_applied(indexed: DaemonProcess) -> None:
    daemon = indexed
    with daemon.client() as client:
        client.pop("s")
    daemon.kill9()  # the marker applied or not yet: either way the row must go
    daemon.restart()
    with daemon.client() as client:
        assert [m.id for m in client.history("s")] == ["keep"]
        poll(
            lambda: (index := client.status().index).ready and index.settled,
            what="the index open and settled after the restart",
        )
        assert _indexed_ids(daemon) == ["keep"]


def test_a_consolidated_message_is_not_popped(
    make_daemon: Callable[..., InProcessDaemon], fake_llm: FakeLLM
) -> None:
    daemon = make_daemon(config=extractive_config(fake_llm))
    with daemon.client() as client:
        client.append("s", "user", "My sister lives in Porto and works as a nurse.", id="u")
        client.append("s", "assistant", "Noted.", id="a")
        outcome = client.consolidate("s", wait=True)
        assert outcome is not None
        with pytest.raises(Conflict, match="already consolidated"):
            client.pop("s")
        assert [m.id for m in client.history("s")] == ["u", "a"]
