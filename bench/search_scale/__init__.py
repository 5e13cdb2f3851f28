"""Search latency at 100k and 1M messages with a session filter, through a real daemon.

What is real and what is not:

- **The messages** go through the public client (``append_many`` into a
  real ``reverie serve``), so the log, its full-text index (FTS5, kept by
  the append's triggers) and the sessions are exactly what a daemon builds.
  1,000 messages per session (synthetic sentences, ``bench/_corpus.py``), so
  a session filter selects the same number of rows at every size and only
  the store's size changes.
- **The vectors** are not MiniLM's own: embedding 1M texts with the
  packaged model runs at ~200 texts/s on these 2 cores (BENCHMARKS.md,
  Embeddings), over an hour. The messages are appended with the index off;
  then this module writes the daemon's LanceDB index at the store level
  (``SearchIndex``, the class the daemon's indexer writes through), with
  vectors drawn from 2,000 real MiniLM embeddings plus noise (the pool
  embedder of ``bench/search.py``), and moves the index cursor to the log's
  end. The daemon then opens that index as its own: same model id, same
  dimension, nothing to re-embed. Queries are embedded by the real model in
  the daemon, so the latencies include the query's embedding.
- **The store is cached** under ``build/bench-cache/`` (``REVERIE_BENCH_CACHE``),
  keyed by size and this module's ``_RECIPE``: a rerun measures in a minute
  instead of rebuilding. Delete the directory to rebuild.

Measured: p50/p99 of ``client.search(query, session=…, k=10)`` in ``text``,
``vector`` and ``hybrid`` mode, send to reply; then, with the daemon
stopped, the parts of a hybrid search timed alone in this process on the
same files (``_parts``), to show where the time goes.

Run: ``python -m bench search_scale`` (100k); ``REVERIE_BENCH_SCALE=100000,1000000``
adds 1M (about ten minutes to build on 2 cores the first time, then cached).
With ``--store postgresql://…`` (or ``--store embedded``) the same store is
built again on the Postgres engine, in a fresh database, and searched the same
way, beside SQLite's (``bench/search_scale/engines.py``).
"""

from __future__ import annotations

import os
import random
import shutil
import statistics
import tempfile
import time
from collections.abc import Callable
from pathlib import Path

import apsw
import numpy as np

from bench import _engines
from bench._corpus import append_sentences, sentence
from bench._machine import percentile, say
from bench.report import Section
from bench.search import _QUERIES, _PoolEmbedder
from bench.search_scale.engines import postgres_searches
from reverie.store import LocalEmbedder
from reverie.store.base.message_text import CONTEXT_WEIGHT
from reverie.store.files.index_feed import log_position, messages_after, write_cursor
from reverie.store.files.index_lifecycle import SearchIndex
from reverie.store.files.message_text import fts_match, search_message_text, words_reference
from reverie.store.files.term_counts import fresh_counts
from tests.daemon_process import DaemonProcess

REPO = Path(__file__).resolve().parents[2]
#: Bumped whenever the way the store is built changes, so a stale cache is rebuilt.
_RECIPE = "3"  # 3: the index in generations (index.generation_rows)
_PER_SESSION = 1000
_BATCH = 500
_POOL = 2000
_WARMUP = 20
_SEARCHES = 200
_MODES = ("text", "vector", "hybrid")
#: The daemon's index directory under its data dir (``actors/search/indexer.py``).
_INDEX_DIR = "index"
#: Quiet logs; consolidation never starts while the store is built or searched.
_CONFIG = '[daemon]\nlog_level = "warning"\n[consolidation]\nidle_after = 86400.0\n'
_READY_DEADLINE = 600.0
#: The words signal's ranking before issue 28, beside today's in the parts table.
_BM25_BEFORE = (
    f"SELECT rowid, -bm25(message_text, 1.0, {CONTEXT_WEIGHT}, 0.0) AS score FROM message_text"
    " WHERE message_text MATCH ? ORDER BY score DESC, rowid LIMIT 50"
)


def _cache_root() -> Path:
    return Path(os.environ.get("REVERIE_BENCH_CACHE", REPO / "build" / "bench-cache"))


def _append(daemon: DaemonProcess, total: int) -> float:
    """Append ``total`` messages in sessions of ``_PER_SESSION``; returns messages/s."""
    with daemon.client() as client:
        took = append_sentences(
            client,
            total,
            _BATCH,
            seed=28,
            session_of=lambda first: f"scale:{first // _PER_SESSION}",
            id_prefix="m",
            roles=("assistant", "user"),
            report_every=200,
        )
    return total / took


