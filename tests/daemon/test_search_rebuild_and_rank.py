"""Search results that must not depend on how the index got there, and scores that mean something.

Covers rebuilds (``reindex`` and a deleted index directory give the same
answers, searches during a reindex never fail, text scores after many writes
equal a rebuilt index's), consolidated episodes and facts in the index, and
scores a host can threshold.
"""

from __future__ import annotations

import json
import shutil
import threading
from collections.abc import Callable
from pathlib import Path
from typing import Any, TypeVar

import psycopg
import pytest

from reverie.config import InvalidArgument
from reverie.daemon import Client
from reverie.daemon import protocol as p
from tests.checks import poll
from tests.daemon.search_corpus import CONVERSATION, caught_up, load_conversation, run_reverie
from tests.inprocess import InProcessDaemon

pytestmark = [pytest.mark.engines, pytest.mark.in_process]


T = TypeVar("T")


QUERIES = [
    "Portugal travel dates",
    "bread fermentation problem",
    "peanut allergy",
    "billing outage rollback",
    "hotel budget",
]


def _answers(client: Client) -> list[list[tuple[str, list[str]]]]:
    return [
        [(h.kind, h.message_ids) for h in client.search(q, k=5, everywhere=True)] for q in QUERIES
    ]


def test_reindex_and_a_deleted_index_give_the_same_answers(daemon: InProcessDaemon) -> None:
    with daemon.client() as client:
        load_conversation(client)
        poll(lambda: caught_up(client))
        before = _answers(client)
        assert all(before)
        assert client.reindex() in (True, False)
        poll(lambda: client.status().index.reindex.state == "done")
        assert _answers(client) == before
    assert _rebuilt_from_nothing(daemon, _answers) == before


def test_searches_while_reindex_swaps_the_index_never_fail(daemon: InProcessDaemon) -> None:
    """The old index directory is deleted after the swap: not under a search still reading it."""
    with daemon.client() as client:
        load_conversation(client)
        poll(lambda: caught_up(client))
    stop, errors, searches = threading.Event(), [], [0]

    def search() -> None:
        with daemon.client() as client:
            while not stop.is_set():
                try:
                    client.search("hotel budget", k=5, everywhere=True)
                    searches[0] += 1
                except Exception as exc:  # any failure is the finding
                    errors.append(exc)

    searchers = [threading.Thread(target=search) for _ in range(3)]
    for t in searchers:
        t.start()
    try:
        with daemon.client() as client:
            for _ in range(4):
                started = client.status().index.reindex.started
                client.reindex()
                done = poll(lambda s=started: _reindex_ended_after(client, s))
                assert done.state == "done", done
    finally:
        stop.set()
        for t in searchers:
            t.join()
    assert searches[0] > 0
    assert errors == []


def _reindex_ended_after(client: Client, started: float) -> p.ReindexStatus | None:
    progress = client.status().index.reindex
    ended = progress.started > started and progress.state in ("done", "failed")
    return progress if ended else None


def _rebuilt_from_nothing(daemon: InProcessDaemon, answers: Callable[[Client], T]) -> T:
    """Stop, delete the index (its directory, or its table), start: ``answers`` once the
    new index has settled."""
    with daemon.client() as client:
        path = Path(client.status().index.path)
    daemon.stop()
    url = daemon.env.get("REVERIE_STORE__URL")
    if url:
        with psycopg.connect(url, autocommit=True) as conn:
            conn.execute("DROP TABLE index_docs")
            conn.execute("DELETE FROM meta WHERE key = 'index:index_docs'")
    else:
        shutil.rmtree(path)
    daemon.start()
    with daemon.client() as client:
        poll(lambda: caught_up(client))
        return answers(client)


def _text_scores(client: Client) -> list[list[tuple[str, float]]]:
    return [
        [(h.uid, round(h.score, 6)) for h in client.search(q, k=20, mode="text", everywhere=True)]
        for q in QUERIES
    ]


