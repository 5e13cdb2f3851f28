"""Measure the local embedder: model load time, batched throughput, single-query latency.

Also (``--index-docs N``, default 2,000) builds a SearchIndex of N documents in a
temporary directory and times add, hybrid search and optimize, because the
embedder is what bounds both indexing and query latency.

Run: ``python -m bench.embeddings_probe [--texts 512] [--index-docs 2000]``
(``--index-docs 0`` skips the index).
"""

from __future__ import annotations

import argparse
import statistics
import sys
import tempfile
import time
from dataclasses import dataclass, field
from pathlib import Path

from bench._corpus import sentences
from bench.report import Section, ratio
from reverie.store import IndexDoc, LocalEmbedder
from reverie.store.files.index_lifecycle import SearchIndex


@dataclass(slots=True)
class _Figures:
    load: float = 0.0  # seconds: model load
    first: float = 0.0  # seconds: load + first embed
    batched: float = 0.0  # embeddings/s, batched
    single: list[float] = field(default_factory=list)  # seconds per single query
    add_rate: float = 0.0  # docs/s, index add incl. embedding
    search: dict[tuple[str, str], float] = field(default_factory=dict)  # (label, mode) -> median s
    optimize: float = 0.0


def _ms(seconds: float) -> str:
    return f"{seconds * 1000:.1f} ms"


def probe_embedder(texts: int, batch_size: int, threads: int, out: _Figures) -> LocalEmbedder:
    embedder = LocalEmbedder(batch_size=batch_size, threads=threads)
    started = time.perf_counter()
    embedder.embed(["warm up"])
    out.first, out.load = time.perf_counter() - started, embedder.load_seconds
    print(f"model load + first embed: {out.first:.2f} s (load {out.load:.2f} s)")
    corpus = sentences(texts, seed=7)
    started = time.perf_counter()
    embedder.embed(corpus)
    elapsed = time.perf_counter() - started
    out.batched = texts / elapsed
    print(
        f"batched ({texts} texts, batch {batch_size}, {threads} threads): {texts / elapsed:.0f} embeddings/s"
    )
    latencies = []
    for query in sentences(50, seed=11):
        started = time.perf_counter()
        embedder.embed([query[:80]])
        latencies.append(time.perf_counter() - started)
    latencies.sort()
    out.single = latencies
    print(
        f"single query: median {_ms(statistics.median(latencies))}, p95 {_ms(latencies[int(0.95 * len(latencies))])}"
    )
    return embedder


def probe_index(embedder: LocalEmbedder, docs: int, batch: int, out: _Figures) -> None:
    texts = sentences(docs, seed=3)
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
        out.add_rate = docs / elapsed
        print(
            f"index add ({docs} docs, batches of {batch}, embedding included): {docs / elapsed:.0f} docs/s"
        )
        queries = sentences(30, seed=5)
        for label in ("before optimize", "after optimize"):
            for mode in ("hybrid", "vector", "text"):
                latencies = []
                for query in queries:
                    started = time.perf_counter()
                    index.search(query[:60], scope="scope1", mode=mode, k=10)  # type: ignore[arg-type]
                    latencies.append(time.perf_counter() - started)
                out.search[label, mode] = statistics.median(latencies)
                print(f"search {mode:6s} {label}: median {_ms(out.search[label, mode])}")
            if label == "before optimize":
                started = time.perf_counter()
                index.optimize()
                out.optimize = time.perf_counter() - started
                print(f"optimize: {_ms(out.optimize)}")


def main(argv: list[str] | None = None) -> Section:
    """``argv`` are this module's own flags (none when run by ``python -m bench``)."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--texts", type=int, default=512)
    parser.add_argument("--batch-size", type=int, default=32)
    parser.add_argument("--threads", type=int, default=2)
    parser.add_argument("--index-docs", type=int, default=2000)
    parser.add_argument("--index-batch", type=int, default=256)
    args = parser.parse_args(argv or [])
    out = _Figures()
    embedder = probe_embedder(args.texts, args.batch_size, args.threads, out)
    if args.index_docs:
        probe_index(embedder, args.index_docs, args.index_batch, out)
    return _section(args, out)


def _section(args: argparse.Namespace, out: _Figures) -> Section:
    section = Section(
        title="Embeddings and index (`bench/embeddings_probe.py`, issue 6, store level)",
        intro=(
            "The local embedder (int8 ONNX all-MiniLM-L6-v2, no torch) in-process, on"
            f" synthetic sentences (`bench/_corpus.py`); {args.threads} threads. Baseline for"
            " batching: the same model embedding one short query at a time."
        ),
    )
    single_rate = 1 / statistics.median(out.single)
    t = section.table("figure", "measured", "vs one at a time")
    t.row("model load", f"{out.load:.2f} s (with first embed {out.first:.2f} s)", "")
    t.row(
        f"batched embeddings ({args.texts} texts, batch {args.batch_size})",
        f"{out.batched:,.0f} /s",
        ratio(out.batched, single_rate),
    )
    t.row(
        "one query at a time (baseline)",
        f"{single_rate:,.0f} /s (p50 {_ms(statistics.median(out.single))},"
        f" p95 {_ms(out.single[int(0.95 * len(out.single))])})",
        "1.00×",
    )
    if out.search:
        t.row(
            f"index add incl. embedding ({args.index_docs:,} docs, batches of {args.index_batch})",
            f"{out.add_rate:,.0f} docs/s",
            ratio(out.add_rate, single_rate),
        )
        t.row("optimize", _ms(out.optimize), "")
        s = section.table(
            f"search at {args.index_docs:,} docs, scope filter, k=10 (median)",
            "hybrid",
            "vector",
            "text (baseline)",
            "hybrid / text",
        )
        for label in ("before optimize", "after optimize"):
            hybrid, vector, text = (out.search[label, m] for m in ("hybrid", "vector", "text"))
            s.row(label, _ms(hybrid), _ms(vector), _ms(text), ratio(hybrid, text))
    return section


if __name__ == "__main__":
    main(sys.argv[1:])