def _index(data_dir: Path, embedder: _PoolEmbedder) -> float:
    """Write every logged message into the daemon's index directory; returns seconds.

    The docs are the ones the daemon's follower writes (``messages_after``,
    ``message_doc``), appended as new and optimized after each chunk (scalar
    indexes folded in, as the follower's optimizes do, which come far more
    often); a generation is sealed when a chunk finds it full. The cursor then
    says every message is indexed.
    """
    started = time.perf_counter()
    conn = apsw.Connection(str(data_dir / "reverie.sqlite3"))
    index = SearchIndex(data_dir / _INDEX_DIR, embedder)  # type: ignore[arg-type]
    index.open()
    embedder.bulk = True
    gid, done, chunk = 0, 0, 20_000
    while batch := messages_after(conn, gid, chunk):
        index.add([doc for _, doc in batch], new=True)
        index.optimize()
        gid, done = batch[-1][0], done + len(batch)
        say(f"  indexed {done:,} messages ({index.tables} tables)")
    embedder.bulk = False
    with conn:
        write_cursor(conn, log_position(conn).max_gid)
    conn.close()
    return time.perf_counter() - started


def build(total: int, embedder: _PoolEmbedder) -> Path:
    """The data dir of a daemon holding ``total`` indexed messages, from the cache if built."""
    data_dir = _cache_root() / f"search_scale-{total}-r{_RECIPE}"
    done = data_dir / "complete"
    if done.exists():
        say(f"{total:,} messages: cached store {data_dir} ({done.read_text().strip()})")
        return data_dir
    shutil.rmtree(data_dir, ignore_errors=True)
    data_dir.mkdir(parents=True)
    with tempfile.TemporaryDirectory(prefix="reverie-scale-") as tmp:
        daemon = DaemonProcess(Path(tmp), config=_CONFIG + "[index]\nenabled = false\n")
        daemon.data_dir = data_dir / "data"
        daemon.start()
        try:
            rate = _append(daemon, total)
        finally:
            daemon.stop()
    seconds = _index(data_dir / "data", embedder)
    note = f"appended at {rate:,.0f} messages/s through the client; indexed in {seconds:.0f} s"
    say(f"  {note}")
    done.write_text(note + "\n")
    return data_dir


def _ready(daemon: DaemonProcess, total: int) -> None:
    """Wait until the daemon serves the built index; fail fast if it would re-embed it."""
    started = time.perf_counter()
    with daemon.client() as client:
        while time.perf_counter() - started < _READY_DEADLINE:
            index = client.status().index
            if index.ready and index.messages_behind:
                raise RuntimeError(
                    f"the daemon did not take the built index ({index.messages_behind:,} messages"
                    " behind): it would re-embed everything; delete the cache and rerun"
                )
            if index.ready and index.settled:
                return
            time.sleep(0.2)
    raise RuntimeError(f"the index of {total:,} messages was not ready in {_READY_DEADLINE:.0f} s")


def measure(data_dir: Path, total: int, config: str = _CONFIG) -> dict[str, list[float]]:
    """Milliseconds of each search, per mode, through a daemon on the built store
    (``config`` names its engine: the files in ``data_dir`` unless a ``[store] url``)."""
    sessions = total // _PER_SESSION
    rng = random.Random(5)
    out: dict[str, list[float]] = {}
    with tempfile.TemporaryDirectory(prefix="reverie-scale-") as tmp:
        daemon = DaemonProcess(Path(tmp), config=config)
        daemon.data_dir = data_dir / "data"
        daemon.start()
        try:
            _ready(daemon, total)
            with daemon.client() as client:
                for mode in _MODES:
                    times = []
                    for n in range(_WARMUP + _SEARCHES):
                        query = _QUERIES[n % len(_QUERIES)]
                        session = f"scale:{rng.randrange(sessions)}"
                        t0 = time.perf_counter()
                        client.search(query, session=session, k=10, mode=mode)  # type: ignore[arg-type]
                        if n >= _WARMUP:
                            times.append((time.perf_counter() - t0) * 1000)
                    out[mode] = times
                    say(
                        f"  {total:,} messages, {mode:<6} p50 {statistics.median(times):6.1f} ms"
                        f"  p99 {percentile(times, 0.99):6.1f} ms"
                    )
        finally:
            daemon.stop()
    return out


