"""reverie under a thousand concurrent connections, and at its connection limit.

What is measured, and why:

1. **Load.** A real ``reverie serve`` subprocess (default durability
   ``"fsync"``, a temporary data dir, the default ``max_connections`` of 1,024,
   which is above the 1,000 opened) and 1,000 connections held open by 4
   client processes of 250 each, so that the client side is not one
   GIL-bound event loop. Every connection runs a closed loop of mixed
   operations over 2,000 sessions: mostly appends, then context, history,
   wm_set/wm_get, a search now and then, status rarely. Reported: total
   ops/s; per op count, ops/s and p50/p99/p99.9 latency (send to reply);
   the daemon's RSS and open fds (read from ``/proc/<pid>``, so measuring adds
   no connection) before, at peak and after; errors by code. The only
   acceptable error under this load is ``busy``: any other code, or a lost
   connection, makes the figure a **gap**.
2. **Baseline.** The same workload at 16 connections, first, on the same
   daemon in the same run, and the ratio of the two. One daemon serves all
   three phases (its start, mostly loading the embedding model, takes seconds).
3. **Overload.** ``max_connections = 500`` (set by SIGHUP reload): 500 connections are opened and
   served first, then 500 more arrive at once while the first 500 run the
   workload. Each of the 500 past the limit must get ``busy`` (a typed error,
   then a close) -- not be served, not hang, not be reset -- and the 500
   within it must see no error at all.

The clients share the machine's cores with the daemon (and the daemon's
indexer embeds every appended message), so these figures are lower bounds
for the daemon alone. A benchmark, not a test: the behaviour at the limit is
checked by ``tests/daemon/test_load_limits.py``; this prints figures.

``REVERIE_BENCH_LOAD_SECONDS`` sets the measured window of the load phase
(default 20); the baseline and overload windows are half of it.
"""

from __future__ import annotations

import contextlib
import multiprocessing as mp
import os
import random
import signal
import sys
import tempfile
import threading
import time
from array import array
from collections import Counter
from dataclasses import dataclass, field
from multiprocessing.connection import Connection
from pathlib import Path
from typing import Any

import trio

REPO = Path(__file__).resolve().parent.parent
if str(REPO) not in sys.path:
    sys.path.insert(0, str(REPO))

from bench._machine import (  # noqa: E402
    machine_info,
    open_fds,
    raise_nofile,
    rss_bytes,
    say,
)
from bench.report import Section, ratio, verdict  # noqa: E402
from reverie.config import Busy, ReverieError  # noqa: E402
from reverie.daemon import AsyncClient, ConnectionLost  # noqa: E402
from tests.daemon_process import DaemonProcess  # noqa: E402

DURATION = float(os.environ.get("REVERIE_BENCH_LOAD_SECONDS", "20"))
SHORT = max(3.0, DURATION / 2)  # baseline and overload windows
WARMUP = 2.0  # seconds of the workload before the window opens (actors, caches, WAL)
CONNECTIONS = 1000
BASELINE_CONNECTIONS = 16
PROCESSES = 4
SESSIONS = 2000
OVERLOAD_LIMIT = 500
DEFAULT_LIMIT = 1024  # daemon.max_connections by default: above CONNECTIONS, left as it is
OVERLOAD_OPEN = 1000
REFUSAL_DEADLINE = 15.0  # seconds an over-limit connection may wait for its answer: else "hang"
NOFILE = 8192  # 1,000 sockets plus SQLite, LanceDB and the model, with room to spare
CONTENT = "the user asked about the benchmark; the assistant answered with figures"
#: The mix each connection draws from (weights, in percent of operations).
MIX = {
    "append": 70,
    "context": 8,
    "history": 8,
    "wm_set": 6,
    "wm_get": 6,
    "search": 1,
    "status": 1,
}
LOST = "connection_lost"
HANG = "hang"
SERVED = "served"

# -- client processes ----------------------------------------------------------


class _NoRetryClient(AsyncClient):
    """``AsyncClient`` that never reconnects behind the caller's back.

    The stock client retries an idempotent call after a lost connection; here
    a lost connection must be counted, not hidden, so it surfaces at once.
    """

    async def _call(self, request: Any, convert: Any, idempotent: bool) -> Any:
        return await super()._call(request, convert, False)


def _code(exc: BaseException) -> str:
    if isinstance(exc, ConnectionLost):
        return LOST
    if isinstance(exc, ReverieError):
        return exc.code
    return f"exception {type(exc).__name__}"


