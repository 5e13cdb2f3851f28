"""What an optimize costs as the index's history grows: one table against generations (issue 26).

LanceDB's ``optimize()`` rewrites a table whole while it is under its
compaction target of a million rows, and refreshes its scalar indexes whole,
so with one table each optimize costs what the index holds. Messages now go
to generations of ``index.generation_rows`` rows (``store/files/index_tables.py``).

Each layout is built in its own process, at the store level (``SearchIndex``,
the class the daemon's indexer writes through), with the same rows:
``HISTORY`` messages in writes of 4,096 rows, 512 messages per session in
order (a session's messages arrive together), vectors drawn at random (no
model: only the table's size matters here). The baseline is one table
(``generation_rows`` larger than the history, what the daemon did before);
then, at each history size, ``ROUNDS`` times: ten writes of 16 rows and one
optimize, timed, with the process's RSS sampled every 5 ms during it (its
rise above the RSS at its start is the optimize's transient). Last, session-
filtered vector searches (k 50, the depth a hybrid search asks for) on each.

Run: ``python -m bench index_generations``; ``REVERIE_BENCH_GENERATION_HISTORY``
sets the history sizes (comma-separated, default 7/8, 15/8 and 31/8 of the default
``index.generation_rows``: 229,376, 491,520 and 1,015,808 messages).
"""

from __future__ import annotations

import json
import os
import statistics
import subprocess
import sys
import tempfile
import threading
import time
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from pathlib import Path

import numpy as np
import numpy.typing as npt

from bench._machine import say
from bench.report import Section, ratio
from reverie.store import IndexDoc, IndexLimits, SearchIndex

