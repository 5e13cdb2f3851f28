"""Failover between two daemons on one Postgres store: a daemon killed, then frozen.

Two real daemons, A and B, share a fresh database with ``cluster.owner_ttl``
set. Each trial appends through A to a few sessions of its own (A claims them),
then faults A at t0 and at once appends to the same sessions through B, from
connections B already had open. Under load, a host keeps appending to each
session through A until the fault, so A may be stopped inside a transaction.
Per session:

- **writable elsewhere**: from the fault to the first append B acknowledges
  for it; a session B could not write until A was continued (SIGCONT, after
  ``blocked_after`` seconds) is counted **blocked** instead;
- **seen dead** (per trial): from the fault until B's ``status`` shows A dead
  (a killed daemon's connections close at once; a frozen one's beat must age
  past ``owner_ttl``), what a design that waited for liveness would pay.

A killed daemon is replaced by a new one for the next trial. A frozen one is
continued once B wrote its sessions, and then makes a **late write** to each,
from its clients of before the fault: its session actors hold the old epoch,
so each is refused (``session.moved``, counted in A's ``status().errors``)
and the client's retry through A claims the session back. A stopped inside a
transaction finds that transaction ended by the server after ``owner_ttl``:
its writes then were refused as ``store.unavailable`` (nothing of them
committed) and its actors start again from the database. Afterwards every
session's log, read through B, must hold each acknowledged id once, with seqs
from 1 without a gap: that is what proves no stale write committed.
"""

from __future__ import annotations

import signal
import threading
import time
import uuid
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path

from bench.append.throughput import start_daemon
from reverie.config import ReverieError
from reverie.daemon import Client, ConnectionLost
from tests.checks import whole_history
from tests.daemon_process import DaemonProcess

__all__ = ["FAULTS", "Failover", "daemon_config", "failover_trials"]

#: Consolidation that waits an hour: none during a trial.
NO_CONSOLIDATION = "[consolidation]\nidle_after = 3600.0\n"
#: (name, signal, a host appending through A at the fault).
FAULTS = (
    ("killed under load", signal.SIGKILL, True),
    ("frozen idle", signal.SIGSTOP, False),
    ("frozen under load", signal.SIGSTOP, True),
)
_DEADLINE = 120.0


def daemon_config(url: str, owner_ttl: float, consolidation: str = NO_CONSOLIDATION) -> str:
    """A member on ``url`` with ``owner_ttl`` and ``consolidation``'s settings; no index."""
    return (
        f'[store]\nurl = "{url}"\n\n[cluster]\nowner_ttl = {owner_ttl}\n\n'
        f"{consolidation}\n[index]\nenabled = false\n"
    )


@dataclass
class Failover:
    """What the trials of one fault measured (seconds)."""

    kind: str
    writable: list[float] = field(default_factory=list)  # per session written before SIGCONT
    blocked: int = 0  # sessions B could write only once A was continued
    seen_dead: list[float] = field(default_factory=list)  # per trial
    owned: int = 0  # sessions A owned just before the fault
    sessions: int = 0
    late_sent: int = 0
    refused: dict[str, int] = field(default_factory=dict)  # the resumed daemon's refusals
    broken_logs: int = 0  # sessions whose log has a gap or an id twice (must be 0)


def _cluster_of(client: Client, member: str) -> tuple[int, bool]:
    """Sessions ``member`` owns and whether it is alive, as ``client``'s daemon sees it."""
    cluster = client.status().cluster
    if cluster is None:
        raise RuntimeError("the daemon has no cluster: is its store Postgres?")
    mine = [m for m in cluster.members if m.id == member]
    return (mine[0].sessions, mine[0].alive) if mine else (0, False)


#: How the resumed daemon refuses a write it can no longer make (see the docstring).
REFUSALS = ("session.moved", "store.unavailable")


def _refusals(client: Client) -> dict[str, int]:
    errors = client.status().errors
    return {code: int(errors.get(code, 0)) for code in REFUSALS}


class _Trial:
    """One fault of A; ``acked`` holds every id a daemon acknowledged, by session."""

    def __init__(self, a: DaemonProcess, b: DaemonProcess, names: list[str], out: Failover):
        self.a, self.b, self.names, self.out = a, b, names, out
        self.lock = threading.Lock()
        self.acked: dict[str, list[str]] = {n: [] for n in names}
        self.resumed = threading.Event()
        self.quiet = threading.Event()  # the hosts on A stop at the fault

    def _append(self, client: Client, name: str, text: str, msg_id: str) -> None:
        client.append(name, "user", text, id=msg_id)
        with self.lock:
            self.acked[name].append(msg_id)

    def host(self, client: Client, name: str) -> None:
        """Append through A until the fault; a killed A ends it, a frozen one holds it."""
        try:
            while not self.quiet.is_set():
                self._append(client, name, "a host's append", uuid.uuid4().hex)
        except (ConnectionLost, ReverieError):
            pass  # A died under it: what it did not ack, it does not count

    def write_after(self, client: Client, name: str, t0: float) -> None:
        self._append(client, name, "written after the fault", uuid.uuid4().hex)
        took = time.monotonic() - t0
        with self.lock:
            if self.resumed.is_set():
                self.out.blocked += 1
            else:
                self.out.writable.append(took)

    def check_logs(self) -> None:
        with self.b.client() as reader:
            for name in self.names:
                log = whole_history(reader, name)
                ids = [m.id for m in log]
                whole = [m.seq for m in log] == list(range(1, len(log) + 1))
                once = len(set(ids)) == len(ids) and set(self.acked[name]) <= set(ids)
                self.out.broken_logs += not (whole and once)