@dataclass
class Plan:
    """What one client process does: ``held`` connections run the mix, ``extra`` only connect."""

    socket: str
    first: int  # number of this process's first connection (names its message ids)
    held: int
    extra: int = 0
    sessions: int = SESSIONS
    seed: int = 0


@dataclass
class Outcome:
    """What one client process saw; merged by the parent."""

    setup: Counter[str] = field(default_factory=Counter)  # hello of each held connection
    latencies: dict[str, array] = field(default_factory=dict)  # in the window only, seconds
    errors: Counter[str] = field(default_factory=Counter)  # warm-up and window
    extras: Counter[str] = field(default_factory=Counter)  # outcome of each extra connection


async def _op(client: AsyncClient, name: str, session: str, mid: str) -> None:
    scope = f"wm-{session}"
    match name:
        case "append":
            await client.append(session, "user", CONTENT, id=mid)
        case "context":
            await client.context(session)
        case "history":
            await client.history(session, limit=20)
        case "wm_set":
            await client.wm_set(scope, "step", {"mid": mid}, ttl=600)
        case "wm_get":
            try:
                await client.wm_get(scope, "step")
            except ReverieError as exc:
                if exc.code != "not_found":  # a key not set yet is an answer, not an error
                    raise
        case "search":
            await client.search("figures for the benchmark", session=session, k=5)
        case "status":
            await client.status()


async def _touch_every_op(socket: str) -> None:
    """One of each operation before any phase, so that what the daemon opens on
    first use (its search tables, its read connections' files) is open before
    the first fds reading: a phase's before/after then compares like with like."""
    async with AsyncClient(socket) as client:
        for name in MIX:
            await _op(client, name, "warm-up", f"warm-up-{name}")


async def _held(
    plan: Plan, out: Outcome, c: int, client: AsyncClient, window: tuple[float, float, float]
) -> None:
    """Closed loop of the mix on one connection until the window closes."""
    go, t0, t1 = window
    rng = random.Random(plan.seed * 100_003 + c)
    names, weights = list(MIX), list(MIX.values())
    k = 0
    await trio.sleep(max(0.0, go - time.monotonic()))
    while True:
        start = time.monotonic()
        if start >= t1:
            return
        name = rng.choices(names, weights)[0]
        session = f"s{rng.randrange(plan.sessions)}"
        try:
            await _op(client, name, session, f"c{c}-{k}")
        except Exception as exc:  # every error is counted; the loop goes on
            out.errors[_code(exc)] += 1
        else:
            end = time.monotonic()
            if t0 <= end < t1:  # completed in the window: throughput and its latencies
                out.latencies.setdefault(name, array("d")).append(end - start)
        k += 1


async def _extra(socket: str, out: Outcome, go: float) -> None:
    """One connection past the limit: it must be answered ``busy``, within a deadline."""
    await trio.sleep(max(0.0, go - time.monotonic()))
    async with _NoRetryClient(socket) as client:
        with trio.move_on_after(REFUSAL_DEADLINE) as scope:
            try:
                await client.hello()
                out.extras[SERVED] += 1
            except Exception as exc:
                out.extras[_code(exc)] += 1
        if scope.cancelled_caught:
            out.extras[HANG] += 1


async def _client_process(plan: Plan, pipe: Connection) -> Outcome:
    out = Outcome()
    async with contextlib.AsyncExitStack() as stack:
        clients = [
            await stack.enter_async_context(_NoRetryClient(plan.socket)) for _ in range(plan.held)
        ]

        async def connect(client: AsyncClient) -> None:
            try:
                await client.hello()
                out.setup["ok"] += 1
            except Exception as exc:
                out.setup[_code(exc)] += 1

        async with trio.open_nursery() as nursery:  # all at once: a connection storm
            for client in clients:
                nursery.start_soon(connect, client)
        pipe.send(out.setup)
        window = await trio.to_thread.run_sync(pipe.recv)
        async with trio.open_nursery() as nursery:
            for i, client in enumerate(clients):
                nursery.start_soon(_held, plan, out, plan.first + i, client, window)
            for _ in range(plan.extra):
                nursery.start_soon(_extra, plan.socket, out, window[0])
    return out


def _worker(plan: Plan, pipe: Connection) -> None:
    """Entry point of a client process: run, then send the outcome back."""
    raise_nofile(NOFILE)
    pipe.send(trio.run(_client_process, plan, pipe))


# -- the parent: daemon, sampling, phases -------------------------------------------


@dataclass
class Resources:
    """The daemon's RSS and open fds: before the clients, peak while they ran, after they left."""

    rss: list[int] = field(default_factory=lambda: [0, 0, 0])
    fds: list[int] = field(default_factory=lambda: [0, 0, 0])


