"""Measure the local embedder: model load time, batched throughput, single-query latency.

Optionally (``--index-docs N``) also builds a SearchIndex of N documents in a
temporary directory and times add, hybrid search and optimize, because the
embedder is what bounds both indexing and query latency.

Run: ``python bench/embeddings_probe.py [--texts 512] [--index-docs 2000]``.
"""

from __future__ import annotations

import argparse
import random
import statistics
import tempfile
import time
from pathlib import Path

from reverie.store import IndexDoc, LocalEmbedder, SearchIndex

_WORDS = [
    "session",
    "memory",
    "agent",
    "index",
    "search",
    "vector",
    "token",
    "message",
    "summary",
    "episode",
    "fact",
    "scope",
    "daemon",
    "socket",
    "consolidation",
    "budget",
    "history",
    "cursor",
    "journal",
    "write",
    "commit",
    "query",
    "result",
    "kitten",
    "couch",
    "ticket",
    "invoice",
    "shipment",
    "deploy",
    "server",
    "friday",
    "lunch",
    "revenue",
    "garden",
    "train",
]


def _sentences(n: int, seed: int = 7) -> list[str]:
    rng = random.Random(seed)
    return [" ".join(rng.choice(_WORDS) for _ in range(rng.randint(8, 30))) for _ in range(n)]


def _ms(seconds: float) -> str:
    return f"{seconds * 1000:.1f} ms"


def probe_embedder(texts: int, batch_size: int, threads: int) -> LocalEmbedder:
    embedder = LocalEmbedder(batch_size=batch_size, threads=threads)
    started = time.perf_counter()
    embedder.embed(["warm up"])
    print(
        f"model load + first embed: {time.perf_counter() - started:.2f} s (load {embedder.load_seconds:.2f} s)"
    )
    corpus = _sentences(texts)
    started = time.perf_counter()
    embedder.embed(corpus)
    elapsed = time.perf_counter() - started
    print(
        f"batched ({texts} texts, batch {batch_size}, {threads} threads): {texts / elapsed:.0f} embeddings/s"
    )
    latencies = []
    for query in _sentences(50, seed=11):
        started = time.perf_counter()
        embedder.embed([query[:80]])
        latencies.append(time.perf_counter() - started)
    latencies.sort()
    print(
        f"single query: median {_ms(statistics.median(latencies))}, p95 {_ms(latencies[int(0.95 * len(latencies))])}"
    )
    return embedder


def probe_index(embedder: LocalEmbedder, docs: int, batch: int) -> None:
    texts = _sentences(docs, seed=3)
    with tempfile.TemporaryDirectory() as tmp:
        index = SearchIndex(Path(tmp) / "index", embedder)
        index.open()
        started = time.perf_counter()
        for start in range(0, docs, batch):
            index.add(
                [
                    IndexDoc(
                        uid=f"m:s{i % 20}:{i}",
                        kind="message",
                        text=texts[i],
                        scope=f"scope{i % 4}",
                        session=f"s{i % 20}",
                        ts=float(i),
                    )
                    for i in range(start, min(start + batch, docs))
                ]
            )
        elapsed = time.perf_counter() - started
        print(
            f"index add ({docs} docs, batches of {batch}, embedding included): {docs / elapsed:.0f} docs/s"
        )
        queries = _sentences(30, seed=5)
        for label in ("before optimize", "after optimize"):
            for mode in ("hybrid", "vector", "text"):
                latencies = []
                for query in queries:
                    started = time.perf_counter()
                    index.search(query[:60], scope="scope1", mode=mode, k=10)  # type: ignore[arg-type]
                    latencies.append(time.perf_counter() - started)
                print(f"search {mode:6s} {label}: median {_ms(statistics.median(latencies))}")
            if label == "before optimize":
                started = time.perf_counter()
                index.optimize()
                print(f"optimize: {_ms(time.perf_counter() - started)}")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--texts", type=int, default=512)
    parser.add_argument("--batch-size", type=int, default=32)
    parser.add_argument("--threads", type=int, default=2)
    parser.add_argument("--index-docs", type=int, default=0)
    parser.add_argument("--index-batch", type=int, default=256)
    args = parser.parse_args()
    embedder = probe_embedder(args.texts, args.batch_size, args.threads)
    if args.index_docs:
        probe_index(embedder, args.index_docs, args.index_batch)


if __name__ == "__main__":
    main()
