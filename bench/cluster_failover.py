"""Failover between two daemons on one Postgres store: a daemon killed, then frozen.

Two real daemons, A and B, share a fresh database with ``cluster.owner_ttl``
set. Each trial appends through A to a few sessions of its own (A loads and,
with ownership, owns them), then faults A at t0 and, at once, appends to the
same sessions through B from connections B already had open. Per session:

- **writable elsewhere**: from the fault to the first append B acknowledges
  for it (a retryable refusal, ``session.moved`` or ``store.unavailable``,
  is retried at once);
- **seen dead**: from the fault until B's ``status`` shows A dead (a killed
  daemon's connections close at once; a frozen one's beat must age past
  ``owner_ttl``), which is what a design that waited for liveness would pay.

A killed daemon (SIGKILL) is replaced by a new one for the next trial. A frozen
one (SIGSTOP) is continued (SIGCONT) once B wrote its sessions, and then gets a
**late write** for each of them, from a client of A as it was before the fault:
fencing must refuse every one (none of their ids may be in the log, read through
B). Whether A owned its sessions before the fault is counted from B's
``status().cluster`` (``sessions`` of A's member): without ownership the
figures are only the cost of an append on B.
"""

from __future__ import annotations

import signal
import threading
import time
import uuid
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path

from bench.append_throughput import start_daemon
from reverie.config import ReverieError
from reverie.daemon import Client
from tests.daemon_process import DaemonProcess

__all__ = ["Failover", "failover_trials"]

#: Error codes a host retries at once: another member took the session, the database blipped.
RETRYABLE = {"session.moved", "store.unavailable", "busy"}
_DEADLINE = 60.0


#: Consolidation that waits an hour: none during a trial.
NO_CONSOLIDATION = "[consolidation]\nidle_after = 3600.0\n"


def daemon_config(url: str, owner_ttl: float, consolidation: str = NO_CONSOLIDATION) -> str:
    """A member on ``url`` with ``owner_ttl`` and ``consolidation``'s settings; no index."""
    return (
        f'[store]\nurl = "{url}"\n\n[cluster]\nowner_ttl = {owner_ttl}\n\n'
        f"{consolidation}\n[index]\nenabled = false\n"
    )


@dataclass
class Failover:
    """What the trials of one fault measured (seconds; one entry per session or per trial)."""

    kind: str  # killed | frozen
    writable: list[float] = field(default_factory=list)
    seen_dead: list[float] = field(default_factory=list)
    owned: int = 0  # sessions A owned before the fault
    sessions: int = 0
    late_refused: dict[str, int] = field(default_factory=dict)  # late writes refused, by code
    late_sent: int = 0
    late_in_log: int = 0  # late writes found in the log afterwards (must be 0)
    refusals: dict[str, int] = field(default_factory=dict)  # what B was answered, retried


def _member(client: Client) -> str:
    cluster = client.status().cluster
    if cluster is None:
        raise RuntimeError("the daemon has no cluster: is its store Postgres?")
    return str(cluster.member)


def _owned_by(client: Client, member: str) -> tuple[int, bool]:
    """Sessions ``member`` owns and whether it is alive, as ``client``'s daemon sees it."""
    cluster = client.status().cluster
    assert cluster is not None
    mine = [m for m in cluster.members if m.id == member]
    return (mine[0].sessions, mine[0].alive) if mine else (0, False)


def _write_after(
    client: Client, session: str, t0: float, out: Failover, lock: threading.Lock
) -> None:
    """Append to ``session`` through ``client`` until acked; record the time since ``t0``."""
    msg_id = uuid.uuid4().hex
    while time.monotonic() - t0 < _DEADLINE:
        try:
            client.append(session, "user", "written after the fault", id=msg_id)
        except ReverieError as exc:
            if exc.code not in RETRYABLE:
                raise
            with lock:
                out.refusals[exc.code] = out.refusals.get(exc.code, 0) + 1
            continue
        with lock:
            out.writable.append(time.monotonic() - t0)
        return
    raise RuntimeError(f"{session} not writable on the other daemon within {_DEADLINE}s")


def _late_write(client: Client, session: str, out: Failover, lock: threading.Lock) -> None:
    """The resumed owner's write for a session it lost; counted refused or not."""
    try:
        client.append(session, "user", "late write of the frozen daemon", id=f"late-{session}")
    except ReverieError as exc:
        with lock:
            out.late_refused[exc.code] = out.late_refused.get(exc.code, 0) + 1


def _trial(
    a: DaemonProcess, b: DaemonProcess, out: Failover, names: list[str], fault: signal.Signals
) -> None:
    lock = threading.Lock()
    with a.client() as ca:
        member = _member(ca)
        for name in names:
            ca.append(name, "user", "written through the first owner")
    b_clients = [b.client() for _ in names]
    late_clients = [a.client() for _ in names]
    try:
        for c in [*b_clients, *late_clients]:
            c.status()  # connected before the fault, as a host's client would be
        owned, _ = _owned_by(b_clients[0], member)
        out.owned += min(owned, len(names))
        out.sessions += len(names)
        assert a.proc is not None
        t0 = time.monotonic()
        a.proc.send_signal(fault)
        writers = [
            threading.Thread(target=_write_after, args=(c, n, t0, out, lock))
            for c, n in zip(b_clients, names, strict=True)
        ]
        for w in writers:
            w.start()
        with b.client() as probe:
            while _owned_by(probe, member)[1]:
                if time.monotonic() - t0 > _DEADLINE:
                    raise RuntimeError("the faulted daemon never shown dead")
                time.sleep(0.01)
            out.seen_dead.append(time.monotonic() - t0)
        for w in writers:
            w.join()
        if fault == signal.SIGSTOP:
            a.proc.send_signal(signal.SIGCONT)
            late = [
                threading.Thread(target=_late_write, args=(c, n, out, lock))
                for c, n in zip(late_clients, names, strict=True)
            ]
            for t in late:
                t.start()
            for t in late:
                t.join()
            out.late_sent += len(names)
            with b.client() as reader:
                for name in names:
                    ids = {m.id for m in reader.history(name, limit=100)}
                    out.late_in_log += f"late-{name}" in ids
    finally:
        for c in [*b_clients, *late_clients]:
            c.close()


def failover_trials(
    root: Path, url: str, owner_ttl: float, trials: int, per_trial: int, say: Callable[[str], None]
) -> tuple[Failover, Failover]:
    """``trials`` kills then ``trials`` freezes of daemon A, ``per_trial`` sessions each."""
    config = daemon_config(url, owner_ttl)
    (root / "b").mkdir()
    b = start_daemon(str(root / "b"), config)
    results = []
    try:
        for kind, fault in (("killed", signal.SIGKILL), ("frozen", signal.SIGSTOP)):
            out = Failover(kind)
            for trial in range(trials):
                where = root / f"a-{kind}-{trial}"
                where.mkdir()
                a = start_daemon(str(where), config)
                try:
                    names = [f"fo:{kind}:{trial}:{i}" for i in range(per_trial)]
                    _trial(a, b, out, names, fault)
                finally:
                    if fault == signal.SIGSTOP:
                        a.stop()
                    else:
                        a.kill9()
                say(
                    f"  {kind} trial {trial + 1}/{trials}: writable on B after"
                    f" {max(out.writable[-per_trial:]) * 1e3:.0f} ms (slowest session),"
                    f" seen dead after {out.seen_dead[-1] * 1e3:.0f} ms"
                )
            results.append(out)
    finally:
        b.stop()
    return results[0], results[1]