class _Sampler:
    """Samples the daemon's RSS and fd count from /proc every 100 ms, in a thread (peak per phase)."""

    def __init__(self, pid: int, res: Resources) -> None:
        self.pid, self.res = pid, res
        self.stop = threading.Event()
        self.thread = threading.Thread(target=self._run, daemon=True)

    def _run(self) -> None:
        while not self.stop.wait(0.1):
            self.res.fds[1] = max(self.res.fds[1], open_fds(self.pid))
            self.res.rss[1] = max(self.res.rss[1], rss_bytes(self.pid))

    def __enter__(self) -> _Sampler:
        self.thread.start()
        return self

    def __exit__(self, *exc: object) -> None:
        self.stop.set()
        self.thread.join()


@dataclass
class Phase:
    name: str
    connections: int
    seconds: float
    limit: int
    setup: Counter[str] = field(default_factory=Counter)
    latencies: dict[str, list[float]] = field(default_factory=dict)
    errors: Counter[str] = field(default_factory=Counter)
    extras: Counter[str] = field(default_factory=Counter)
    res: Resources = field(default_factory=Resources)
    wall: float = 0.0

    @property
    def ops(self) -> int:
        return sum(len(v) for v in self.latencies.values())

    @property
    def rate(self) -> float:
        return self.ops / self.seconds

    def setup_errors(self) -> Counter[str]:
        """Held connections whose first ``hello`` failed, by code (all are errors)."""
        return Counter({k: v for k, v in self.setup.items() if k != "ok"})

    def bad_errors(self) -> Counter[str]:
        """Error codes other than ``busy`` (a lost connection counts here too)."""
        return Counter({k: v for k, v in self.errors.items() if k != Busy.code})


def _quantiles(values: list[float]) -> tuple[float, float, float]:
    if not values:
        return (float("nan"),) * 3
    n = len(values)
    return tuple(values[min(n - 1, int(q * n))] for q in (0.5, 0.99, 0.999))  # type: ignore[return-value]


