"""The acceptance test's moving parts: hosts that append through any daemon, and faults.

A ``Host`` appends messages with ids to its sessions through its home daemon
and, when that one fails to answer (killed, frozen, restarting), through the
next: the same id, so a retry is never a second message. It keeps what was
acknowledged. ``Chaos`` kills (SIGKILL, then restarts), freezes (SIGSTOP,
then SIGCONT) members at random, at most one daemon out at a time, and
restarts the database once; it counts what it did.
"""

from __future__ import annotations

import random
import signal
import threading
import time
from collections import Counter
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from typing import Protocol

import psycopg

from reverie.config import ReverieError
from reverie.daemon import Client, ConnectionLost
from tests.daemon_process import DaemonProcess
from tests.postgres import PgServer

from .worker_process import WorkerProcess

#: The members' configuration: short leases and idle times, so that faults and
#: consolidations happen within a test's seconds; ``budget`` and ``llm`` to fill in.
CONFIG = """
[cluster]
owner_ttl = 1.0
job_lease = 2.0

[sessions]
passivate_after = 3.0

[consolidation]
idle_after = 1.0
budget_tokens = {budget}
target_tokens = 20
hard_tokens = 100000

[embeddings]
provider = "openai"
base_url = "{llm}"
model = "fake-embed"
"""

#: How long a host waits for one daemon before it tries the next.
CALL_TIMEOUT = 4.0


class Member(Protocol):
    """A daemon or a worker process: what the faults need of it."""

    name: str

    def signal(self, signum: int) -> None: ...
    def kill9(self) -> None: ...
    def start_again(self) -> None: ...


@dataclass
class DaemonMember:
    """A daemon or the worker as ``Chaos`` moves it."""

    name: str
    process: DaemonProcess | WorkerProcess

    def signal(self, signum: int) -> None:
        assert self.process.proc is not None
        self.process.proc.send_signal(signum)

    def kill9(self) -> None:
        self.process.kill9()

    def start_again(self) -> None:
        self.process.start()

    def exited(self) -> int | None:
        """The process's exit code, None while it runs."""
        assert self.process.proc is not None
        return self.process.proc.poll()


def sql(url: str, query: str, args: tuple[object, ...] = ()) -> list[tuple[object, ...]]:
    """``query`` run on its own connection; its rows (none for a statement without)."""
    with psycopg.connect(url, autocommit=True) as conn:
        cursor = conn.execute(query, args or None)  # no args: a % is a percent sign
        return [] if cursor.description is None else cursor.fetchall()


def marker(session: str) -> str:
    """A word only ``session``'s messages hold (what a search for it finds of it)."""
    return f"zq{session}x"


@dataclass
class Host:
    """Appends turns (a user message and its answer, one atomic append) to ``sessions`` in
    turn, through ``sockets`` (home first): at least ``count``, and on until told to stop."""

    tag: str
    sessions: Sequence[str]
    sockets: Sequence[str]
    count: int
    scope_of: Callable[[str], str]
    acked: dict[str, tuple[str, int]] = field(default_factory=dict)  # id -> (session, seq)
    unacked: list[str] = field(default_factory=list)
    failovers: int = 0

    def run(self, stop: threading.Event) -> None:
        k = 0
        while k < self.count or not stop.is_set():
            session = self.sessions[k % len(self.sessions)]
            turn = [
                {
                    "role": "user",
                    "id": f"{self.tag}-{k}u",
                    "content": f"{self.tag} asks {k} in {session} ({marker(session)}):"
                    " what about the weather in town?",
                },
                {"role": "assistant", "id": f"{self.tag}-{k}a", "content": "Sunny, mostly."},
            ]
            if not self._append(session, turn):
                self.unacked += [m["id"] for m in turn]
            k += 1
            time.sleep(0.1)

    def _append(self, session: str, turn: list[dict[str, str]]) -> bool:
        for attempt in range(12):
            socket = self.sockets[attempt % len(self.sockets)]
            try:
                with Client(socket, timeout=CALL_TIMEOUT) as client:
                    acks = client.append_many(session, turn, scope=self.scope_of(session))
            except (ConnectionLost, OSError, ReverieError):
                self.failovers += 1
                time.sleep(0.05 * (attempt + 1))
                continue
            self.acked.update((ack.id, (session, ack.seq)) for ack in acks)
            return True
        return False


@dataclass
class Chaos:
    """Faults at random on ``daemons`` and ``workers``, and one restart of ``server``."""

    daemons: Sequence[Member]
    workers: Sequence[Member]
    server: PgServer
    faults: int
    seed: int
    done: Counter[str] = field(default_factory=Counter)

    def run(self) -> None:
        rnd = random.Random(self.seed)
        restart_at = rnd.randrange(self.faults // 3, 2 * self.faults // 3)
        for i in range(self.faults):
            if i == restart_at:
                self.server.restart("fast")
                self.done["postgres restart"] += 1
            members = [*self.daemons, *self.workers]
            member = rnd.choice(members)
            kind = "daemon" if member in self.daemons else "worker"
            if rnd.random() < 0.5:
                member.kill9()
                time.sleep(rnd.uniform(0.1, 0.8))
                member.start_again()
                self.done[f"kill -9 {kind}"] += 1
            else:
                member.signal(signal.SIGSTOP)
                time.sleep(rnd.uniform(0.2, 2.0))
                member.signal(signal.SIGCONT)
                self.done[f"SIGSTOP/SIGCONT {kind}"] += 1
            time.sleep(rnd.uniform(0.05, 0.4))
