"""What a benchmark or an evaluation waits for on a running daemon: its index settled."""

from __future__ import annotations

import time

from tests.daemon_process import DaemonProcess

__all__ = ["wait_settled"]

_SETTLE_DEADLINE = 3600.0


def wait_settled(daemon: DaemonProcess) -> float:
    """Seconds until ``status`` says the index is caught up and settled."""
    start = time.perf_counter()
    with daemon.client() as client:
        while time.perf_counter() - start < _SETTLE_DEADLINE:
            index = client.status().index
            if index.settled and not index.messages_behind:
                return time.perf_counter() - start
            time.sleep(0.1)
    raise RuntimeError(f"the index did not settle within {_SETTLE_DEADLINE:.0f} s")
