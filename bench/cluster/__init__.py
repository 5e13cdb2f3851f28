"""Several daemons and workers on one Postgres store (issue 50): failover and worker scaling.

``python -m bench cluster`` (``--store postgresql://…``, or by default an
embedded PostgreSQL with fsync on, ``bench/_engines.py``) measures, in one run:

- **failover** (``bench/cluster/failover.py``): a daemon killed, then frozen;
  the time until its sessions are writable through another daemon, p50/p99,
  printed beside ``cluster.owner_ttl`` and beside the time until the other
  daemon sees it dead; and the late writes of the frozen one, refused;
- **consolidation throughput** (``bench/cluster/workers.py``): jobs/s with 1 and
  2 ``reverie worker``s against a fake model with a fixed delay, and the ratio.

Knobs (environment): ``REVERIE_BENCH_OWNER_TTL`` (2.0 s, the issue's reference
run), ``REVERIE_BENCH_FAILOVER_TRIALS`` (5 per fault) with 3 sessions each,
``REVERIE_BENCH_LLM_DELAY`` (0.5 s) and ``REVERIE_BENCH_CLUSTER_JOBS`` (24).
"""

from __future__ import annotations

import os
import sys
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT))

from bench import _engines  # noqa: E402
from bench._engines import postgres_databases  # noqa: E402
from bench._machine import mark, percentile, say  # noqa: E402
from bench.cluster.failover import Failover, failover_trials  # noqa: E402
from bench.cluster.workers import Rate, rates  # noqa: E402
from bench.report import Section, ratio  # noqa: E402

OWNER_TTL = float(os.environ.get("REVERIE_BENCH_OWNER_TTL", "2.0"))
TRIALS = int(os.environ.get("REVERIE_BENCH_FAILOVER_TRIALS", "5"))
PER_TRIAL = 3
LLM_DELAY = float(os.environ.get("REVERIE_BENCH_LLM_DELAY", "0.5"))
JOBS = int(os.environ.get("REVERIE_BENCH_CLUSTER_JOBS", "24"))


def _ms(values: list[float], q: float) -> str:
    return f"{percentile(values, q) * 1e3:,.0f} ms" if values else "—"


def failover_table(section: Section, runs: list[Failover]) -> None:
    t = section.table(
        f"fault (owner_ttl {OWNER_TTL:g} s)",
        "sessions (owned by it before)",
        "writable on the other daemon p50 / p99",
        "blocked until it resumed",
        "seen dead by the other p50 / p99",
        "resumed daemon's writes refused",
        "logs broken",
    )
    for run in runs:
        t.row(
            f"daemon {run.kind} ({'SIGKILL' if 'killed' in run.kind else 'SIGSTOP'})",
            f"{run.sessions} ({run.owned})",
            f"{_ms(run.writable, 0.5)} / {_ms(run.writable, 0.99)}",
            f"{run.blocked}/{run.sessions}",
            f"{_ms(run.seen_dead, 0.5)} / {_ms(run.seen_dead, 0.99)}",
            _refused(run) if run.late_sent else "—",
            run.broken_logs,
        )
        p99 = percentile(run.writable, 0.99) if run.writable else float("inf")
        met = p99 < OWNER_TTL + 1 and not run.blocked and run.owned == run.sessions
        say(
            f"  {run.kind}: writable p99 {p99 * 1e3:.0f} ms vs owner_ttl {OWNER_TTL:g} s,"
            f" {run.blocked}/{run.sessions} blocked until it resumed,"
            f" owned before {run.owned}/{run.sessions}  [{mark(met)}]"
        )
        section.target(
            "cluster.failover",
            f"{run.kind}: p99 {p99 * 1e3:,.0f} ms, owner_ttl {OWNER_TTL:g} s,"
            f" {run.blocked}/{run.sessions} blocked",
            met,
            "" if run.owned == run.sessions else "(its sessions were not owned: no fencing)",
        )
    frozen = [r for r in runs if r.late_sent]
    broken = sum(r.broken_logs for r in runs)
    section.target(
        "cluster.fenced",
        "; ".join(f"{r.kind}: {_refused(r)}" for r in frozen)
        + f"; {broken} logs with a gap or an id twice",
        broken == 0 and all(sum(r.refused.values()) >= r.late_sent for r in frozen),
        "(a stale write committed)",
    )


def _refused(run: Failover) -> str:
    codes = ", ".join(f"{n} {code}" for code, n in sorted(run.refused.items()) if n)
    return f"{codes or 'none'} for {run.late_sent} sessions"


def workers_table(section: Section, measured: list[Rate]) -> None:
    t = section.table("consolidators", "jobs", "first to last done", "jobs/s", "vs 1 worker")
    base = measured[0].per_second
    for r in measured:
        t.row(
            r.consolidators,
            r.jobs,
            f"{r.seconds:.1f} s",
            f"{r.per_second:.2f}",
            ratio(r.per_second, base),
        )
        say(f"  {r.consolidators}: {r.jobs} jobs, {r.per_second:.2f} jobs/s")
    if len(measured) < 2:
        section.notes += (
            "\n\n`reverie worker` is not in this reverie: the daemon's own consolidation stood"
            " in as the one consolidator; the 2-worker ratio is not measured."
        )
        return
    q = measured[1].per_second / base if base else 0.0
    say(f"  2 workers / 1 worker: {q:.2f}  [{mark(q >= 1.7)} target >= 1.7]")
    section.target("cluster.workers", f"{q:.2f}× ({LLM_DELAY:g} s a call)", q >= 1.7)


def main() -> Section:
    spec = _engines.STORE or "embedded"
    section = Section(
        title="Several daemons on one Postgres (bench.cluster)",
        intro=(
            f"Two daemons on one database ({'an embedded PostgreSQL, fsync on' if spec == 'embedded' else 'the server --store names'}),"
            f" `cluster.owner_ttl = {OWNER_TTL:g}` s; {TRIALS} trials per fault, {PER_TRIAL}"
            " sessions each. *Writable*: from the fault to the first append the other daemon"
            " acknowledged for a session of the faulted one (from a connection it already had)."
            " *Seen dead*: until the other's `status` shows the faulted one dead. Then"
            f" {JOBS} consolidation jobs by 1 and 2 `reverie worker`s, one call at a time each,"
            f" against a fake model answering after {LLM_DELAY:g} s."
        ),
    )
    with postgres_databases(spec) as fresh, tempfile.TemporaryDirectory(prefix="rv-") as tmp:
        say(f"\n[1] failover, owner_ttl {OWNER_TTL:g} s")
        (Path(tmp) / "fo").mkdir()
        runs = failover_trials(Path(tmp) / "fo", fresh(), OWNER_TTL, TRIALS, PER_TRIAL, say)
        failover_table(section, runs)
        say(f"\n[2] consolidation throughput, fake model {LLM_DELAY:g} s a call")
        workers_table(section, rates(Path(tmp), fresh, OWNER_TTL, LLM_DELAY, JOBS))
    return section