def _spread(total: int, parts: int) -> list[int]:
    return [total // parts + (1 if i < total % parts else 0) for i in range(parts)]


def run_phase(
    daemon: DaemonProcess, name: str, held: int, seconds: float, *, limit: int, extra: int = 0
) -> Phase:
    """Run ``held`` connections (plus ``extra`` past the limit) against a running daemon."""
    assert daemon.proc is not None
    pid = daemon.proc.pid
    phase = Phase(name, held + extra, seconds, limit)
    phase.res.rss[0], phase.res.fds[0] = rss_bytes(pid), open_fds(pid)
    started = time.monotonic()
    _drive(phase, daemon, held, extra, seconds)
    phase.wall = time.monotonic() - started
    phase.res.rss[2], phase.res.fds[2] = _settled(pid, phase.res.fds[0])
    say(f"  .. phase took {phase.wall:.1f} s")
    return phase


def _config(limit: int | None) -> str:
    config = '[daemon]\nlog_level = "warning"\n'
    return config + (f"max_connections = {limit}\n" if limit is not None else "")


def _reload_limit(daemon: DaemonProcess, limit: int) -> None:
    """Set ``max_connections`` by SIGHUP (no restart: the model load alone takes seconds)."""
    assert daemon.proc is not None and daemon.config_path is not None
    with daemon.client() as client:
        before = client.status().config_reloads
    daemon.config_path.write_text(_config(limit))
    daemon.proc.send_signal(signal.SIGHUP)
    deadline = time.monotonic() + 30
    while True:
        with daemon.client() as client:
            if client.status().config_reloads > before:
                return
        if time.monotonic() > deadline:
            raise RuntimeError(f"the daemon did not reload:\n{daemon.log()}")
        time.sleep(0.05)


def _drive(phase: Phase, daemon: DaemonProcess, held: int, extra: int, seconds: float) -> None:
    assert daemon.proc is not None
    ctx = mp.get_context("spawn")
    plans, first = [], 0
    for i, (h, e) in enumerate(
        zip(_spread(held, PROCESSES), _spread(extra, PROCESSES), strict=True)
    ):
        plans.append(Plan(str(daemon.socket), first, h, e, seed=i))
        first += h
    pipes, procs = [], []
    for plan in plans:
        parent, child = ctx.Pipe()
        proc = ctx.Process(target=_worker, args=(plan, child), daemon=True)
        proc.start()
        pipes.append(parent)
        procs.append(proc)
    with _Sampler(daemon.proc.pid, phase.res):
        say(f"  .. opening {held:,} connections from {PROCESSES} processes")
        for pipe in pipes:
            phase.setup.update(pipe.recv())
        say(
            f"  .. connected: {dict(phase.setup)}; running {WARMUP:.0f} s warm-up + {seconds:.0f} s"
        )
        go = time.monotonic() + 0.2
        window = (go, go + WARMUP, go + WARMUP + seconds)
        for pipe in pipes:
            pipe.send(window)
        for pipe in pipes:
            out: Outcome = pipe.recv()
            for op, lat in out.latencies.items():
                phase.latencies.setdefault(op, []).extend(lat)
            phase.errors.update(out.errors)
            phase.extras.update(out.extras)
    for proc in procs:
        proc.join(30)
    for lat in phase.latencies.values():
        lat.sort()


def _settled(pid: int, fds_before: int, deadline: float = 10.0) -> tuple[int, int]:
    """RSS and fds once the clients have gone: polls until fds fall back near the start."""
    end = time.monotonic() + deadline
    while True:
        fds = open_fds(pid)
        if fds <= fds_before + 8 or time.monotonic() > end:
            return rss_bytes(pid), fds
        time.sleep(0.1)


# -- printing and the report -------------------------------------------------------


def _ms(x: float) -> str:
    return f"{x * 1e3:.1f}"


def _mib(x: int) -> str:
    return f"{x / 2**20:.0f}"


def _print_phase(p: Phase) -> None:
    say(f"  {p.name}: {p.connections:,} connections, {p.rate:,.0f} ops/s in {p.seconds:.0f} s")
    for op in MIX:
        lat = p.latencies.get(op, [])
        p50, p99, p999 = _quantiles(lat)
        say(
            f"    {op:<8} {len(lat):>8,} ops {len(lat) / p.seconds:>8,.0f}/s"
            f"  p50 {_ms(p50):>7} ms  p99 {_ms(p99):>7} ms  p99.9 {_ms(p999):>7} ms"
        )
    r, f = p.res.rss, p.res.fds
    say(
        f"    daemon RSS {_mib(r[0])}/{_mib(r[1])}/{_mib(r[2])} MiB, fds {f[0]}/{f[1]}/{f[2]}"
        " (before/peak/after)"
    )
    say(f"    errors: {dict(p.errors) or 'none'}")
    bad = p.bad_errors() + p.setup_errors()
    if bad:
        say(f"    !!! errors other than busy: {dict(bad)}")


def main() -> Section:
    machine_info()
    nofile = raise_nofile(NOFILE)
    say(
        f"note: clients and the daemon share these {os.cpu_count()} cores; RLIMIT_NOFILE {nofile}"
        f" (daemon and clients); default daemon.max_connections 1024 >= {CONNECTIONS:,}"
    )
    env = {k: v for k, v in os.environ.items() if not k.startswith("REVERIE_")}
    with tempfile.TemporaryDirectory(prefix="reverie-load-") as tmp:
        daemon = DaemonProcess(Path(tmp), config=_config(None))
        daemon.env = env
        t = time.monotonic()
        daemon.start()
        say(f"  .. daemon started in {time.monotonic() - t:.1f} s")
        trio.run(_touch_every_op, str(daemon.socket))
        try:
            say(f"\n[1] baseline: {BASELINE_CONNECTIONS} connections, mixed ops")
            base = run_phase(daemon, "baseline", BASELINE_CONNECTIONS, SHORT, limit=DEFAULT_LIMIT)
            _print_phase(base)
            say(f"\n[2] load: {CONNECTIONS:,} connections, mixed ops")
            load = run_phase(daemon, "load", CONNECTIONS, DURATION, limit=DEFAULT_LIMIT)
            _print_phase(load)
            say(f"  load / baseline throughput: {ratio(load.rate, base.rate)}")
            say(
                f"\n[3] overload: max_connections {OVERLOAD_LIMIT} (by SIGHUP),"
                f" {OVERLOAD_LIMIT} served first, then {OVERLOAD_OPEN - OVERLOAD_LIMIT} more at once"
            )
            _reload_limit(daemon, OVERLOAD_LIMIT)
            over = run_phase(
                daemon,
                "overload",
                OVERLOAD_LIMIT,
                SHORT,
                limit=OVERLOAD_LIMIT,
                extra=OVERLOAD_OPEN - OVERLOAD_LIMIT,
            )
            _print_phase(over)
            say(f"    past the limit: {dict(over.extras)}")
        finally:
            daemon.stop()
    return _section(base, load, over)


def _section(base: Phase, load: Phase, over: Phase) -> Section:
    sec = Section(
        "Load: 1,000 connections, mixed operations",
        intro=(
            f"A real daemon (durability fsync) and {CONNECTIONS:,} connections from {PROCESSES}"
            f" client processes, closed loop, mixed operations over {SESSIONS:,} sessions"
            f" ({', '.join(f'{k} {v}%' for k, v in MIX.items())}); {WARMUP:.0f} s warm-up,"
            f" then {DURATION:.0f} s measured ({SHORT:.0f} s for the baseline and overload"
            " phases). The default `daemon.max_connections` (1024) is above the 1,000 opened,"
            " so the load phase does not change it. Latency is send to reply. Clients share"
            " the cores with the daemon: figures are lower bounds for the daemon alone."
        ),
    )
    summary = sec.table(
        "phase", "connections", "ops/s", "p50 ms", "p99 ms", "p99.9 ms", "errors", "verdict"
    )
    for p in (base, load):
        all_lat = sorted(x for lat in p.latencies.values() for x in lat)
        p50, p99, p999 = _quantiles(all_lat)
        bad = p.bad_errors() + p.setup_errors()
        summary.row(
            p.name,
            f"{p.connections:,}",
            f"{p.rate:,.0f}",
            _ms(p50),
            _ms(p99),
            _ms(p999),
            _errors(p.errors + p.setup_errors()),
            verdict(not bad, "errors other than busy: " + _errors(bad)),
        )
    summary.row("load / baseline", "", ratio(load.rate, base.rate), "", "", "", "", "")
    per_op = sec.table(
        "op (load)",
        "count",
        "ops/s",
        "p50 ms",
        "p99 ms",
        "p99.9 ms",
        "baseline ops/s",
        "baseline p99 ms",
    )
    for op in MIX:
        lat, blat = load.latencies.get(op, []), base.latencies.get(op, [])
        p50, p99, p999 = _quantiles(lat)
        per_op.row(
            op,
            f"{len(lat):,}",
            f"{len(lat) / load.seconds:,.0f}",
            _ms(p50),
            _ms(p99),
            _ms(p999),
            f"{len(blat) / base.seconds:,.0f}",
            _ms(_quantiles(blat)[1]),
        )
    res = sec.table(
        "daemon (phase)",
        "RSS before MiB",
        "RSS peak MiB",
        "RSS after MiB",
        "fds before",
        "fds peak",
        "fds after",
        "verdict",
    )
    for p in (base, load, over):
        r, f = p.res.rss, p.res.fds
        leak = f[2] - f[0]
        res.row(
            p.name,
            _mib(r[0]),
            _mib(r[1]),
            _mib(r[2]),
            f[0],
            f[1],
            f[2],
            verdict(leak <= 8, f"{leak} fds still open after the clients left"),
        )
    extras = over.extras
    refused_ok = extras.get(Busy.code, 0) == OVERLOAD_OPEN - OVERLOAD_LIMIT
    inside = over.errors + over.setup_errors()  # even busy: each holds one request in flight
    overload_ok = refused_ok and not inside and over.setup.get("ok", 0) == OVERLOAD_LIMIT
    ov = sec.table(
        "overload",
        "limit",
        "opened",
        "served of the first 500",
        "errors inside the limit",
        "past the limit",
        "verdict",
    )
    ov.row(
        "max_connections",
        OVERLOAD_LIMIT,
        f"{OVERLOAD_OPEN:,}",
        f"{over.setup.get('ok', 0):,}",
        _errors(inside),
        _errors(extras),
        verdict(overload_ok, "past the limit or inside it, answers other than busy"),
    )
    load_bad = load.bad_errors() + load.setup_errors()
    sec.target(
        "load.errors",
        f"load: {_errors(load.errors + load.setup_errors())}; past the limit: {_errors(extras)}",
        not load_bad and overload_ok,
        "errors other than busy, or busy inside the limit",
    )
    sec.notes = (
        "RSS (VmRSS) and fds (entries of /proc/<pid>/fd) are sampled every 100 ms; one daemon"
        " serves the three phases in turn, so *before* is what the previous phase left, and"
        " *after* is once the phase's clients have closed. In the overload phase"
        f" the {OVERLOAD_LIMIT} connections inside the limit run the workload while the"
        f" {OVERLOAD_OPEN - OVERLOAD_LIMIT} past it connect at once and send `hello`; each must"
        f" be answered `busy` within {REFUSAL_DEADLINE:.0f} s (else *hang*); `connection_lost`"
        " means a reset or close without the typed answer."
    )
    return sec


def _errors(counts: Counter[str]) -> str:
    return ", ".join(f"{k} {v:,}" for k, v in sorted(counts.items())) or "none"


if __name__ == "__main__":
    main()
