"""How long ``reverie serve`` takes to be ready, and its search index to open (issue 56).

Each start is ``python -m reverie.daemon serve`` on a fresh data dir, timed
from the spawn to the first ``hello`` it answers on its socket (ready:
appends are acknowledged from then on) and to the first ``status`` whose
index is open (``index.ready``). The default daemon imports LanceDB on a
worker thread while it serves (docs/design.md, "Start-up"). The baseline,
in the same run and interleaved with it, is the same command with LanceDB
imported first, as the daemon did before it served until issue 56; with
``--store``, a PostgreSQL daemon (which never imports LanceDB) is timed too.
The load average beside the figures says how quiet the machine was.
"""

from __future__ import annotations

import contextlib
import itertools
import os
import signal
import statistics
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable, Iterator
from pathlib import Path

from bench import _engines
from bench._machine import say
from bench.report import Section, ratio
from reverie.daemon import Client, ConnectionLost
from reverie.daemon.protocol import Hello

STARTS = int(os.environ.get("REVERIE_BENCH_STARTS", "5"))
_DEADLINE = 120.0
_SERVE = "import runpy, sys; sys.argv[0] = 'reverie'; runpy.run_module('reverie.daemon', run_name='__main__')"
_LANCEDB_FIRST = "import lancedb; " + _SERVE
#: The target: ready within this many seconds on a quiet machine.
TARGET_S = 3.0


def _answers(socket: Path) -> bool:
    try:
        with Client(socket, timeout=5) as client:
            client._roundtrip(Hello(rid=1))  # one try, no reconnect loop
    except (ConnectionLost, OSError):
        return False
    return True


def _index_open(socket: Path) -> bool:
    with Client(socket, timeout=30) as client:
        return client.status().index.ready


def _until(done: Callable[[], bool], proc: subprocess.Popen[bytes], started: float) -> float:
    """Seconds from ``started`` until ``done()``; fails if the daemon exits or takes too long."""
    while not done():
        if proc.poll() is not None:
            raise RuntimeError(f"the daemon exited with {proc.returncode}")
        if time.perf_counter() - started > _DEADLINE:
            raise RuntimeError(f"the daemon was not ready within {_DEADLINE:.0f} s")
        time.sleep(0.01)
    return time.perf_counter() - started


def _one_start(code: str, root: Path, config: str | None) -> tuple[float, float]:
    """(ready, index open) in seconds for one start of ``python -c code serve ...``."""
    socket = root / "reverie.sock"
    cmd = [sys.executable, "-c", code, "serve", "--data-dir", str(root / "data")]
    cmd += ["--socket", str(socket)]
    if config is not None:
        (root / "reverie.toml").write_text(config)
        cmd += ["--config", str(root / "reverie.toml")]
    with (root / "daemon.log").open("ab") as log:
        started = time.perf_counter()
        proc = subprocess.Popen(cmd, stdout=log, stderr=log)
    try:
        ready = _until(lambda: _answers(socket), proc, started)
        opened = _until(lambda: _index_open(socket), proc, started)
    except (RuntimeError, ConnectionLost) as exc:
        log = (root / "daemon.log").read_text(errors="replace")
        raise RuntimeError(f"{exc}; the daemon's log:\n{log[-4000:]}") from exc
    finally:
        if proc.poll() is None:
            proc.send_signal(signal.SIGTERM)
            proc.wait(60)
    return ready, opened


@contextlib.contextmanager
def _postgres() -> Iterator[Callable[[], str] | None]:
    """Fresh databases when ``--store`` names a server, else None."""
    if _engines.STORE is None:
        yield None
        return
    with _engines.postgres_databases(_engines.STORE) as fresh:
        yield fresh


def _load() -> str:
    return Path("/proc/loadavg").read_text().split()[0]


def _spread(values: list[float]) -> str:
    return f"{statistics.median(values):.2f} s ({min(values):.2f}–{max(values):.2f})"


def main() -> Section:
    say(__doc__.strip().splitlines()[0])
    cases: dict[str, tuple[str, Callable[[], str | None]]] = {
        "default (LanceDB on a worker thread)": (_SERVE, lambda: None),
        "baseline: LanceDB imported before serving": (_LANCEDB_FIRST, lambda: None),
    }
    figures: dict[str, list[tuple[float, float]]] = {name: [] for name in cases}
    loads = [_load()]
    counter = itertools.count()
    with _postgres() as fresh, tempfile.TemporaryDirectory() as tmp:
        if fresh is not None:
            cases["PostgreSQL daemon (no LanceDB)"] = (
                _SERVE,
                lambda: _engines.store_config(fresh()),
            )
            figures["PostgreSQL daemon (no LanceDB)"] = []
        for i in range(STARTS):  # interleaved, so the cases share the machine's moods
            for name, (code, config) in cases.items():
                root = Path(tmp) / str(next(counter))
                root.mkdir()
                ready, opened = _one_start(code, root, config())
                figures[name].append((ready, opened))
                say(
                    f"  start {i + 1}/{STARTS} {name:<44} ready {ready:5.2f} s, index {opened:5.2f} s"
                )
        loads.append(_load())
    section = Section(
        title="bench.startup — a daemon's start: ready, then its index open",
        intro=(
            f"`reverie serve` on a fresh data dir, {STARTS} starts of each case interleaved;"
            " from the spawn to the first answered `hello` (ready) and to `status` saying the"
            " index is open; median (min–max). Load average"
            f" {loads[0]} at the start of the run, {loads[1]} at its end, on"
            f" {os.cpu_count()} cores."
        ),
    )
    table = section.table("daemon", "ready", "index open", "ready vs baseline")
    baseline = statistics.median(r for r, _ in figures["baseline: LanceDB imported before serving"])
    for name, runs in figures.items():
        ready = [r for r, _ in runs]
        table.row(
            name,
            _spread(ready),
            _spread([o for _, o in runs]),
            ratio(statistics.median(ready), baseline),
        )
    default = statistics.median(r for r, _ in figures["default (LanceDB on a worker thread)"])
    section.target(
        "startup.ready",
        f"{default:.2f} s (baseline {baseline:.2f} s), load {loads[0]}",
        default <= TARGET_S,
        f"{default - TARGET_S:.2f} s over",
    )
    return section