def test_text_scores_after_many_writes_equal_a_rebuilt_index(daemon: InProcessDaemon) -> None:
    """Rows written in many batches rank like one rebuild once the index has settled.

    Before the indexer optimized a quiet index, rows added after the full-text
    index was built, and rows deleted since, left other BM25 statistics than
    a rebuilt index has, so a rebuild reordered text hits (invariant 7).
    """
    with daemon.client() as client:
        for round_ in range(4):
            for i, (session, role, text) in enumerate(CONVERSATION):
                client.append(
                    f"s:{session}{round_ % 2}", role, f"{text} ({round_})", id=f"r{round_}-{i}"
                )
            poll(lambda: client.status().index.messages_behind == 0)
            if round_ == 1:  # a reindex leaves an optimized index; the rounds after add to it
                client.reindex()
                poll(lambda: client.status().index.reindex.state == "done")
            if round_ == 2:  # deleted rows stay in the text statistics until an optimize
                client.forget("s:trip0")
        poll(lambda: caught_up(client))
        before = _text_scores(client)
        assert sum(map(len, before)) >= 10  # enough text hits for an order to be compared
    assert _rebuilt_from_nothing(daemon, _text_scores) == before


def test_consolidation_indexes_episodes_and_facts(
    make_daemon: Callable[..., InProcessDaemon],
) -> None:
    config = "[consolidation]\nidle_after = 600.0\nbudget_tokens = 10\ntarget_tokens = 0\n"
    daemon = make_daemon(config=config)
    with daemon.client() as client:
        load_conversation(client)
        assert client.consolidate("s:trip", wait=True) is not None
        view = client.memory("session/s:trip")
        assert view.entries

        def episodes() -> list[Any]:
            return client.search("Lisbon hotel", kinds=["episode"], k=5, everywhere=True)

        hits = poll(episodes)
        assert hits[0].session == "s:trip" and hits[0].scope == "session/s:trip"
        assert set(hits[0].message_ids) <= {"m0", "m1", "m2"}
        if view.memory.strip():
            facts = poll(lambda: client.search("Lisbon", kinds=["fact"], k=5, everywhere=True))
            assert {h.scope for h in facts} == {"session/s:trip"}
        for mode in ("hybrid", "text", "vector"):  # no kinds: nothing, though episodes match
            assert client.search("Lisbon hotel", kinds=[], mode=mode, everywhere=True).hits == []
        client.forget("s:trip")
        assert (
            client.search("Lisbon hotel", kinds=["episode", "fact"], k=5, everywhere=True).hits
            == []
        )


def test_a_consolidated_episode_does_not_outrank_the_message_itself(
    make_daemon: Callable[..., InProcessDaemon],
) -> None:
    """An episode stands for many messages: it must not take the top on words it merely repeats."""
    config = "[consolidation]\nidle_after = 600.0\nbudget_tokens = 10\ntarget_tokens = 0\n"
    daemon = make_daemon(config=config)
    with daemon.client() as client:
        client.append_many(
            "s:long",
            [
                {"role": "user" if i % 2 == 0 else "assistant", "content": text, "id": f"t{i}"}
                for i, text in enumerate(
                    [
                        "I adopted a greyhound called Pixel on 3 May 2023.",
                        "Congratulations! How is Pixel settling in?",
                        "My sister Ana lives in Porto and teaches chemistry.",
                        "Porto is lovely. Does Ana visit often?",
                        "I started pottery classes every Thursday in June 2023.",
                        "Pottery sounds relaxing.",
                    ]
                )
            ],
        )
        assert client.consolidate("s:long", wait=True) is not None
        poll(lambda: client.search("Pixel Ana pottery", kinds=["episode"], everywhere=True).hits)
        poll(lambda: caught_up(client))
        for query, wanted in (
            ("when did I adopt the greyhound", "t0"),
            ("where does my sister Ana live", "t2"),
            ("pottery classes Thursday", "t4"),
        ):
            for mode in ("hybrid", "text"):
                hits = client.search(query, session="s:long", k=3, mode=mode)
                assert hits[0].kind == "message" and hits[0].message_ids == [wanted], (query, mode)


