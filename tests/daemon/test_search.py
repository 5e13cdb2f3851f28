"""Search through the real daemon with the real local embedding model.

Covers read-your-writes (a message is found right after its append is
acknowledged), filters, hostile queries, forget, ``reverie import`` and a
failing index read; rebuilds and scores are ``test_search_rebuild_and_rank``'s.
"""

from __future__ import annotations

import json
from collections.abc import Callable
from pathlib import Path

import lancedb
import pytest

from reverie.config import InvalidArgument, NotFound, ReverieError
from reverie.daemon import protocol as p
from tests.checks import poll
from tests.daemon.search_corpus import CONVERSATION, caught_up, load_conversation, run_reverie
from tests.inprocess import InProcessDaemon

pytestmark = [pytest.mark.engines, pytest.mark.in_process]


def test_message_found_right_after_its_append_is_acked(daemon: InProcessDaemon) -> None:
    with daemon.client() as client:
        load_conversation(client)
        ack = client.append("s:new", "user", "The wifi password is zebra-orchid-42", id="pw")
        hits = client.search("wifi password", k=3, everywhere=True)
        assert hits and hits[0].message_ids == [ack.id]
        assert hits[0].kind == "message" and hits[0].session == "s:new"
        assert hits[0].scope == "session/s:new"
        assert client.search("zebra orchid", k=3, mode="text", everywhere=True)[0].message_ids == [
            "pw"
        ]
        poll(lambda: caught_up(client))
        settled = client.search("wifi password", k=3, everywhere=True)
        assert settled[0].message_ids == ["pw"] and settled.unembedded == 0
        assert client.search("zebra orchid", k=3, mode="vector", everywhere=True)[
            0
        ].message_ids == ["pw"]


def _stored_texts(data_dir: Path) -> dict[str, str]:
    """The ``text`` column of every row in the daemon's index directories, by uid."""
    texts: dict[str, str] = {}
    for path in data_dir.glob("index*"):
        rows = lancedb.connect(str(path)).open_table("docs").to_arrow()
        texts.update(zip(rows["uid"].to_pylist(), rows["text"].to_pylist(), strict=True))
    return texts


@pytest.mark.files
def test_the_index_stores_no_message_text_yet_a_search_by_meaning_returns_it(
    daemon: InProcessDaemon,
) -> None:
    """LanceDB's full-text index covers episodes and facts only; the log holds messages' text."""
    with daemon.client() as client:
        by_id = load_conversation(client)
        poll(lambda: caught_up(client))
        stored = _stored_texts(daemon.data_dir)
        assert len(stored) == len(CONVERSATION) and set(stored.values()) == {""}
        hits = client.search("bread fermentation problem", k=3, mode="vector", everywhere=True)
        assert hits[0].message_ids == ["m3"] and hits[0].text == by_id["m3"]
        assert all(h.text == by_id[h.message_ids[0]] for h in hits)


def test_words_find_every_acked_message_while_the_vector_index_lags(
    daemon: InProcessDaemon,
) -> None:
    """Thousands of messages behind, the newest ack is found and the gap is reported."""
    backlog = 3000
    with daemon.client() as client:
        for start in range(0, backlog, 250):
            client.append_many(
                "bulk",
                [
                    {"role": "user", "content": f"filler note {i} about the weather", "id": f"b{i}"}
                    for i in range(start, start + 250)
                ],
            )
        ack = client.append("bulk", "user", "The locker code is quokka-7731", id="code")
        behind = client.status().index.messages_behind
        assert behind >= 1000, behind
        for mode in ("hybrid", "text"):
            found = client.search("locker code quokka", session="bulk", k=3, mode=mode)
            assert found[0].message_ids == [ack.id], mode
            assert found.unembedded >= 1000
        assert client.search("weather", session="nobody").unembedded == 0
        scores = [h.score for h in client.search("filler weather note", session="bulk", k=10)]
        assert all(0.0 <= x <= 1.0 for x in scores) and scores == sorted(scores, reverse=True)


def test_scope_session_and_kind_filters_hold(daemon: InProcessDaemon) -> None:
    with daemon.client() as client:
        load_conversation(client)
        for settled in (False, True):
            if settled:
                poll(lambda: caught_up(client))
            hits = client.search("hotel Lisbon sourdough", session="s:cooking", k=20)
            assert hits and {h.session for h in hits} == {"s:cooking"}
            hits = client.search("anything at all deploy", scope="shared", k=20)
            assert hits and {h.scope for h in hits} == {"shared"}
            assert list(client.search("Lisbon", scope="nobody")) == []
            assert list(client.search("Lisbon", kinds=["fact"], everywhere=True)) == []


