"""What one benchmark module measured, in a form ``python -m bench`` can write to BENCHMARKS.md.

Each module's ``main()`` prints its figures as it goes (progress for a person
watching) and returns a :class:`Section`. ``python -m bench`` gathers the
sections of one run and writes them, under the machine and versions they were
measured on, into ``BENCHMARKS.md`` — so every figure in that file comes from
the same run as its baseline.

The targets the issues set are listed once, here, in :data:`TARGETS`; a module
reports what it measured against one with :meth:`Section.target`, and the
report's summary lists every target — also those no module measured in the
run, so a missing figure is a visible gap rather than a silent omission.
"""

from __future__ import annotations

from dataclasses import dataclass, field


@dataclass(slots=True)
class Table:
    """A Markdown table: a header row and rows of already formatted cells."""

    columns: list[str]
    rows: list[list[str]] = field(default_factory=list)

    def row(self, *cells: object) -> None:
        """Add a row; cells are formatted with ``str``."""
        if len(cells) != len(self.columns):
            raise ValueError(f"row has {len(cells)} cells, table has {len(self.columns)} columns")
        self.rows.append([str(c) for c in cells])

    def markdown(self) -> str:
        lines = ["| " + " | ".join(self.columns) + " |"]
        lines.append("| " + " | ".join("---" for _ in self.columns) + " |")
        lines += ["| " + " | ".join(r) + " |" for r in self.rows]
        return "\n".join(lines)


#: Every target the issues set, in report order: key -> (issue, what is required,
#: where it is measured). Keys are what modules pass to :meth:`Section.target`.
TARGETS: dict[str, tuple[int, str, str]] = {
    "append.64x1": (4, "≥ 10,000 acked appends/s, 64 clients → 1 session (fsync)", "bench.append"),
    "append.64x1000": (
        4,
        "≥ 10,000 acked appends/s, 64 clients → 1,000 sessions (fsync)",
        "bench.append",
    ),
    "append.ratio1": (4, "daemon/raw apsw ≥ 0.5, 64 clients → 1 session", "bench.append"),
    "append.ratio1000": (4, "daemon/raw apsw ≥ 0.5, 64 clients → 1,000 sessions", "bench.append"),
    "append.p99": (4, "append p99 < 10 ms at an offered 1,000/s", "bench.append"),
    "append.live_actor": (4, "≤ 4 KiB per live actor", "bench.append"),
    "append.passivated": (
        4,
        "a passivated session keeps no Python objects beyond its SQLite row",
        "bench.append",
    ),
    "append.postgres": (
        49,
        "Postgres engine: acked appends/s at 64 clients ≥ ½ SQLite's (within 2×), same run",
        "bench.append with --store",
    ),
    "supervisor.append_cost": (
        5,
        "supervisor cost per append O(log n): at the largest N ≤ 2× the smallest N's",
        "bench.supervisor",
    ),
    "supervisor.idle": (
        5,
        "supervisor idle when nothing is due: idle CPU/s does not grow with N (≤ 2×)"
        " and is below one periodic scan at the largest N",
        "bench.supervisor",
    ),
    "consolidate.p99": (
        5,
        "append p99 while consolidations run ≤ 1.5× the idle p99",
        "bench.consolidate",
    ),
    "recall.hybrid": (
        6,
        "hybrid recall beats the raw-BM25 baseline clearly (≥ +0.10 at @5, @10 and @20)",
        "evals.recall",
    ),
    "locomo.recall": (
        14,
        "default search evidence recall@10 ≥ 0.80 on the LoCoMo development set,"
        " every category ≥ its BM25 floor + 0.10",
        "evals.locomo",
    ),
    "locomo.hybrid": (
        14,
        "hybrid ≥ max(text, vector) at @5, @10 and @20 (LoCoMo development set)",
        "evals.locomo",
    ),
    "locomo.fresh": (
        14,
        'recall@10 right after the import ≥ the settled `mode="text"` recall@10',
        "evals.locomo",
    ),
    "locomo.postgres": (
        49,
        "Postgres engine: default-search R@10 within 0.02 of SQLite's, per conversation",
        "evals.locomo with --store",
    ),
    "index.throughput": (
        14,
        "≥ 1,000 messages/s end to end (append → searchable by vector), defaults",
        "bench.indexing",
    ),
    "index.lag": (14, "index lag p99 < 2 s at 100 appends/s sustained", "bench.indexing"),
    "search.100k": (
        14,
        "search p50 < 30 ms, k=10, session filter, 100k indexed rows (daemon, default mode)",
        "bench.indexing with REVERIE_BENCH_IMPORT=100000",
    ),
    "search.hybrid_1m": (
        6,
        "hybrid search p50 < 30 ms at 1M rows (k=10, scope filter)",
        "bench.search",
    ),
    "search.session_1m": (
        28,
        "search p50 < 30 ms with a session filter at 1M messages (daemon, k=10, hybrid)",
        "bench.search_scale with REVERIE_BENCH_SCALE=100000,1000000",
    ),
    "search.fresh": (
        6,
        "fresh results always (a search right after the ack finds it)",
        "a test, not a benchmark: tests/daemon/test_search.py"
        "::test_message_found_right_after_its_append_is_acked",
    ),
    "search.lag": (
        6,
        "index lag p99 < 2 s under 1,000 appends/s",
        "no module measures it yet",
    ),
    "load.errors": (
        9,
        "1,000 connections, mixed ops: no error but `busy`, and `busy` only past the limits",
        "bench.load",
    ),
    "soak.rss_slope": (
        26,
        "daemon RSS slope < 1 MB/min after warm-up, index on, mixed load",
        "bench.soak",
    ),
    "soak.peak_rss": (26, "daemon peak RSS < 400 MB over the soak, index on", "bench.soak"),
    "soak.search_p50": (
        26,
        "search p50 in the soak's last minute ≤ 1.5× its first measured minute",
        "bench.soak",
    ),
    "torture.long": (
        9,
        "long crash loop ≥ 30 min without a violated invariant",
        "a test, not a benchmark: `make torture`",
    ),
    "llm.jobs": (
        24,
        "20 idle sessions of the development conversations consolidated by a real local model,"
        " no job over 30 s",
        "evals.llm_consolidate",
    ),
    "llm.grounded": (
        24,
        "no fact in MEMORY.md names a name or number absent from its source turns",
        "evals.llm_consolidate",
    ),
    "truth.extractive": (
        59,
        "facts that change, extractive, both modes: recall ≥ 0.95, stale ≤ 0.05, distractors"
        " kept ≥ 0.95, chatter ≤ 1 line",
        "evals.memory_truth",
    ),
    "truth.tail_cpu": (
        59,
        "the extractive consolidation of a 4,000-token tail under 3 s CPU, model loads included",
        "evals.memory_truth",
    ),
    "truth.scripted": (
        47,
        "facts that change, scripted model: recall ≥ 0.95, stale 0, updates and deletes by id",
        "evals.memory_truth",
    ),
    "unread.reader_p99": (
        48,
        "a client that reads: append p99 < 50 ms, none `busy`, while ten connections"
        " pipeline big replies and never read",
        "bench.unread",
    ),
    "memory.idle": (
        26,
        "an idle daemon holding a few messages stays under 250 MB RSS after searches",
        "bench.idle_memory",
    ),
    "memory.backlog": (
        26,
        "after a 30k-message backlog is indexed, the daemon is back under 300 MB RSS",
        "bench.idle_memory with REVERIE_BENCH_BACKLOG=30000",
    ),
    "startup.ready": (
        56,
        "a default daemon is ready (answers on its socket) in ≤ 3 s on a quiet machine",
        "bench.startup",
    ),
    "cluster.failover": (
        50,
        "a daemon's sessions writable on another daemon, p99 < owner_ttl + 1 s, killed and frozen",
        "bench.cluster",
    ),
    "cluster.fenced": (
        50,
        "a frozen daemon's late writes refused once it is continued (session.moved, or"
        " store.unavailable if stopped inside a transaction); every log gap-free, each acked"
        " id once",
        "bench.cluster",
    ),
    "cluster.workers": (
        50,
        "two `reverie worker`s consolidate at ≥ 1.7× one worker's rate (fake model, fixed delay)",
        "bench.cluster",
    ),
}