def _threads(target: Callable[..., None], *args_list: tuple[object, ...]) -> list[threading.Thread]:
    threads = [threading.Thread(target=target, args=args, daemon=True) for args in args_list]
    for t in threads:
        t.start()
    return threads


def _run_trial(trial: _Trial, fault: signal.Signals, load: bool, blocked_after: float) -> None:
    a, b, names, out = trial.a, trial.b, trial.names, trial.out
    with a.client() as first:
        member = first.status().cluster.member  # type: ignore[union-attr]
        for name in names:
            trial._append(first, name, "written through the first owner", uuid.uuid4().hex)
    clients = {
        side: [d.client() for _ in names] for side, d in (("b", b), ("late", a), ("host", a))
    }
    try:
        for c in [c for group in clients.values() for c in group]:
            c.status()  # connected before the fault, as a host's client would be
        hosts = _threads(trial.host, *zip(clients["host"], names, strict=True)) if load else []
        if load:
            with b.client() as probe:  # a moment of load, every session in flight
                while min(len(trial.acked[n]) for n in names) < 5:
                    probe.status()
        out.owned += min(_cluster_of(clients["b"][0], member)[0], len(names))
        refused_before = _refusals(clients["late"][0])
        out.sessions += len(names)
        assert a.proc is not None
        t0 = time.monotonic()
        a.proc.send_signal(fault)
        trial.quiet.set()
        writers = _threads(
            trial.write_after, *((c, n, t0) for c, n in zip(clients["b"], names, strict=True))
        )
        with b.client() as probe:
            while _cluster_of(probe, member)[1]:
                if time.monotonic() - t0 > _DEADLINE:
                    raise RuntimeError("the faulted daemon never shown dead")
                time.sleep(0.01)
            out.seen_dead.append(time.monotonic() - t0)
        for w in writers:
            w.join(max(0.0, blocked_after - (time.monotonic() - t0)))
        if fault == signal.SIGSTOP:
            with trial.lock:
                trial.resumed.set()
            a.proc.send_signal(signal.SIGCONT)
        for w in [*writers, *hosts]:
            w.join(_DEADLINE)
        if fault == signal.SIGSTOP:
            late = [
                (c, n, "a late write", f"late-{n}")
                for c, n in zip(clients["late"], names, strict=True)
            ]
            for t in _threads(trial._append, *late):
                t.join(_DEADLINE)
            out.late_sent += len(names)
            # Each session's first write by the resumed A (its host's, held since the
            # fault, or the late one) is refused; the retry claims the session back.
            for code, n in _refusals(clients["late"][0]).items():
                out.refused[code] = out.refused.get(code, 0) + n - refused_before[code]
        trial.check_logs()
    finally:
        for c in [c for group in clients.values() for c in group]:
            c.close()


def failover_trials(
    root: Path,
    url: str,
    owner_ttl: float,
    trials: int,
    per_trial: int,
    say: Callable[[str], None],
) -> list[Failover]:
    """``trials`` of each of :data:`FAULTS` on a daemon A, ``per_trial`` sessions each."""
    config = daemon_config(url, owner_ttl)
    blocked_after = max(10.0, 5 * owner_ttl)
    (root / "b").mkdir()
    b = start_daemon(str(root / "b"), config)
    results = []
    try:
        for kind, fault, load in FAULTS:
            out = Failover(kind)
            for n in range(trials):
                where = root / f"a-{len(results)}-{n}"
                where.mkdir()
                a = start_daemon(str(where), config)
                try:
                    names = [f"fo:{len(results)}:{n}:{i}" for i in range(per_trial)]
                    _run_trial(_Trial(a, b, names, out), fault, load, blocked_after)
                finally:
                    if fault == signal.SIGKILL:
                        a.kill9()
                    else:
                        a.stop()
                recent = out.writable[-per_trial:]
                say(
                    f"  {kind} {n + 1}/{trials}: writable on B after"
                    f" {max(recent) * 1e3 if recent else float('nan'):.0f} ms (slowest),"
                    f" {out.blocked} blocked so far, seen dead after {out.seen_dead[-1] * 1e3:.0f} ms"
                )
            results.append(out)
    finally:
        b.stop()
    return results