#: Each size leaves the open generation 7/8 full (229,376 of the default 262,144 rows),
#: near the largest an optimize there rewrites: the worst case of the layout, not its best.
_SIZE = IndexLimits().generation_rows
HISTORY = [
    int(n)
    for n in os.environ.get(
        "REVERIE_BENCH_GENERATION_HISTORY",
        ",".join(str(_SIZE * eighths // 8) for eighths in (7, 15, 31)),
    ).split(",")
]
ROUNDS = 3
SEARCHES = 200
PER_SESSION = 512
DIMENSION = 384
ONE_TABLE = 1 << 40  # generation_rows never reached: the layout before generations


class _RandomEmbedder:
    """Unit vectors drawn at random: the table's size is what is measured, not the model."""

    model_id = "bench-random-384"
    dimension = DIMENSION

    def __init__(self) -> None:
        self._rng = np.random.default_rng(26)

    def embed(self, texts: list[str]) -> npt.NDArray[np.float32]:
        rows = self._rng.standard_normal((len(texts), DIMENSION)).astype(np.float32)
        return rows / np.linalg.norm(rows, axis=1, keepdims=True)


def _messages(
    start: int, count: int, session_of: Callable[[int], int] = lambda n: n // PER_SESSION
) -> list[IndexDoc]:
    """Messages ``start`` to ``start + count``; message n in session ``session_of(n)``."""
    return [
        IndexDoc(
            uid=f"m{n}",
            kind="message",
            text=f"message {n}",
            scope=f"session/s{session_of(n)}",
            session=f"s{session_of(n)}",
            ts=float(n),
            message_ids=[str(n)],
            source="messages",
        )  # type: ignore[arg-type]
        for n in range(start, start + count)
    ]


def _rss_mib() -> float:
    with open("/proc/self/statm") as f:
        return int(f.read().split()[1]) * os.sysconf("SC_PAGE_SIZE") / (1 << 20)


@contextmanager
def _peak_rss() -> Iterator[list[float]]:
    """Yields [start, peak] RSS in MiB, the peak sampled every 5 ms until the block ends."""
    seen = [_rss_mib(), _rss_mib()]
    done = threading.Event()

    def sample() -> None:
        while not done.wait(0.005):
            seen[1] = max(seen[1], _rss_mib())

    thread = threading.Thread(target=sample, daemon=True)
    thread.start()
    try:
        yield seen
    finally:
        done.set()
        thread.join()


def _timed(fn: Callable[[], object]) -> float:
    began = time.perf_counter()
    fn()
    return time.perf_counter() - began


class _Layout:
    """One index being grown, and what its optimizes and searches cost."""

    def __init__(self, root: Path, label: str, generation_rows: int) -> None:
        self.label = label
        self.index = SearchIndex(
            root / label, _RandomEmbedder(), IndexLimits(generation_rows=generation_rows)
        )
        self.index.open()
        self.rows = 0

    def grow_to(self, rows: int) -> None:
        while self.rows < rows:
            count = min(4096, rows - self.rows)
            self.index.add(_messages(self.rows, count), new=True)
            crossed = self.rows // 32768 != (self.rows + count) // 32768
            self.rows += count
            if crossed or self.rows == rows:  # the indexer optimizes every 512 rows or so
                self.index.optimize()

    def optimize_rounds(self) -> tuple[list[float], list[float]]:
        """Seconds and transient MiB of ``ROUNDS`` optimizes, each after ten small writes."""
        seconds, transient = [], []
        for _ in range(ROUNDS):
            for _ in range(10):
                self.index.add(_messages(self.rows, 16), new=True)
                self.rows += 16
            with _peak_rss() as seen:
                seconds.append(_timed(self.index.optimize))
            transient.append(seen[1] - seen[0])
        return seconds, transient

    def search_ms(self) -> float:
        """p50 of session-filtered vector searches over sessions spread through the history."""
        sessions = max(1, self.rows // PER_SESSION)
        took = [
            1000
            * _timed(
                lambda n=n: self.index.search(
                    "q", session=f"s{n * sessions // SEARCHES}", k=50, mode="vector"
                )
            )
            for n in range(SEARCHES)
        ]
        return statistics.median(took)


def _measure(label: str, generation_rows: int, root: Path) -> None:
    """The child's work: grow one layout through ``HISTORY``, a JSON line per size."""
    layout = _Layout(root, label, generation_rows)
    for history in HISTORY:
        layout.grow_to(history)
        seconds, rise = layout.optimize_rounds()
        search = layout.search_ms()
        tables = layout.index._ready().by_name
        figures = {
            "history": history,
            "tables": len(tables),
            "open_rows": list(tables.values())[-1].count_rows(),
            "optimize_s": statistics.median(seconds),
            "rise_mib": statistics.median(rise),
            "search_ms": search,
            "peak_mib": _peak_mib(),
        }
        print(json.dumps(figures), flush=True)


def _peak_mib() -> float:
    """This process's peak RSS so far (VmHWM), in MiB."""
    with open("/proc/self/status") as f:
        line = next(line for line in f if line.startswith("VmHWM:"))
    return int(line.split()[1]) / 1024


def _child(label: str, generation_rows: int, root: Path) -> Iterator[dict[str, float]]:
    """Run ``_measure`` for one layout in its own process: its RSS is its own."""
    command = [
        sys.executable,
        "-m",
        "bench.index_generations",
        label,
        str(generation_rows),
        str(root),
    ]
    with subprocess.Popen(command, stdout=subprocess.PIPE, text=True) as child:
        assert child.stdout is not None
        for line in child.stdout:
            yield json.loads(line)
    if child.returncode:
        raise RuntimeError(f"the {label} child exited with {child.returncode}")


def main() -> Section:
    say(__doc__.strip().splitlines()[0])
    rows = _SIZE
    section = Section(
        title="bench.index_generations — an optimize's cost as the history grows (issue 26)",
        intro=(
            "Store level, the same rows in both layouts, each grown in its own process"
            f" (module docstring): one table (the baseline) and generations of {rows:,}"
            f" rows (the default). Per history size, {ROUNDS} optimizes each after ten"
            " writes of 16 rows: median seconds and median RSS rise during one; the"
            f" p50 of {SEARCHES} session-filtered vector searches (k 50); the process's"
            " peak RSS so far."
        ),
    )
    table = section.table(
        "history (messages)",
        "layout",
        "tables",
        "rows in the table optimized",
        "optimize s",
        "optimize RSS rise MiB",
        "search p50 ms",
        "peak RSS MiB",
        "optimize s vs one table",
    )
    with tempfile.TemporaryDirectory() as tmp:
        runs = {}
        for label, size in (("one-table", ONE_TABLE), ("generations", rows)):
            say(f"  .. {label}: growing to {HISTORY[-1]:,} messages")
            runs[label] = list(_child(label, size, Path(tmp)))
    for at, history in enumerate(HISTORY):
        base = runs["one-table"][at]["optimize_s"]
        for label, figures in ((label, run[at]) for label, run in runs.items()):
            took = figures["optimize_s"]
            cells = [
                f"{history:,}",
                label,
                str(figures["tables"]),
                f"{figures['open_rows']:,}",
                f"{took:.2f}",
                f"{figures['rise_mib']:.0f}",
                f"{figures['search_ms']:.1f}",
                f"{figures['peak_mib']:.0f}",
                ratio(took, base),
            ]
            table.row(*cells)
            say("  " + " | ".join(cells))
    return section


if __name__ == "__main__":
    _measure(sys.argv[1], int(sys.argv[2]), Path(sys.argv[3]))