def test_hybrid_measures_meaning_above_the_background_of_a_full_candidate_list(
    daemon: InProcessDaemon,
) -> None:
    """Sixty turns all about walking the dog are all near "walking my dog": in a hybrid
    search the farthest of the meaning signal's candidates is the background (meaning 0)
    and the nearest stands above it. A search by meaning alone keeps the absolute
    meaning (the nearest hits, however alike), and so does a session with fewer turns
    than the candidate depth."""
    places = ["the park", "the river", "the old mill", "the beach", "the woods", "the hill"]
    walks = [
        {"role": "user", "content": f"Day {i}: took the dog for a walk along {places[i % 6]}."}
        for i in range(60)
    ]
    with daemon.client() as client:
        client.append_many("s:walks", walks)
        client.append("s:one", "user", "Took the dog for a long walk by the river.")
        poll(lambda: caught_up(client) and client.status().index.messages_behind == 0)
        hybrid = client.search("walking my dog", session="s:walks", k=60, min_score=0).hits
        assert len(hybrid) == 60
        assert min(h.meaning for h in hybrid) == 0.0 < max(h.meaning for h in hybrid) < 1.0
        nearest = client.search("walking my dog", session="s:walks", k=50, mode="vector").hits
        assert len(nearest) == 50 and nearest[-1].meaning > 0.3  # absolute, far above 0.2
        (alone,) = client.search("walking my dog", session="s:one").hits
        assert alone.meaning > 0.3


def test_scores_mean_the_same_in_every_search_so_a_host_can_threshold_them(
    daemon: InProcessDaemon,
) -> None:
    """After the only session about a wedding is forgotten, "wedding" finds no word: its
    nearest hits score their meaning alone (the words signal abstains), near 0, not 1 as
    the best of a min-max scale."""
    with daemon.client() as client:
        load_conversation(client)
        client.append("s:party", "user", "Our wedding is in June, at the vineyard near Porto.")
        poll(lambda: caught_up(client) and client.status().index.messages_behind == 0)
        (found, *_) = client.search("wedding at the vineyard", k=3, everywhere=True)
        assert found.message_ids and "vineyard" in found.text
        assert found.score >= 0.5 and found.words >= 0.9 and found.meaning > 0.0

        client.forget("s:party")

        near = client.search("wedding at the vineyard", everywhere=True).hits  # min_score 0.05
        assert all(h.words == 0 and h.score == pytest.approx(h.meaning) for h in near), near
        every = client.search("wedding at the vineyard", min_score=0.0, k=5, everywhere=True).hits
        assert every and max(h.score for h in every) < 0.1
        assert [h.score for h in every] == sorted((h.score for h in every), reverse=True)
        assert client.search("hotel budget", min_score=0.9, everywhere=True).hits == []
        with pytest.raises(InvalidArgument, match="everywhere=True"):
            client.search("hotel budget")  # neither scope nor session: not every user's memory
        assert client.search("hotel budget", scope="session/s:trip")[0].message_ids == ["m2"]
        for bad in (-0.1, 1.5, float("nan")):
            with pytest.raises(InvalidArgument, match="min_score"):
                client.search("hotel", min_score=bad, everywhere=True)
    out = run_reverie(
        daemon, "search", "hotel budget", "--json", "--min-score", "0.3", "--everywhere"
    ).stdout
    hits = json.loads(out)["hits"]
    assert hits[0]["message_ids"] == ["m2"] and hits[0]["words"] > 0
    assert all(0.3 <= h["score"] <= 1.0 for h in hits)
    refused = run_reverie(daemon, "search", "hotel", "--min-score", "2", "--everywhere")
    assert refused.returncode == 1 and "min_score" in refused.stderr
    assert "Traceback" not in refused.stderr