def test_hostile_queries_get_a_typed_error_or_a_sane_answer(daemon: InProcessDaemon) -> None:
    with daemon.client() as client:
        load_conversation(client)
        for query in ("", "   ", "\x00"):
            with pytest.raises(InvalidArgument):
                client.search(query, everywhere=True)
        with pytest.raises(InvalidArgument):
            client.search("x", k=0, everywhere=True)
        with pytest.raises(InvalidArgument):
            client.search("x", mode="sql", everywhere=True)
        with pytest.raises(InvalidArgument):
            client.search("x", kinds=["secret"], everywhere=True)
        with pytest.raises(InvalidArgument):
            client.search("x", scope="\x00bad")
        for query in (
            "lisbon" * 150_000,  # ~900 kB, under the 1 MiB frame limit
            'Lisbon" OR 1=1; -- ) AND (*:* ^2 ~ NOT +',
            "Lis\x00bon",
            "'); DROP TABLE docs; --",
            "🙂" * 1000,
        ):
            for mode in ("hybrid", "vector", "text"):
                hits = client.search(query, mode=mode, k=5, everywhere=True)
                assert isinstance(hits.hits, list) and len(hits) <= 5
        assert client.search('Lisbon" OR "x', mode="text", k=5, everywhere=True)
        assert client.hello()  # still up


def test_forget_removes_hits(daemon: InProcessDaemon) -> None:
    with daemon.client() as client:
        load_conversation(client)
        assert any(
            h.session == "s:cooking"
            for h in client.search("sourdough starter", k=10, everywhere=True)
        )
        client.forget("s:cooking")
        assert all(
            h.session != "s:cooking"
            for h in client.search("sourdough starter", k=10, everywhere=True)
        )
        poll(lambda: caught_up(client))
        assert all(
            h.session != "s:cooking" for h in client.search("sourdough", k=10, everywhere=True)
        )


def test_import_then_search_and_cli(daemon: InProcessDaemon, tmp_path: Path) -> None:
    rows = [
        {
            "session": f"imp:{i % 3}",
            "role": "user",
            "content": f"note {i} about topic {i}",
            "id": f"n{i}",
        }
        for i in range(40)
    ]
    rows.append(
        {
            "session": "imp:x",
            "role": "user",
            "content": "The giraffe named Kofi is 5 metres tall",
            "id": "g",
        }
    )
    path = tmp_path / "msgs.jsonl"
    path.write_text("".join(json.dumps(r) + "\n" for r in rows))
    out = run_reverie(daemon, "import", str(path))
    assert out.returncode == 0, out.stderr
    assert "imported 41 messages" in out.stdout
    found = run_reverie(daemon, "search", "giraffe height", "--json", "-k", "3", "--everywhere")
    assert found.returncode == 0, found.stderr
    hits = json.loads(found.stdout)["hits"]
    assert hits[0]["message_ids"] == ["g"] and hits[0]["session"] == "imp:x"
    text = run_reverie(
        daemon, "search", "giraffe", "--session", "imp:x", "--kind", "message"
    )  # alias
    assert "Kofi" in text.stdout
    again = run_reverie(daemon, "reindex")
    assert again.returncode == 0, again.stderr
    assert "reindexed" in again.stdout
    assert "messages behind" in run_reverie(daemon, "status").stdout
    bad = tmp_path / "bad.jsonl"
    bad.write_text('{"session": "a", "role": "user", "content": "ok"}\nnot json\n')
    failed = run_reverie(daemon, "import", str(bad))
    assert failed.returncode == 1 and "bad.jsonl:2" in failed.stderr


def test_search_disabled_is_a_typed_error(make_daemon: Callable[..., InProcessDaemon]) -> None:
    daemon = make_daemon(config="[index]\nenabled = false\n")
    with daemon.client() as client:
        with pytest.raises(NotFound):
            client.search("anything", everywhere=True)
        assert client.status().index == p.IndexStatus(enabled=False)


@pytest.mark.files
def test_a_failing_index_read_answers_with_its_store_error(daemon: InProcessDaemon) -> None:
    """A search reads the log and the index at once; an index read that fails is answered
    with the store's own error code, not as an internal error of the daemon."""
    with daemon.client() as client:
        load_conversation(client)
        poll(lambda: caught_up(client), what="the index to settle")
        lance_files = list((daemon.data_dir / "index").rglob("data/*.lance"))
        assert lance_files, "the index has no data files to remove"
        for path in lance_files:
            path.unlink()
        with pytest.raises(ReverieError) as caught:
            client.search("Lisbon hotel", session="s:trip", mode="vector")
        assert caught.value.code == "store.error", caught.value.message
        assert "search index" in caught.value.message
