"""Where the daemon's time goes in the 64 clients → 1,000 sessions append case (issue 19).

Opt-in: ``REVERIE_BENCH_PROFILE=1 python -m bench append`` (a profiled daemon
runs slower, so its throughput is not reported). The daemon runs under the
standard library's deterministic profiler through ``bench/_profiled_serve.py``
(``python -m reverie.daemon serve ...`` with a ``cProfile.Profile`` switched
on and off by signals), after the usual unreported priming case; the top
functions by cumulative and by self time are printed and added to the report.

What the profile covers, and what not: the measured window of the case only
(no start-up, no model load, no shutdown), the CPU time of the daemon's
event-loop thread (``time.thread_time``: waiting, for the socket, the GIL or
another thread, costs nothing in it). The group-commit writer thread and the
worker threads (``to_thread``: SQLite commits, embedding) are not in it. The
profiler's own overhead makes every figure several times the unprofiled
one: compare functions with each other, not with the unprofiled CPU.
"""

from __future__ import annotations

import os
import pstats
import signal
import subprocess
import sys
import tempfile
import time
from pathlib import Path

from bench._machine import say
from bench.append.throughput import DURATION, closed_loop_case, start_daemon
from bench.report import Section, Table
from tests.daemon_process import DaemonProcess

__all__ = ["PROFILE", "TOP", "ProfiledDaemon", "profile"]

REPO = Path(__file__).resolve().parents[2]

PROFILE = os.environ.get("REVERIE_BENCH_PROFILE", "") not in ("", "0")
TOP = 25  # functions listed per ordering


class ProfiledDaemon(DaemonProcess):
    """``reverie serve`` under ``python -m cProfile``; the profile lands in ``profile_path``."""

    @property
    def profile_path(self) -> Path:
        return self.root / "daemon.prof"

    def start(self) -> ProfiledDaemon:
        assert self.config_path is not None
        serve = ["--data-dir", str(self.data_dir), "--socket", str(self.socket)]
        serve += ["--config", str(self.config_path)]
        profiled = [sys.executable, "-m", "bench._profiled_serve", str(self.profile_path)]
        env = {**self.env, "PYTHONPATH": os.pathsep.join([str(REPO), *sys.path[1:]])}
        with self.log_path.open("ab") as log:
            self.proc = subprocess.Popen(
                [*profiled, "serve", *serve], stdout=log, stderr=log, env=env
            )
        self.wait_ready()
        return self

    def switch(self, edge: int) -> None:
        """Profiler on as the window opens (0), off and written as it closes (1)."""
        assert self.proc is not None
        self.proc.send_signal(signal.SIGUSR1 if edge == 0 else signal.SIGUSR2)

    def profile(self, deadline: float = 60.0) -> pstats.Stats:
        """The window's profile, once the daemon has written it."""
        end = time.monotonic() + deadline
        while not self.profile_path.exists():
            if time.monotonic() > end:
                raise RuntimeError(f"no profile written:\n{self.log()}")
            time.sleep(0.05)
        return pstats.Stats(str(self.profile_path))


def profile(section: Section) -> None:
    """Run the 64 → 1,000 case on a profiled daemon; print and report its top functions."""
    say("\n[5] profile: 64 clients -> 1000 sessions, daemon under cProfile (event-loop thread)")
    with tempfile.TemporaryDirectory(prefix="reverie-profile-") as tmp:
        daemon = start_daemon(tmp, kind=ProfiledDaemon)
        assert isinstance(daemon, ProfiledDaemon)
        try:
            say("  .. priming, then the case (figures not reported: the profiler slows the daemon)")
            closed_loop_case(daemon, 64, 1000, "prime")
            case = closed_loop_case(daemon, 64, 1000, "profile", daemon.switch)
            stats = daemon.profile()
        finally:
            daemon.stop()
    total = stats.total_tt  # type: ignore[attr-defined]
    acked = case.rate * DURATION
    say(
        f"  profiled window: {total:.1f} s on the event-loop thread, {acked:,.0f} acked appends"
        f" ({case.rate:,.0f}/s under the profiler)"
    )
    for key, label in (("cumulative", "cumulative"), ("tottime", "self")):
        table = section.table(
            f"top {TOP} by {label} time (64 → 1,000, event-loop thread)",
            "calls",
            "self s",
            "cumulative s",
            f"{label} % of {total:.1f} s",
            f"{label} µs / acked append",
        )
        _top(stats, key, table, total, acked)
        say(f"\n  top {TOP} by {label} time ({label} %, µs/append; self s, cumulative s, calls):")
        for row in table.rows:
            say(f"    {row[4]:>6} {row[5]:>7} {row[2]:>8} {row[3]:>8} {row[1]:>10}  {row[0]}")
    section.notes += (
        f"\n\n**Profile** (`REVERIE_BENCH_PROFILE=1`): {_module_doc_tail()} Percentages are of"
        f" the {total:.1f} s the profiler saw on that thread."
    )


def _top(stats: pstats.Stats, key: str, table: Table, total: float, acked: float) -> None:
    """The ``TOP`` functions of ``stats`` in ``key`` order, one row each."""
    raw = stats.stats  # type: ignore[attr-defined]
    column = 3 if key == "cumulative" else 2
    ranked = sorted(raw.items(), key=lambda item: -item[1][column])[:TOP]
    for (filename, line, name), (_, calls, tottime, cumtime, _) in ranked:
        measure = cumtime if key == "cumulative" else tottime
        table.row(
            f"`{_where(filename, line, name)}`",
            f"{calls:,}",
            f"{tottime:.3f}",
            f"{cumtime:.3f}",
            f"{measure / max(total, 1e-9):.1%}",
            f"{measure / max(acked, 1) * 1e6:,.1f}",
        )


def _where(filename: str, line: int, name: str) -> str:
    """``package/module.py:line(name)``, or ``{built-in ...}`` as pstats names C functions."""
    if filename == "~":
        return name
    path = Path(filename)
    return f"{path.parent.name}/{path.name}:{line}({name})"


def _module_doc_tail() -> str:
    """The doc's paragraph on what the profile covers, as one line for the report."""
    return " ".join(__doc__.split("\n\n")[-1].split()) if __doc__ else ""