@dataclass(slots=True)
class Result:
    """What one run measured against one of :data:`TARGETS`."""

    key: str
    measured: str
    verdict: str


@dataclass(slots=True)
class Section:
    """One module's part of BENCHMARKS.md: a heading, a few lines of context, tables, notes."""

    title: str
    intro: str = ""
    tables: list[Table] = field(default_factory=list)
    notes: str = ""
    results: list[Result] = field(default_factory=list)

    def target(self, key: str, measured: str, met: bool, gap: str = "") -> None:
        """Record the figure measured against ``TARGETS[key]`` and whether it meets it."""
        if key not in TARGETS:
            raise KeyError(f"unknown target {key!r}; add it to bench.report.TARGETS")
        self.results.append(Result(key, measured, verdict(met, gap)))

    def table(self, *columns: str) -> Table:
        """A new table, appended to this section."""
        table = Table(list(columns))
        self.tables.append(table)
        return table

    def markdown(self) -> str:
        parts = [f"## {self.title}"]
        parts += [self.intro.strip()] if self.intro.strip() else []
        parts += [t.markdown() for t in self.tables]
        if self.results:
            targets = Table(["target (issue)", "measured", "verdict"])
            for r in self.results:
                issue, what, _ = TARGETS[r.key]
                targets.row(f"{what} ({issue})", r.measured, r.verdict)
            parts.append(targets.markdown())
        parts += [self.notes.strip()] if self.notes.strip() else []
        return "\n\n".join(parts) + "\n"


def ratio(measured: float, baseline: float) -> str:
    """``measured / baseline`` as ``0.58×``; ``—`` when the baseline is zero."""
    return f"{measured / baseline:.2f}×" if baseline else "—"


def verdict(met: bool, gap: str = "") -> str:
    """``✓`` for a met target, else ``**gap**`` with what is missing."""
    return "✓" if met else f"**gap** {gap}".rstrip()
