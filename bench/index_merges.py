"""What merging sealed generations buys a session spread over the whole history (issue 26).

A search reads every table that may hold its session, a LanceDB query each
(about 6 ms at 65,536 rows on two cores, whatever the rows it finds). A
session that lives through the whole history is in every generation, so with
generations alone its search costs grow with the history. Sealed generations
are now merged four at a time into tables up to ``index.merged_rows`` rows
(``store/files/index_tables.py``, ``merge_run``), the way the daemon's indexer does
it: after an optimize that finds a merge due, the index is copied with those
generations made one table (``SearchIndex.copy_to``) and the copy replaces it.

Each layout is grown in its own process, at the store level, with the same
rows: ``HISTORY`` messages in writes of 4,096 rows, an optimize every 32,768
(then a merge if one is due), ``SESSIONS`` sessions interleaved so each is in
every table (the worst case), vectors drawn at random. The baseline is one
table; then, for each size in ``GENERATIONS``, generations of that size never
merged, and the same merged up to ``MERGED_ROWS``. Last, ``SEARCHES``
session-filtered vector searches (k 50, the depth a hybrid search asks for).

Run: ``python -m bench index_merges``; ``REVERIE_BENCH_MERGE_HISTORY`` sets the
history (default 1,048,576 messages), ``REVERIE_BENCH_MERGE_GENERATIONS`` the
generation sizes (comma-separated; default the shipped ``index.generation_rows``)
and ``REVERIE_BENCH_MERGED_ROWS`` the largest merged table (default the shipped
``index.merged_rows``).
"""

from __future__ import annotations

import json
import os
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

from bench._machine import say
from bench.index_generations import _messages, _peak_mib, _peak_rss, _RandomEmbedder, _timed
from bench.report import Section, ratio
from reverie.store import IndexLimits, SearchIndex

HISTORY = int(os.environ.get("REVERIE_BENCH_MERGE_HISTORY", str(1 << 20)))
GENERATIONS = [
    int(n)
    for n in os.environ.get(
        "REVERIE_BENCH_MERGE_GENERATIONS", str(IndexLimits().generation_rows)
    ).split(",")
]
MERGED_ROWS = int(os.environ.get("REVERIE_BENCH_MERGED_ROWS", str(IndexLimits().merged_rows)))
SESSIONS = 1_000
SEARCHES = 200
WARM = 20
ONE_TABLE = 1 << 40  # generation_rows never reached
#: The layouts: label, generation_rows, merged_rows.
LAYOUTS = [
    ("one table", ONE_TABLE, 0),
    *(
        layout
        for size in GENERATIONS
        for layout in (
            (f"generations of {size:,}, never merged", size, 0),
            (f"generations of {size:,}, merged up to {MERGED_ROWS:,}", size, MERGED_ROWS),
        )
    ),
]


def _measure(root: Path, generation_rows: int, merged_rows: int) -> dict[str, float]:
    """The child's work: grow one layout to ``HISTORY``, merging as the indexer does."""
    limits = IndexLimits(generation_rows=generation_rows, merged_rows=merged_rows)
    index = SearchIndex(root / "index-0", _RandomEmbedder(), limits)
    index.open()
    merges: list[tuple[float, float]] = []  # seconds, RSS rise in MiB
    began = time.perf_counter()
    for start in range(0, HISTORY, 4096):
        index.add(_messages(start, 4096, lambda n: n % SESSIONS), new=True)
        if (start + 4096) % 32_768 and start + 4096 < HISTORY:
            continue
        index.optimize()
        if plan := index.merge_plan():
            merge_began = time.perf_counter()
            with _peak_rss() as seen:
                fresh = index.copy_to(root / f"index-{len(merges) + 1}", merge=plan)
            merges.append((time.perf_counter() - merge_began, seen[1] - seen[0]))
            shutil.rmtree(index.path)
            index = fresh
    grown = time.perf_counter() - began
    took_ms = [
        1000
        * _timed(lambda n=n: index.search("q", session=f"s{n % SESSIONS}", k=50, mode="vector"))
        for n in range(WARM + SEARCHES)
    ][WARM:]
    took_ms.sort()
    return {
        "tables": index.tables,
        "search_p50": statistics.median(took_ms),
        "search_p99": took_ms[int(0.99 * (len(took_ms) - 1))],
        "grow_s": grown,
        "merges": len(merges),
        "merge_s_max": max((s for s, _ in merges), default=0.0),
        "merge_rise_max": max((r for _, r in merges), default=0.0),
        "peak_mib": _peak_mib(),
    }


def _child(generation_rows: int, merged_rows: int, root: Path) -> dict[str, float]:
    """``_measure`` in its own process: its RSS is its own."""
    command = [
        sys.executable,
        "-m",
        "bench.index_merges",
        str(generation_rows),
        str(merged_rows),
        str(root),
    ]
    out = subprocess.run(command, check=True, capture_output=True, text=True).stdout
    return dict(json.loads(out.strip().splitlines()[-1]))


def main() -> Section:
    say(__doc__.strip().splitlines()[0])
    section = Section(
        title="bench.index_merges — a session spread over the history, with and without merges (issue 26)",
        intro=(
            f"Store level, {HISTORY:,} messages over {SESSIONS:,} sessions interleaved (each in"
            " every table), each layout grown in its own process (module docstring). Search:"
            f" {SEARCHES} session-filtered vector searches (k 50) after {WARM}; growth: the"
            " writes, optimizes and merges; a merge's RSS rise is the largest during one."
        ),
    )
    table = section.table(
        "layout",
        "tables",
        "search p50 ms",
        "search p99 ms",
        "p50 vs one table",
        "grow s",
        "merges",
        "longest merge s",
        "largest merge RSS rise MiB",
        "peak RSS MiB",
    )
    runs: list[tuple[str, dict[str, float]]] = []
    for label, generation_rows, merged_rows in LAYOUTS:
        say(f"  .. {label}: growing to {HISTORY:,} messages")
        with tempfile.TemporaryDirectory() as tmp:
            runs.append((label, _child(generation_rows, merged_rows, Path(tmp))))
    base = runs[0][1]["search_p50"]
    for label, f in runs:
        cells = [
            label,
            str(int(f["tables"])),
            f"{f['search_p50']:.1f}",
            f"{f['search_p99']:.1f}",
            ratio(f["search_p50"], base),
            f"{f['grow_s']:.0f}",
            str(int(f["merges"])),
            f"{f['merge_s_max']:.2f}",
            f"{f['merge_rise_max']:.0f}",
            f"{f['peak_mib']:.0f}",
        ]
        table.row(*cells)
        say("  " + " | ".join(cells))
    return section


if __name__ == "__main__":
    print(json.dumps(_measure(Path(sys.argv[3]), int(sys.argv[1]), int(sys.argv[2]))))
