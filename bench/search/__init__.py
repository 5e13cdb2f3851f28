"""Search latency (p50/p99 per mode) at 10k and 100k rows, and embedding throughput.

Rows are synthetic sentences. Embedding 100k texts with MiniLM on a laptop
CPU takes minutes, so rows are built with a pool embedder: 2,000 sentences
are embedded by the real model and every row reuses one of those vectors
(plus a little noise). Queries are embedded by the real model, so the
latencies include the query embedding, as in the daemon. 1M rows is left
out: building it takes too long for a routine benchmark (LanceDB writes
plus FTS indexing dominate; see the build times printed for 10k and 100k).

Run: ``python -m bench search`` (``REVERIE_BENCH_SIZES=10000`` to pick sizes).
"""

from __future__ import annotations

import os
import random
import statistics
import tempfile
import time
import zlib
from pathlib import Path

import numpy as np
import numpy.typing as npt

from bench._corpus import sentence
from bench._machine import percentile
from bench.report import Section, ratio
from reverie.store import IndexDoc, LocalEmbedder
from reverie.store.files.index_lifecycle import SearchIndex

_QUERIES = [
    "when is the deploy rollback",
    "invoice for the shipment",
    "kitten on the couch",
    "Lisbon train on friday",
    "peanut allergy at lunch",
    "garden revenue summary",
    "passport and dentist",
    "sourdough brunch cake",
]
_POOL = 2000
_SEARCHES = 60


class _PoolEmbedder:
    """The real model for queries; pooled real vectors (with noise) for bulk rows."""

    def __init__(self, real: LocalEmbedder, pool: npt.NDArray[np.float32]) -> None:
        self.real = real
        self.model_id = real.model_id
        self.dimension = real.dimension
        self.pool = pool
        self.bulk = False

    def embed(self, texts: list[str]) -> npt.NDArray[np.float32]:
        if not self.bulk:
            return self.real.embed(texts)
        rows = self.pool[[zlib.crc32(t.encode()) % len(self.pool) for t in texts]]
        noise = np.random.default_rng(len(texts)).normal(0, 0.02, rows.shape)
        rows = rows + noise.astype(np.float32)
        return (rows / np.linalg.norm(rows, axis=1, keepdims=True)).astype(np.float32)


def _embeddings_per_second(real: LocalEmbedder, texts: list[str]) -> float:
    real.embed(texts[:32])  # warm up (and load the model)
    started = time.perf_counter()
    real.embed(texts)
    return len(texts) / (time.perf_counter() - started)


def _bench_size(
    embedder: _PoolEmbedder, rows: int, rng: random.Random
) -> tuple[float, float, dict[tuple[str, str], tuple[float, float]]]:
    """Seconds to add and to add+optimize; (mode, filter) -> (p50, p99) in ms."""
    latencies: dict[tuple[str, str], tuple[float, float]] = {}
    with tempfile.TemporaryDirectory() as tmp:
        index = SearchIndex(Path(tmp) / "index", embedder)
        index.open()
        embedder.bulk = True
        started = time.perf_counter()
        step = 10_000
        for start in range(0, rows, step):
            index.add(
                [
                    IndexDoc(
                        uid=f"m:s{i % 500}:{i}",
                        kind="message",
                        text=sentence(rng),
                        scope=f"scope{i % 50}",
                        session=f"s{i % 500}",
                        ts=float(i),
                        message_ids=[f"id{i}"],
                    )
                    for i in range(start, min(rows, start + step))
                ]
            )
        added = time.perf_counter() - started
        index.optimize()
        built = time.perf_counter() - started
        embedder.bulk = False
        print(f"{rows:>7} rows: add {added:.1f} s, add+optimize {built:.1f} s")
        for mode in ("text", "vector", "hybrid"):
            for label, scope in (("all", None), ("scope", "scope7")):
                times = []
                for n in range(_SEARCHES):
                    query = _QUERIES[n % len(_QUERIES)]
                    t0 = time.perf_counter()
                    index.search(query, k=10, mode=mode, scope=scope)  # type: ignore[arg-type]
                    times.append((time.perf_counter() - t0) * 1000)
                p50, p99 = statistics.median(times), percentile(times, 0.99)
                latencies[mode, label] = p50, p99
                print(f"{rows:>7} rows  {mode:<6} {label:<5}  p50 {p50:7.1f} ms  p99 {p99:7.1f} ms")
    return added, built, latencies


def main() -> Section:
    rng = random.Random(5)
    real = LocalEmbedder()
    texts = [sentence(rng) for _ in range(_POOL)]
    rate = _embeddings_per_second(real, texts[:1024])
    print(
        f"embeddings: {rate:.0f} texts/s (MiniLM int8, batch 32, 2 threads; model load {real.load_seconds:.2f} s)"
    )
    embedder = _PoolEmbedder(real, real.embed(texts))
    sizes = [int(s) for s in os.environ.get("REVERIE_BENCH_SIZES", "10000,100000").split(",")]
    section = Section(
        title="Search latency (`bench/search.py`, issue 6)",
        intro=(
            f"A store-level `SearchIndex` (LanceDB in a temporary directory), k=10, {_SEARCHES}"
            " searches per case. Bulk rows reuse 2,000 real MiniLM vectors plus noise (embedding"
            " 100k texts would take minutes); queries are embedded by the real model, so the"
            " latencies include the query embedding. Baseline: `text` mode (full-text search"
            f" only) at the same size. Embeddings: {rate:,.0f} texts/s (batch 32, 2 threads)."
            " 1M rows are not built: LanceDB writes plus FTS indexing take too long for a"
            " routine run (build times below)."
        ),
    )
    build = section.table("rows", "add", "add + optimize")
    table = section.table("rows", "mode", "filter", "p50", "p99", "p50 vs text")
    hybrid_scope: dict[int, float] = {}
    for rows in sizes:
        print(f"  .. {rows:,} rows", flush=True)
        added, built, lat = _bench_size(embedder, rows, rng)
        build.row(f"{rows:,}", f"{added:.1f} s", f"{built:.1f} s")
        for (mode, label), (p50, p99) in lat.items():
            base = lat["text", label][0]
            table.row(f"{rows:,}", mode, label, f"{p50:.1f} ms", f"{p99:.1f} ms", ratio(p50, base))
        hybrid_scope[rows] = lat["hybrid", "scope"][0]
    print("1M rows: skipped (build time; see the module docstring)")
    if 1_000_000 in hybrid_scope:
        p50 = hybrid_scope[1_000_000]
        section.target("search.hybrid_1m", f"{p50:.1f} ms", p50 < 30, f"{p50 - 30:.1f} ms over")
    else:
        largest = max(hybrid_scope)
        section.target(
            "search.hybrid_1m",
            f"1M not built; {hybrid_scope[largest]:.1f} ms at {largest:,} rows",
            False,
            "1M rows not measured"
            + (" (already over at a smaller size)" if hybrid_scope[largest] >= 30 else ""),
        )
    return section
