"""Many connections at once doing mixed operations: ``busy`` only past ``max_connections``.

The scaled-down behaviour of ``bench/load/`` (which measures speed; this
checks outcomes, never times). Connections are ``AsyncClient``s in one trio
loop against a real daemon. Every connection inside the limit must see no
error at all, every one past it exactly ``busy``, and every acknowledged
append must be readable afterwards.
"""

from __future__ import annotations

import contextlib
from collections import Counter

import trio

from reverie.config import Busy, ReverieError
from reverie.daemon import AsyncClient
from reverie.daemon import protocol as p
from tests.checks import poll
from tests.daemon_process import DaemonProcess

SESSIONS = 16
ROUNDS = 3  # mixed-op rounds per connection: enough to overlap the refusals


def _code(exc: Exception) -> str:
    return exc.code if isinstance(exc, ReverieError) else type(exc).__name__


async def _mixed(client: AsyncClient, c: int, acked: set[tuple[str, str]], errors: Counter[str]):
    """A few rounds of append, context, history, wm_set, wm_get and status; errors counted."""
    for k in range(ROUNDS):
        session = f"s{(c + k) % SESSIONS}"
        try:
            ack = await client.append(session, "user", f"from {c} round {k}", id=f"c{c}-{k}")
            acked.add((session, ack.id))
            await client.context(session)
            await client.history(session, limit=5)
            await client.wm_set(f"wm-{c}", "round", k)
            assert (await client.wm_get(f"wm-{c}", "round")).value == k
            if k == 0:
                await client.status()
        except ReverieError as exc:
            errors[_code(exc)] += 1


async def _stored(client: AsyncClient) -> set[tuple[str, str]]:
    found = set()
    for s in range(SESSIONS):
        for m in await client.history(f"s{s}", limit=1000):
            found.add((f"s{s}", m.id))
    return found


async def _run(socket: str, held: int, extra: int) -> tuple[Counter[str], Counter[str], int, bool]:
    """``held`` connections (opened first) run the mix while ``extra`` more connect.

    Returns (errors of the held connections including their hello, outcomes
    of the extra ones, acked appends, whether all acked appends are stored).
    """
    errors: Counter[str] = Counter()
    extras: Counter[str] = Counter()
    acked: set[tuple[str, str]] = set()
    async with contextlib.AsyncExitStack() as stack:
        clients = [await stack.enter_async_context(AsyncClient(socket)) for _ in range(held)]

        async def hello(client: AsyncClient) -> None:
            try:
                await client.hello()
            except ReverieError as exc:
                errors[_code(exc)] += 1

        await hello(clients[0])  # alone first: by its answer the readiness probe has closed
        async with trio.open_nursery() as nursery:  # the rest at once: a connection storm
            for client in clients[1:]:
                nursery.start_soon(hello, client)

        async def refused() -> None:
            async with AsyncClient(socket) as client:
                try:
                    await client.stream_begin()  # not idempotent: no retry hides a lost connection
                    extras["served"] += 1
                except Exception as exc:
                    extras[_code(exc)] += 1

        async with trio.open_nursery() as nursery:  # held ones stay open until all are done
            for c, client in enumerate(clients):
                nursery.start_soon(_mixed, client, c, acked, errors)
            for _ in range(extra):
                nursery.start_soon(refused)
        stored = await _stored(clients[0])
    return errors, extras, len(acked), acked <= stored


def test_connections_past_the_limit_get_busy_and_the_rest_no_error(make_daemon) -> None:
    daemon: DaemonProcess = make_daemon(
        config="[daemon]\nmax_connections = 64\nlog_level = 'warning'\n[index]\nenabled = false\n"
    )
    errors, extras, acked, all_stored = trio.run(_run, str(daemon.socket), 64, 36)
    assert errors == Counter(), "connections within the limit saw errors"
    assert extras == Counter({Busy.code: 36}), "each connection past the limit gets busy"
    assert acked == 64 * ROUNDS
    assert all_stored, "an acknowledged append is missing"
    # The daemon may not have seen every held connection close yet: a status asked before is
    # refused busy too (and counted), so each refusal here is counted with the 36.
    refused: list[Busy] = []

    def served() -> p.DaemonStatus | None:
        try:
            with daemon.client() as client:
                return client.status()
        except Busy as exc:
            refused.append(exc)
            return None

    status = poll(served, what="a status once the held connections closed")
    assert status.errors.get(Busy.code) == 36 + len(refused)


def test_connections_within_the_limit_never_get_busy(make_daemon) -> None:
    # 200 opened; the limit has one slot more for the fixture's readiness probe,
    # whose close the daemon may not have seen when the storm begins.
    daemon: DaemonProcess = make_daemon(
        config="[daemon]\nmax_connections = 201\nlog_level = 'warning'\n[index]\nenabled = false\n"
    )
    errors, extras, acked, all_stored = trio.run(_run, str(daemon.socket), 200, 0)
    assert errors == Counter()
    assert extras == Counter()
    assert acked == 200 * ROUNDS
    assert all_stored, "an acknowledged append is missing"
    with daemon.client() as client:
        assert Busy.code not in client.status().errors
