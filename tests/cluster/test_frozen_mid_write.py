"""A daemon frozen in the middle of a write does not hold its sessions from the others.

A daemon stopped (SIGSTOP) while a host appends through it is often stopped
inside a transaction, holding the row locks of the session it was writing: a
claim by another daemon would wait on them for as long as it stays stopped, and
with it that daemon's whole writer. The server ends a transaction idle for
``owner_ttl`` (``store/postgres/db.py``), so the other daemon writes the session
while the first is still stopped. Once continued, the first daemon's unfinished
writes fail as retryable (its connection is gone) and the host's retry with the
same id lands once: every log stays gap-free with each acknowledged id once.
"""

from __future__ import annotations

import signal
import threading
import time
import uuid
from collections.abc import Callable

import pytest

from reverie.config import ReverieError
from reverie.daemon import Client
from tests.checks import whole_history
from tests.daemon_process import DaemonProcess

pytestmark = pytest.mark.engines

CONFIG = "[cluster]\nowner_ttl = 1.0\n\n[consolidation]\nidle_after = 3600.0\n\n[index]\nenabled = false\n"
#: Rounds of freezing a under the load of HOSTS hosts: most land inside a transaction.
ROUNDS = 3
HOSTS = 4
RETRYABLE = {"store.unavailable", "session.moved"}


class Host:
    """Appends to ``session`` through one daemon until told to stop; every ack kept."""

    def __init__(self, daemon: DaemonProcess, session: str) -> None:
        self.daemon, self.session = daemon, session
        self.acked: list[str] = []
        self.errors: list[BaseException] = []
        self.stop = threading.Event()
        self.thread = threading.Thread(target=self._run)
        self.thread.start()

    def _run(self) -> None:
        try:
            with Client(self.daemon.socket, timeout=120) as client:
                while not self.stop.is_set():
                    self._append(client, uuid.uuid4().hex)
        except BaseException as exc:  # reported by the test
            self.errors.append(exc)

    def _append(self, client: Client, msg_id: str) -> None:
        _append(client, self.session, "a host's line", msg_id)
        self.acked.append(msg_id)

    def wait_for(self, acks: int) -> None:
        while len(self.acked) < acks and self.thread.is_alive():
            self.thread.join(0.01)

    def finish(self) -> list[str]:
        self.stop.set()
        self.thread.join(120)
        assert not self.thread.is_alive(), f"{self.session}: the host never finished"
        assert self.errors == [], f"{self.session}: {self.errors!r}"
        return self.acked


def test_a_daemon_frozen_mid_write_lets_another_write_its_session_while_frozen(
    make_daemon: Callable[..., DaemonProcess],
    store_env: Callable[[str], dict[str, str]],
    daemon_engine: str,
) -> None:
    if daemon_engine != "postgres":
        pytest.skip("several daemons share only a Postgres store")
    a = make_daemon(name="a", config=CONFIG)
    b = make_daemon(name="b", config=CONFIG, env=store_env("a"))
    assert a.proc is not None
    through_b: dict[str, list[str]] = {}  # what b acked for each session while a was frozen
    acked: dict[str, list[str]] = {}
    for round_ in range(ROUNDS):
        sessions = [f"frozen:{round_}:{i}" for i in range(HOSTS)]
        hosts = [Host(a, session) for session in sessions]
        for host in hosts:
            host.wait_for(10)
        a.proc.send_signal(signal.SIGSTOP)
        try:
            writes = [
                threading.Thread(target=_one_append, args=(b, session, through_b))
                for session in sessions
            ]
            for write in writes:
                write.start()
            deadline = time.monotonic() + 30  # bounded by owner_ttl, else until SIGCONT
            for write in writes:
                write.join(max(0.0, deadline - time.monotonic()))
            assert not any(w.is_alive() for w in writes), f"round {round_}: b blocked"
            assert a.proc.poll() is None
            assert all(s in through_b for s in sessions), f"round {round_}: {through_b}\n{b.log()}"
        finally:
            a.proc.send_signal(signal.SIGCONT)
        for session, host in zip(sessions, hosts, strict=True):
            acked[session] = host.finish()
    with b.client() as client:
        for session, ids in acked.items():
            log = whole_history(client, session)
            assert [m.seq for m in log] == list(range(1, len(log) + 1))
            stored = [m.id for m in log]
            assert len(set(stored)) == len(stored)
            acks = set(ids) | set(through_b[session])
            assert acks == set(stored), (session, acks - set(stored), set(stored) - acks)


def _append(client: Client, session: str, text: str, msg_id: str) -> None:
    """Append until acked: a retryable refusal (the frozen daemon's transaction ended
    under it, a takeover in between) is retried with the same id, as a host does."""
    while True:
        try:
            client.append(session, "user", text, id=msg_id)
            return
        except ReverieError as exc:
            if exc.code not in RETRYABLE:
                raise


def _one_append(daemon: DaemonProcess, session: str, acked: dict[str, list[str]]) -> None:
    msg_id = uuid.uuid4().hex
    with Client(daemon.socket, timeout=120) as client:
        _append(client, session, "through b while a is frozen", msg_id)
    acked[session] = [msg_id]
