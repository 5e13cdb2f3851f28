"""Two daemons and a worker append, pop, consolidate and forget the same sessions at once.

Jepsen-style: clients run random operations (seeded: ``REVERIE_CHAOS_SEED``)
on a few shared sessions through either daemon, each with the times it was
sent and answered, while the worker consolidates whatever goes idle, one
daemon is killed and started again and the database restarts. Then the
history is checked against the database (docs/design.md, "Several daemons on
one database"):

- a session whose last operation was a forget has no row, message, job,
  vector, memory version or history entry anywhere;
- every acknowledged message that no forget or pop may have removed is
  stored once, at the seq it was acknowledged with; no id is stored twice;
- no cursor passes its log, no tail counter is negative, every log's seqs
  are 1..n;
- no daemon and no worker exited.

The whole history is printed when a check fails.
"""

from __future__ import annotations

import os
import random
import threading
import time
from collections import Counter
from collections.abc import Callable
from dataclasses import dataclass, field

import pytest

from reverie.config import ReverieError
from reverie.daemon import Client, ConnectionLost
from tests.checks import poll
from tests.daemon_process import DaemonProcess
from tests.fakellm import FakeLLM
from tests.postgres import PgServer

from .chaos import CALL_TIMEOUT, CONFIG, DaemonMember, marker, sql
from .worker_process import WorkerProcess

SESSIONS = [f"r{i}" for i in range(5)]
CLIENTS = 3
RUN_SECONDS = 20.0
#: Rounds of appends, then a consolidation racing a forget or a pop, per session.
ROUNDS = 6
BUDGET = 40


@dataclass
class Op:
    """One operation as a client saw it: sent at ``start``, answered (or failed) at ``end``."""

    client: str
    kind: str  # append | pop | forget | consolidate
    session: str
    start: float
    end: float = 0.0
    ok: bool = False
    detail: str = ""
    ids: list[str] = field(default_factory=list)  # an append's ids; a pop's popped id
    seqs: list[int] = field(default_factory=list)

    def __str__(self) -> str:
        state = "ok" if self.ok else "failed"
        return (
            f"{self.start:8.3f}-{self.end:8.3f} {self.client} {self.kind} {self.session}"
            f" {state} {self.ids} {self.seqs} {self.detail}"
        )


@dataclass
class Workload:
    """Seeded clients on ``sockets``; every operation lands in ``history``."""

    sockets: list[str]
    seed: int
    t0: float = field(default_factory=time.monotonic)
    history: list[Op] = field(default_factory=list)
    _lock: threading.Lock = field(default_factory=threading.Lock)

    def run(self, name: str, stop: threading.Event) -> None:
        rnd = random.Random(f"{self.seed}-{name}")
        k = 0
        while not stop.is_set():
            kind = rnd.choices(["append", "pop", "forget", "consolidate"], [70, 12, 9, 9])[0]
            self._one(rnd, f"{name}-{k}", kind, rnd.choice(SESSIONS), rnd.choice(self.sockets))
            k += 1
            time.sleep(rnd.uniform(0.0, 0.08))

    def _call(self, client: Client, op: Op, tag: str) -> None:
        if op.kind == "append":
            op.ids = [f"{tag}u", f"{tag}a"]
            turn = [
                {"role": "user", "id": op.ids[0], "content": f"{tag} in {marker(op.session)}?"},
                {"role": "assistant", "id": op.ids[1], "content": "Noted, with the weather."},
            ]
            op.seqs = [ack.seq for ack in client.append_many(op.session, turn)]
        elif op.kind == "pop":
            popped = client.pop(op.session)
            op.ids = [popped.id] if popped is not None else []
        elif op.kind == "forget":
            op.detail = f"deleted {client.forget(op.session)}"
        else:
            client.consolidate(op.session)

    def race(self, name: str, session: str, rounds: int, url: str, seen: list[str]) -> None:
        """Rounds on ``session``: a few turns, then a consolidation through one daemon and a
        forget or a pop through the other, sent at once; once the job ended, what the
        forget or the pop left is checked (``seen`` gets each violation)."""
        try:
            self._race(name, session, rounds, url, seen)
        except Exception as exc:  # the thread's failure is the test's
            seen.append(f"{name} on {session} failed: {exc!r}")

    def _race(self, name: str, session: str, rounds: int, url: str, seen: list[str]) -> None:
        rnd = random.Random(f"{self.seed}-{name}")
        for r in range(rounds):
            for k in range(4):
                self._one(rnd, f"{name}-{r}-{k}", "append", session, self.sockets[k % 2])
            kind = rnd.choice(["forget", "pop"])
            first = rnd.randrange(2)
            both = [
                threading.Thread(
                    target=self._one,
                    args=(rnd, f"{name}-{r}-c", "consolidate", session, self.sockets[first]),
                ),
                threading.Thread(
                    target=self._one,
                    args=(rnd, f"{name}-{r}-x", kind, session, self.sockets[1 - first]),
                ),
            ]
            for t in both:
                t.start()
            for t in both:
                t.join()
            poll(lambda: not sql(url, _RUNNING, (session,)), timeout=60, what="job ended")
            with self._lock:
                done = [o for o in self.history if o.kind == kind and o.session == session]
            if kind == "forget" and done[-1].ok:
                try:
                    _gone(url, session)
                except AssertionError as exc:
                    seen.append(f"round {r} of {session}: {exc}")
            row = sql(url, _ROW + " WHERE s.name = %s", (session,))
            if row and not _sound(row[0]):
                seen.append(f"round {r} of {session} after {kind}: row {row[0]}")

    def _one(self, rnd: random.Random, tag: str, kind: str, session: str, socket: str) -> None:
        op = Op(tag.split("-")[0], kind, session, time.monotonic() - self.t0)
        try:
            with Client(socket, timeout=CALL_TIMEOUT) as client:
                self._call(client, op, tag)
            op.ok = True
        except (ConnectionLost, OSError, ReverieError) as exc:
            op.detail = f"{type(exc).__name__}: {exc}"[:160]
        op.end = time.monotonic() - self.t0
        with self._lock:
            self.history.append(op)


