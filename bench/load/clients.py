"""The client side of the load benchmark: the operation mix and the client processes.

``bench/load/`` spawns a few of these processes (so the client side is not
one GIL-bound event loop); each holds its share of the connections, runs the
mix on them in a closed loop over a window the parent sends, and sends back
what it saw (latencies in the window, errors by code, and what each
connection opened past the daemon's limit was answered).
"""

from __future__ import annotations

import contextlib
import random
import time
from array import array
from collections import Counter
from dataclasses import dataclass, field
from multiprocessing.connection import Connection
from typing import Any

import trio

from bench._machine import raise_nofile
from reverie.config import ReverieError
from reverie.daemon import AsyncClient, ConnectionLost

__all__ = [
    "MIX",
    "NOFILE",
    "REFUSAL_DEADLINE",
    "SESSIONS",
    "Outcome",
    "Plan",
    "error_code",
    "run_op",
    "touch_every_op",
    "worker",
]

SESSIONS = 2000
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


class _NoRetryClient(AsyncClient):
    """``AsyncClient`` that never reconnects behind the caller's back.

    The stock client retries an idempotent call after a lost connection; here
    a lost connection must be counted, not hidden, so it surfaces at once.
    """

    async def _call(self, request: Any, convert: Any, idempotent: bool) -> Any:
        return await super()._call(request, convert, False)


def error_code(exc: BaseException) -> str:
    """The code an error is counted under: the typed error's, or what else went wrong."""
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


async def run_op(client: AsyncClient, name: str, session: str, mid: str) -> None:
    """One operation of the mix on ``session`` (also the soak benchmark's, ``bench/soak/``)."""
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


async def touch_every_op(socket: str) -> None:
    """One of each operation before any phase, so that what the daemon opens on
    first use (its search tables, its read connections' files) is open before
    the first fds reading: a phase's before/after then compares like with like."""
    async with AsyncClient(socket) as client:
        for name in MIX:
            await run_op(client, name, "warm-up", f"warm-up-{name}")


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
            await run_op(client, name, session, f"c{c}-{k}")
        except Exception as exc:  # every error is counted; the loop goes on
            out.errors[error_code(exc)] += 1
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
                out.extras[error_code(exc)] += 1
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
                out.setup[error_code(exc)] += 1

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


def worker(plan: Plan, pipe: Connection) -> None:
    """Entry point of a client process: run, then send the outcome back."""
    raise_nofile(NOFILE)
    pipe.send(trio.run(_client_process, plan, pipe))
