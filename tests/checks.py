"""Checks the daemon tests share: polling under a deadline, the no-loss invariant, the CLI."""

from __future__ import annotations

import os
import signal
import socket
import subprocess
import sys
import time
from collections import Counter
from collections.abc import Callable
from pathlib import Path
from typing import Any

from reverie.daemon import Client
from reverie.daemon import protocol as p
from reverie.daemon.protocol.framing import FrameReader


def free_port() -> int:
    """A TCP port on loopback that nothing listens on now."""
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return int(probe.getsockname()[1])


def accepts(port: int) -> bool:
    """Something accepts connections on loopback ``port``."""
    try:
        socket.create_connection(("127.0.0.1", port), timeout=1).close()
    except OSError:
        return False
    return True


def poll(predicate: Callable[[], Any], timeout: float = 30.0, what: str = "condition") -> Any:
    """``predicate()`` once it is truthy; fails after ``timeout`` seconds."""
    deadline = time.monotonic() + timeout
    while not (value := predicate()):
        assert time.monotonic() < deadline, f"{what} not reached within {timeout}s"
        time.sleep(0.05)
    return value


def index_open(client: Client) -> None:
    """Until ``status`` says the search index is open (bounded): a daemon serves before it
    is (docs/design.md, "Start-up"), and a search waits for it, so a search polled under a
    short deadline starts that deadline after this."""
    poll(lambda: client.status().index.ready, 120, "the search index open")


def hup_and_wait(daemon: Any, reloads: int) -> p.DaemonStatus:
    """SIGHUP the daemon (a ``DaemonProcess``), then its status once it counts ``reloads``."""
    assert daemon.proc is not None
    daemon.proc.send_signal(signal.SIGHUP)
    with daemon.client() as client:
        return poll(lambda: (s := client.status()).config_reloads >= reloads and s)


def jobs(client: Client) -> dict[str, int]:
    """The default backend's consolidation jobs by state."""
    return client.status().consolidation["default"].jobs


def whole_history(client: Client, session: str) -> list[p.Message]:
    """Every message of ``session``, oldest first, read a page of 1,000 at a time."""
    messages: list[p.Message] = []
    while page := client.history(
        session, after_seq=messages[-1].seq if messages else 0, limit=1000
    ):
        messages += page
    return messages


def assert_each_id_once(
    client: Client, session: str, scope: str, acked: list[str], settle: float = 10.0
) -> None:
    """Invariant 2: every acked id is in the tail or in exactly one history entry, never both.

    Read settled: a job writes its history entry a moment before the session's cursor moves
    past its turns (docs/design.md, "Consolidation, step by step", 5), so a read in that
    moment sees a turn in both. Both are read again, for up to ``settle`` seconds, until the
    invariant holds; a state that stays wrong fails with what was read."""
    deadline = time.monotonic() + settle
    while True:
        tail = {m.id for m in client.context(session, max_tokens=0).messages}
        covered = Counter(
            i for e in client.memory(scope, limit=1000).entries for i in e.message_ids
        )
        wrong = [
            f"{mid} in tail={mid in tail}, history={mid in covered}"
            for mid in acked
            if (mid in tail) == (mid in covered)
        ]
        twice = [mid for mid, n in covered.items() if n > 1]
        if not (wrong or twice) or time.monotonic() > deadline:
            break
        time.sleep(0.1)
    assert not twice, f"a message is in two history entries: {twice}"
    assert not wrong, "; ".join(wrong)


def reverie_cli(
    socket: Path, *args: str, check: bool = False, **kw: Any
) -> subprocess.CompletedProcess[str]:
    """``reverie ARGS`` in a subprocess talking to ``socket``; with ``check``, it must exit 0."""
    env = {**os.environ, "REVERIE_SOCKET": str(socket)}
    out = subprocess.run(
        [sys.executable, "-m", "reverie.daemon", *args],
        capture_output=True,
        text=True,
        env=env,
        timeout=120,
        **kw,
    )
    if check:
        assert out.returncode == 0, out.stderr
    return out


def read_reply(sock: socket.socket, what: str = "the connection") -> p.Reply:
    """The next reply frame on a raw socket; fails if the daemon closes it first."""
    reader = FrameReader(1 << 24)
    while True:
        data = sock.recv(1 << 16)
        assert data, f"{what} was closed before the reply"
        bodies = reader.feed(data)
        if bodies:
            return p.decode_reply(bodies[0])
