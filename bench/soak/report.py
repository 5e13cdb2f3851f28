"""The soak's printing and report: per-minute latencies, the summary of a run, its section.

Read from a finished ``Run`` (``soak_run``); ``print_minute`` is also
called by the sampler as each minute of the load ends.
"""

from __future__ import annotations

from bench._machine import percentile, say
from bench.report import Section, ratio
from bench.soak.run import (
    CLIENTS,
    MB,
    MIX,
    SAMPLE_EVERY,
    SESSIONS,
    Run,
    Sample,
    Settings,
    rss_slope,
)

__all__ = ["print_minute", "section", "summary"]


def _ms(x: float) -> str:
    return f"{x * 1e3:.1f}"


def _per_minute(run: Run, a: float, b: float) -> tuple[str, ...]:
    app, sea = run.latencies("append", a, b), run.latencies("search", a, b)
    behind = [s.behind for s in run.samples if a <= s.t < b]
    ops = sum(len(run.latencies(op, a, b)) for op in MIX) / (b - a)
    return (
        _ms(percentile(app, 0.5)),
        _ms(percentile(app, 0.99)),
        _ms(percentile(sea, 0.5)),
        _ms(percentile(sea, 0.99)),
        f"{max(behind, default=0):,}",
        f"{ops:,.0f}",
    )


def print_minute(run: Run, minute: int) -> None:
    a50, a99, s50, s99, behind, ops = _per_minute(run, minute * 60.0, (minute + 1) * 60.0)
    say(
        f"  minute {minute + 1}: {ops} ops/s; append p50 {a50} p99 {a99} ms;"
        f" search p50 {s50} p99 {s99} ms; index behind (max) {behind}"
    )


def summary(run: Run) -> None:
    after = run.measured()
    if after:
        say(
            f"  [{run.name}] after warm-up: live sessions / scopes {_live(after)};"
            f" LanceDB's caches {after[0].cached / MB:.0f} → {after[-1].cached / MB:.0f} MB;"
            f" slopes of the process's own memory {rss_slope(after, 'anon'):+.2f}, of the C"
            f" heap in use {rss_slope(after, 'heap'):+.2f} and free"
            f" {rss_slope(after, 'heap_free'):+.2f} MB/min"
        )
    say(
        f"  [{run.name}] {run.ops_per_second():,.0f} ops/s measured; RSS slope after warm-up"
        f" {rss_slope(after):+.2f} MB/min; peak RSS {run.peak_rss / MB:.0f} MB;"
        f" threads {after[0].threads if after else 0} -> {after[-1].threads if after else 0};"
        f" errors {dict(run.errors) or 'none'}"
    )


def _live(after: list[Sample]) -> str:
    """Live session and scope actors at the first and last measured sample."""
    if not after:
        return "—"
    (s0, c0), (s1, c1) = after[0].live, after[-1].live
    return f"{s0:,} / {c0:,} → {s1:,} / {c1:,}"


def _first_last_search(run: Run) -> tuple[float, float]:
    """Search p50 in the first measured minute and in the last minute of the run."""
    minutes = [(a, b) for a, b in run.minutes() if a >= run.warmup]
    if not minutes:
        return 0.0, 0.0
    (a0, b0), (a1, b1) = minutes[0], minutes[-1]
    return (
        percentile(run.latencies("search", a0, b0), 0.5),
        percentile(run.latencies("search", a1, b1), 0.5),
    )


def section(soak: Run, base: Run | None, settings: Settings) -> Section:
    sec = Section(
        "Soak: minutes of mixed load, index on (`bench/soak/`, issue 26)",
        intro=(
            f"A real daemon (durability fsync, the search index on) and {CLIENTS}"
            f" connections from one client process"
            + (
                f", paced at {settings.rate:,.0f} ops/s in all,"
                if settings.rate
                else ", closed loop,"
            )
            + f" over {SESSIONS:,} sessions"
            f" ({', '.join(f'{k} {v}%' for k, v in MIX.items())}; searches name their"
            f" session); {soak.warmup:.0f} s warm-up, then {soak.seconds:.0f} s measured."
            f" The daemon's `status()` is read every {SAMPLE_EVERY:.0f} s (RSS, threads, index"
            " backlog). The baseline is a fresh daemon with `[index] enabled = false`, run"
            " for a shorter window in the same run; its searches are answered `not_found`"
            " (search is off), so its errors column counts them. Clients share the 2 cores with the"
            " daemon (and, on this machine, with other work): figures are noisy lower"
            " bounds."
            + (f" Extra daemon config: `{settings.config.strip()}`." if settings.config else "")
        ),
    )
    runs = [soak] + ([base] if base else [])
    t = sec.table(
        "run",
        "ops/s",
        "RSS at start MB",
        "RSS slope after warm-up MB/min",
        "peak RSS MB",
        "threads first → last",
        "live sessions / scopes first → last",
        "errors",
    )
    for r in runs:
        after = r.measured()
        t.row(
            r.name,
            f"{r.ops_per_second():,.0f}",
            f"{r.start_rss / MB:.0f}",
            f"{rss_slope(after):+.2f}",
            f"{r.peak_rss / MB:.0f}",
            f"{after[0].threads} → {after[-1].threads}" if after else "—",
            _live(after),
            ", ".join(f"{k} {v:,}" for k, v in sorted(r.errors.items())) or "none",
        )
    if base:
        t.row(
            "index on / off",
            ratio(soak.ops_per_second(), base.ops_per_second()),
            ratio(soak.start_rss, base.start_rss),
            "",
            ratio(soak.peak_rss, base.peak_rss),
            "",
            "",
            "",
        )
    m = sec.table(
        f"minute ({soak.name})",
        "append p50 ms",
        "append p99 ms",
        "search p50 ms",
        "search p99 ms",
        "index behind (max)",
        "ops/s",
    )
    for a, b in soak.minutes():
        label = f"{a / 60:g}–{b / 60:.3g}" + (" (warm-up)" if a < soak.warmup else "")
        m.row(label, *_per_minute(soak, a, b))
    slope = rss_slope(soak.measured())
    sec.target("soak.rss_slope", f"{slope:+.2f} MB/min", slope < 1.0, "RSS still grows")
    peak = soak.peak_rss / MB
    sec.target("soak.peak_rss", f"{peak:.0f} MB", peak < 400, "over 400 MB")
    first, last = _first_last_search(soak)
    sec.target(
        "soak.search_p50",
        f"{_ms(last)} ms last minute vs {_ms(first)} ms first measured minute ({ratio(last, first)})",
        bool(first) and last <= 1.5 * first,
        "search slowed down",
    )
    return sec