def _parts(data_dir: Path, total: int, real: LocalEmbedder) -> dict[str, float]:
    """Median milliseconds of each part of a hybrid search with a session filter, alone.

    The calls the daemon's search makes (``actors/search/query.py``), on the
    same files, in this process with the daemon stopped: the words signal's
    two SQLite reads (and beside them its ranking before issue 28, FTS5's
    ``bm25()``, on the same match), the query's embedding, LanceDB's vector search (the
    index's own, over the tables holding the session, with the query embedded again) and its
    full-text search for episodes and facts, both prefiltered by session.
    """
    conn = apsw.Connection(
        str(data_dir / "data" / "reverie.sqlite3"), flags=apsw.SQLITE_OPEN_READONLY
    )
    index = SearchIndex(data_dir / "data" / _INDEX_DIR, real)
    index.open()
    sessions = total // _PER_SESSION
    rng = random.Random(9)
    counts = fresh_counts()  # warm after the warm-up, as a running daemon's
    parts: dict[str, Callable[[str, str], object]] = {
        "FTS5 query (search_message_text, 50)": lambda q, s: search_message_text(
            conn, q, counts, session=s, limit=50
        ),
        "same MATCH ranked by bm25(), its own counts (before issue 28)": lambda q, s: conn.execute(
            _BM25_BEFORE, (fts_match(q, s),)
        ).fetchall(),
        "words_reference (cached counts)": lambda q, s: words_reference(conn, q, counts),
        "query embedding (MiniLM)": lambda q, s: real.embed([q]),
        "LanceDB vector, session prefilter (50): the tables holding it, and the query embedded": lambda q, s: (
            index.search(q, session=s, kinds=["message"], k=50, mode="vector")
        ),
        "LanceDB FTS episodes+facts, session prefilter": lambda q, s: index.search(
            q, session=s, kinds=["episode", "fact"], k=50, mode="text"
        ),
    }
    out = {}
    for name, call in parts.items():
        times = []
        for n in range(_WARMUP + 100):
            query, session = _QUERIES[n % len(_QUERIES)], f"scale:{rng.randrange(sessions)}"
            t0 = time.perf_counter()
            call(query, session)
            if n >= _WARMUP:
                times.append((time.perf_counter() - t0) * 1000)
        out[name] = statistics.median(times)
        say(f"  {total:,}: {name}: p50 {out[name]:.2f} ms")
    conn.close()
    return out


def _sizes() -> list[int]:
    return [int(s) for s in os.environ.get("REVERIE_BENCH_SCALE", "100000").split(",")]


def main() -> Section:
    real = LocalEmbedder()
    rng = random.Random(5)
    pool = real.embed([sentence(rng) for _ in range(_POOL)])
    embedder = _PoolEmbedder(real, np.asarray(pool))
    sizes = _sizes()
    section = Section(
        title="Search at scale with a session filter (`bench/search_scale/`, issue 28)",
        intro=(
            "A real daemon on a store of N messages appended through the client (1,000 per"
            " session, synthetic sentences); its LanceDB index written at the store level with"
            " vectors drawn from 2,000 real MiniLM embeddings plus noise (embedding 1M texts"
            " here would take over an hour), queries embedded by the real model in the daemon."
            f" `client.search(query, session=…, k=10)`, {_SEARCHES} searches per mode after"
            f" {_WARMUP} of warm-up, send to reply over the socket."
        ),
    )
    table = section.table("messages", "mode", "p50", "p99", "searches")
    parts_by_size: dict[int, dict[str, float]] = {}
    p50s: dict[int, float] = {}
    by_size: dict[int, dict[str, list[float]]] = {}
    for total in sizes:
        data_dir = build(total, embedder)
        times = by_size[total] = measure(data_dir, total)
        for mode, values in times.items():
            p50 = statistics.median(values)
            table.row(
                f"{total:,}",
                mode,
                f"{p50:.1f} ms",
                f"{percentile(values, 0.99):.1f} ms",
                str(len(values)),
            )
        p50s[total] = statistics.median(times["hybrid"])
        parts_by_size[total] = _parts(data_dir, total, real)
    if _engines.STORE:
        _engines_table(section, _engines.STORE, embedder, by_size)
    breakdown = section.table("part of a hybrid search (alone, p50)", *[f"{n:,}" for n in sizes])
    for name in parts_by_size[sizes[0]]:
        breakdown.row(name, *[f"{parts_by_size[n][name]:.2f} ms" for n in sizes])
    if 1_000_000 in p50s:
        p50 = p50s[1_000_000]
        section.target(
            "search.session_1m", f"hybrid p50 {p50:.1f} ms", p50 < 30, f"{p50:.1f} ≥ 30 ms"
        )
    if 100_000 in p50s:
        p50 = p50s[100_000]
        section.target("search.100k", f"hybrid p50 {p50:.1f} ms", p50 < 30, f"{p50:.1f} ≥ 30 ms")
    return section


def _engines_table(
    section: Section, spec: str, embedder: _PoolEmbedder, sqlite: dict[int, dict[str, list[float]]]
) -> None:
    """The same sizes built and searched on the Postgres engine, beside SQLite's figures."""
    table = section.table(
        "messages (session filter, k=10)",
        "mode",
        "SQLite p50 / p99",
        "Postgres p50 / p99",
        "Postgres/SQLite (p50)",
    )
    notes = []
    for total, ours in sqlite.items():
        theirs, note = postgres_searches(spec, total, embedder, _append, measure, _CONFIG)
        notes.append(f"{total:,}: {note}")
        for mode in _MODES:
            s, p = statistics.median(ours[mode]), statistics.median(theirs[mode])
            table.row(
                f"{total:,}",
                mode,
                f"{s:.1f} / {percentile(ours[mode], 0.99):.1f} ms",
                f"{p:.1f} / {percentile(theirs[mode], 0.99):.1f} ms",
                f"{p / s:.2f}×",
            )
    section.notes += (
        "\n\nPostgres engine (`--store`): the same messages in a fresh database, appended"
        " through the client, its pgvector index written at the store level with the same"
        " pooled vectors (" + "; ".join(notes) + "), then searched the same way."
    )
