"""Why a client could not reach the daemon, said so the user knows what to do next.

One function for both transports: ``connect()`` on a Unix socket fails for
reasons that need different fixes. ENOENT and ECONNREFUSED mean no daemon
listens there; EAGAIN means one does but its listen queue is full (a burst
of clients); EACCES means the socket's permissions keep this user out.
"""

from __future__ import annotations

import errno
from pathlib import Path

from reverie.config import ConnectionLost

__all__ = ["unreachable"]


def unreachable(path: Path, exc: OSError, setting: str) -> ConnectionLost:
    """The error for a failed ``connect(path)``; ``setting`` names how to point elsewhere."""
    why = f"cannot connect to the reverie daemon at {path}: {exc.strerror or exc}"
    if exc.errno == errno.EAGAIN:
        hint = (
            "it is running but its listen queue is full (too many clients connecting at once); "
            "retry in a moment"
        )
    elif exc.errno == errno.EACCES:
        hint = (
            "this user may not open the socket; run as the daemon's user, or set "
            "daemon.socket_group / daemon.socket_mode"
        )
    else:
        hint = f"is it running (`reverie serve`)? set {setting}"
    return ConnectionLost(f"{why}; {hint}")