@dataclass
class Faults:
    """One daemon killed (``kill -9``) and started again, and one database restart."""

    daemon: DaemonMember
    server: PgServer
    seed: int
    done: list[str] = field(default_factory=list)

    def run(self) -> None:
        rnd = random.Random(self.seed)
        time.sleep(rnd.uniform(0.2, 0.4) * RUN_SECONDS)
        self.daemon.kill9()
        time.sleep(rnd.uniform(0.1, 0.8))
        self.daemon.start_again()
        self.done.append("kill -9 daemon b")
        time.sleep(rnd.uniform(0.05, 0.2) * RUN_SECONDS)
        self.server.restart("immediate")
        self.done.append("postgres restart")


def test_appends_pops_consolidations_and_forgets_of_shared_sessions_across_members(
    make_daemon: Callable[..., DaemonProcess],
    make_worker: Callable[[str, str], WorkerProcess],
    pg_url: str,
    pg_server: PgServer,
    fake_llm: FakeLLM,
    capsys: pytest.CaptureFixture[str],
) -> None:
    env = {"REVERIE_STORE__URL": pg_url}
    config = CONFIG.format(budget=BUDGET, llm=fake_llm.base_url)
    daemons = [make_daemon(env=env, name=n, config=config) for n in ("a", "b")]
    members = [DaemonMember(n, d) for n, d in zip("ab", daemons, strict=True)]
    members.append(DaemonMember("w", make_worker("w", config)))
    seed = int(os.environ.get("REVERIE_CHAOS_SEED", random.randrange(1 << 30)))
    load = Workload([str(d.socket) for d in daemons], seed)
    faults = Faults(members[1], pg_server, seed)
    stop = threading.Event()
    clients = [threading.Thread(target=load.run, args=(f"c{i}", stop)) for i in range(CLIENTS)]
    for t in clients:
        t.start()
    try:
        faults.run()
        time.sleep(max(0.0, RUN_SECONDS - (time.monotonic() - load.t0)))
    finally:
        stop.set()
        for t in clients:
            t.join(timeout=120)
    try:
        assert faults.done == ["kill -9 daemon b", "postgres restart"]
        poll(  # the jobs leased before the last forgets have ended, one way or the other
            lambda: not sql(pg_url, "SELECT 1 FROM jobs WHERE state = 'running'"),
            timeout=90,
            what="no job running",
        )
        seen: list[str] = []
        racers = [
            threading.Thread(target=load.race, args=(f"race{i}", name, ROUNDS, pg_url, seen))
            for i, name in enumerate(SESSIONS)
        ]
        for t in racers:
            t.start()
        for t in racers:
            t.join(timeout=300)
        assert seen == [], "\n".join(seen)
        checked = _check(pg_url, load.history)
        assert [(m.name, m.exited()) for m in members] == [(m.name, None) for m in members]
        kinds = Counter(f"{o.kind} {'ok' if o.ok else 'failed'}" for o in load.history)
        entries = sql(pg_url, "SELECT count(*) FROM history_entries")[0][0]
        with capsys.disabled():
            print(f"\nseed {seed}: {dict(kinds)}; {entries} history entries; {checked}")
    except BaseException:
        with capsys.disabled():
            print(f"\nseed {seed}, faults {faults.done}; history:")
            print("\n".join(str(op) for op in sorted(load.history, key=lambda o: o.start)))
        raise


