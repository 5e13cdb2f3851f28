"""The index's memory: LanceDB's caches reported, optimizes under load, the embedder's options,
what an idle daemon gives back."""

from __future__ import annotations

from collections.abc import Callable

import numpy as np

from reverie.daemon import Client
from reverie.store import LocalEmbedder
from tests.checks import poll
from tests.daemon_process import DaemonProcess
from tests.fakellm import FakeLLM, extractive_config


def test_status_reports_the_index_caches_and_its_optimizes_under_load(
    make_daemon: Callable[..., DaemonProcess], fake_llm: FakeLLM
) -> None:
    often = "\n[index]\noptimize_rows = 64\n"
    daemon = make_daemon(config=extractive_config(fake_llm) + often)
    with daemon.client() as client:
        for part in range(6):
            turns = [
                {"role": "user", "content": f"note {part}-{i} about the harbour"}
                for i in range(100)
            ]
            client.append_many(f"notes/{part}", turns)
        poll(lambda: client.status().index.messages_behind == 0, 120, "the index caught up")
        for part in range(6):
            assert client.search("harbour", session=f"notes/{part}")
        index = client.status().index
        assert index.cache_bytes > 0  # what LanceDB's caches hold (index.cache_mib bounds it)
        assert index.optimized >= 1  # 600 rows at optimize_rows = 64: optimized under load
        metrics = client.metrics()
    assert f"reverie_index_cache_bytes {index.cache_bytes}" in metrics


def test_the_local_model_gives_the_same_vectors_without_graph_optimizations() -> None:
    texts = ["I went to the harbour yesterday.", "My sister bakes sourdough in Lisbon."]
    optimized = LocalEmbedder(threads=1).embed(texts)
    plain = LocalEmbedder(threads=1, optimize=False).embed(texts)
    assert np.min(np.sum(optimized * plain, axis=1)) > 0.9999


def test_an_idle_daemon_drops_the_model_and_closes_the_index_then_opens_both_for_a_search(
    make_daemon: Callable[..., DaemonProcess],
) -> None:
    daemon = make_daemon(config="[embeddings]\nunload_after = 0.5\n")  # the local model
    with daemon.client() as client:
        client.append_many("idle", [{"role": "user", "content": "kayak permit for the regatta"}])
        poll(lambda: client.status().index.model_loads == 1, 120, "the model loaded to index")
        poll(lambda: not client.status().index.model_loaded, 60, "the idle model dropped")
        # Settled first: at unload_after = 0.5 the table may close between the last write
        # and the settling optimize, which opens it again.
        idle = poll(
            lambda: (s := client.status().index).settled and not s.table_open and s,
            60,
            "the settled index closed",
        )
        assert idle.cache_bytes == 0  # LanceDB's caches went with the table
        # and the libraries' code pages went back to the kernel (Linux 5.4+)
        poll(lambda: client.status().index.code_page_outs >= 1, 60, "the code paged out")
        metrics = client.metrics()
        assert "reverie_embedding_model_loaded 0" in metrics
        assert "reverie_index_table_open 0" in metrics
        assert "reverie_idle_code_page_outs_total 0" not in metrics
        hits = client.search("boat race paperwork", session="idle", mode="vector")
        assert [h.session for h in hits] == ["idle"]
        index = client.status().index
        assert index.model_loads == 2  # the search's query loaded it again
        assert index.table_opens == idle.table_opens + 1  # and opened the table again


def test_the_daemon_embeds_with_the_int8_rewrite_kept_in_its_data_dir(
    make_daemon: Callable[..., DaemonProcess],
) -> None:
    rewritten = make_daemon(name="int8")  # the default: embeddings.int8_weights = true
    shipped = make_daemon(name="float", config="[embeddings]\nint8_weights = false\n")
    for daemon, int8 in ((rewritten, True), (shipped, False)):
        with daemon.client() as client:
            assert not client.status().index.model_int8  # nothing loaded yet
            client.append_many(
                "boats", [{"role": "user", "content": "kayak permit for the regatta"}]
            )
            poll(lambda: client.status().index.messages_behind == 0, 120, "the index caught up")
            hits = client.search("boat race paperwork", session="boats", mode="vector")
            assert [h.session for h in hits] == ["boats"]
            assert client.status().index.model_int8 is int8
            assert f"reverie_embedding_model_int8 {int(int8)}" in client.metrics()
    (made,) = (rewritten.data_dir / "models").glob("minilm-int8-*.onnx")
    assert f"({made.name})" in rewritten.log()
    assert not (shipped.data_dir / "models").exists()
    assert "(model.onnx)" in shipped.log()


def _ship_log(client: Client, *, parts: int, each: int) -> None:
    """``each`` messages in each of the sessions ``log/0`` to ``log/<parts - 1>``."""
    for part in range(parts):
        turns = [
            {"role": "user", "content": f"entry {part}-{i} of the ship's log, calm sea"}
            for i in range(each)
        ]
        client.append_many(f"log/{part}", turns)


def test_messages_past_a_generation_go_to_new_tables_old_ones_still_found_and_rebuilt_alike(
    make_daemon: Callable[..., DaemonProcess],
) -> None:
    daemon = make_daemon(config="[index]\ngeneration_rows = 1024\n")  # the smallest allowed
    with daemon.client() as client:
        _ship_log(client, parts=3, each=800)  # 2,400 messages: two generations sealed, one open
        client.append_many("log/0", [{"role": "user", "content": "a narwhal off the bow"}])
        index = poll(
            lambda: (s := client.status().index).settled and s.tables >= 3 and s,
            300,
            "the index caught up and sealed two generations",
        )
        assert index.tables == 3
        metrics = client.metrics()
        # log/0's messages are in the first and the last generation: both are read.
        hits = client.search("narwhal", session="log/0", mode="vector", k=3)
        assert hits[0].text == "a narwhal off the bow"
        first = client.search("entry 0-5 of the ship's log", session="log/0", mode="vector", k=50)
        assert {h.session for h in first} == {"log/0"} and len(first) == 50

        assert client.reindex()  # a rebuild seals generations as it goes, too
        poll(lambda: client.status().index.reindex.state == "done", 300, "the rebuild")
        assert client.status().index.tables == 3
        again = client.search("entry 0-5 of the ship's log", session="log/0", mode="vector", k=50)
        assert [h.uid for h in again] == [h.uid for h in first]
    assert "reverie_index_tables 3" in metrics


def test_four_sealed_generations_are_merged_into_one_and_still_found_after_a_restart(
    make_daemon: Callable[..., DaemonProcess],
) -> None:
    config = "[index]\ngeneration_rows = 1024\nmerged_rows = 4096\n"
    daemon = make_daemon(config=config)
    with daemon.client() as client:
        _ship_log(client, parts=7, each=950)  # at least four generations sealed after home
        index = poll(
            lambda: (s := client.status().index).settled and s.merges >= 1 and s,
            300,
            "four sealed generations merged",
        )
        assert index.merges == 1
        assert "reverie_index_merges_total 1" in client.metrics()
        first = client.search("entry 1-5 of the ship's log", session="log/1", mode="vector", k=50)
        assert {h.session for h in first} == {"log/1"} and len(first) == 50
        dirs = poll(
            lambda: len(found := list(daemon.data_dir.glob("index*"))) == 1 and found,
            60,
            "the directory merged from removed",
        )
        (served,) = dirs  # the merged copy
        assert served.name != "index"
        # The first four generations after home are one table, named as the last of them.
        tables = sorted(p.name for p in served.glob("docs*.lance"))
        assert tables[:2] == ["docs.lance", "docs_4.lance"] and index.tables == len(tables)
    daemon.stop()
    daemon.start()
    with daemon.client() as client:
        again = client.search("entry 1-5 of the ship's log", session="log/1", mode="vector", k=50)
        assert [h.uid for h in again] == [h.uid for h in first]
        assert client.status().index.tables == len(tables)