def _check(url: str, history: list[Op]) -> str:
    """Assert the properties of the module's docstring; what was checked, said."""
    ops = sorted(history, key=lambda o: o.start)
    assert sum(o.ok for o in ops if o.kind == "forget") >= 3, "too few forgets to tell"
    stored = {
        str(mid): (str(session), int(seq))  # type: ignore[call-overload]
        for session, seq, mid in sql(url, "SELECT session, seq, id FROM messages")
    }
    assert len(stored) == sql(url, "SELECT count(*) FROM messages")[0][0]  # no id twice
    popped = {mid for o in ops if o.kind == "pop" and o.ok for mid in o.ids}
    for o in ops:
        if o.kind != "append" or not o.ok:
            continue
        later = [f for f in ops if f.session == o.session and f.end > o.start]
        if any(f.kind == "forget" and f.ok and f.start > o.end for f in later):
            gone = [mid for mid in o.ids if mid in stored]
            assert gone == [], f"acked, then forgotten, still stored: {o}"
        elif any(f.kind == "forget" or (f.kind == "pop" and not f.ok) for f in later):
            continue  # a forget (or a pop whose answer was lost) may have removed it
        else:
            for mid, seq in zip(o.ids, o.seqs, strict=True):
                if mid not in popped:
                    assert stored.get(mid) == (o.session, seq), f"acked {mid} of {o}"
    forgotten: list[str] = []
    for session in SESSIONS:
        last = max((o for o in ops if o.session == session), key=lambda o: o.start, default=None)
        wrote = [o for o in ops if o.session == session and o.kind == "append"]
        if last is None or last.kind != "forget" or not last.ok:
            continue
        if any(o.end > last.start for o in wrote):
            continue  # an append answered after the forget began may have made it anew
        _gone(url, session)
        forgotten.append(session)
    for row in sql(url, _ROW):
        assert _sound(row), f"session row {row}"
    return f"sessions forgotten last, checked gone: {forgotten}"


#: Whether a job of a session is running.
_RUNNING = "SELECT 1 FROM jobs WHERE session = %s AND state = 'running'"
#: A session's row and how many messages its log holds.
_ROW = (
    "SELECT s.name, s.last_seq, s.cursor_seq, s.tail_count, s.tail_tokens,"
    " (SELECT count(*) FROM messages m WHERE m.session = s.name) FROM sessions s"
)


def _sound(row: tuple[object, ...]) -> bool:
    """The cursor within the log, the tail's counters not negative, the seqs 1..n."""
    last_seq, cursor, count, tokens, n = (int(v) for v in row[1:])  # type: ignore[call-overload]
    return cursor <= last_seq and count >= 0 and tokens >= 0 and n == last_seq


def _gone(url: str, session: str) -> None:
    """Nothing of ``session`` is left in any table, index or memory."""
    scope = f"session/{session}"
    left = {
        "sessions": sql(url, "SELECT count(*) FROM sessions WHERE name = %s", (session,)),
        "messages": sql(url, "SELECT count(*) FROM messages WHERE session = %s", (session,)),
        "jobs": sql(url, "SELECT count(*) FROM jobs WHERE session = %s", (session,)),
        "history": sql(
            url,
            "SELECT count(*) FROM history_entries WHERE session = %s OR scope = %s",
            (session, scope),
        ),
        "memory": sql(
            url,
            "SELECT count(*) FROM memory_versions WHERE scope = %s AND body LIKE %s",
            (scope, f"%{marker(session)}%"),
        ),
    }
    for (table,) in sql(url, "SELECT tablename FROM pg_tables WHERE tablename LIKE 'index_docs%'"):
        left[str(table)] = sql(  # a fact's doc has no session: its own scope's facts by scope
            url,
            f'SELECT count(*) FROM "{table}" WHERE session = %s OR scope = %s',
            (session, scope),
        )
    assert {k: v[0][0] for k, v in left.items() if v[0][0]} == {}, f"forgotten {session}"
