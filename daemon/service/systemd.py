"""systemd integration without libsystemd: notify, watchdog, socket activation, peer checks.

Everything here is a few lines of stdlib over documented kernel and systemd
interfaces, so the daemon needs no C extension to run well under systemd and
behaves the same when started by hand (every call is a no-op there).

- ``notify`` and its helpers speak the ``sd_notify`` datagram protocol.
- ``watchdog_interval`` / ``run_watchdog`` keep ``WatchdogSec=`` satisfied
  from the event loop itself, so a wedged loop stops pinging and gets restarted.
- ``listen_fds`` takes over sockets passed by a ``.socket`` unit.
- ``peer_credentials`` / ``check_peer`` decide who may talk to the daemon.
- ``prepare_socket_path`` / ``ensure_private_dir`` set file-system permissions
  on the socket the daemon bound itself and on the private data directory.
"""

from __future__ import annotations

import grp
import logging
import os
import socket
import stat
import struct
from collections.abc import Mapping, MutableMapping
from pathlib import Path

import trio

from reverie.config import ConfigError

__all__ = [
    "check_peer",
    "ensure_private_dir",
    "listen_fds",
    "notify",
    "peer_credentials",
    "prepare_socket_path",
    "ready",
    "resolve_group",
    "run_watchdog",
    "status",
    "stopping",
    "watchdog",
    "watchdog_interval",
]

log = logging.getLogger(__name__)

_SD_LISTEN_FDS_START = 3
_LISTEN_VARS = ("LISTEN_PID", "LISTEN_FDS", "LISTEN_FDNAMES")
_UCRED = struct.Struct("3i")


def notify(state: str, *, env: Mapping[str, str] = os.environ) -> bool:
    """Send one ``sd_notify`` datagram; True when it was handed to the kernel.

    A no-op (False) without ``$NOTIFY_SOCKET``, i.e. when not run by systemd.
    The socket is non-blocking so a slow or absent service manager can never
    stall the event loop, and every ``OSError`` is swallowed: losing a status
    update must not take the daemon down.
    """
    address = env.get("NOTIFY_SOCKET", "")
    if not address:
        return False
    if address.startswith("@"):
        target = "\0" + address[1:]
    elif address.startswith("/"):
        target = address
    else:
        log.debug("unsupported NOTIFY_SOCKET address %r; not notifying", address)
        return False
    try:
        with socket.socket(socket.AF_UNIX, socket.SOCK_DGRAM | socket.SOCK_CLOEXEC) as sock:
            sock.setblocking(False)
            sock.sendto(state.encode(), target)
    except OSError as exc:
        log.debug("sd_notify to %s failed: %s", address, exc)
        return False
    return True


def ready(status: str) -> bool:
    """Tell systemd (``Type=notify``) that the daemon accepts connections now."""
    return notify(f"READY=1\nSTATUS={status}")


def stopping() -> bool:
    """Tell systemd a clean shutdown has begun, so it waits ``TimeoutStopSec=``."""
    return notify("STOPPING=1")


def status(text: str) -> bool:
    """Update the free-form line ``systemctl status`` shows."""
    return notify(f"STATUS={text}")


def watchdog() -> bool:
    """Reset systemd's watchdog timer (``WatchdogSec=``)."""
    return notify("WATCHDOG=1")


def watchdog_interval(env: Mapping[str, str] = os.environ, configured: float = 0.0) -> float | None:
    """Seconds between watchdog pings, or None when nobody is watching.

    ``configured`` (``daemon.watchdog_interval``) wins when > 0. Otherwise half
    of ``$WATCHDOG_USEC``, the margin ``sd_watchdog_enabled(3)`` recommends, but
    only when ``$WATCHDOG_PID`` is absent or names this process: a child that
    inherited the variables must not ping on its parent's behalf.
    """
    if configured > 0:
        return configured
    raw_usec = env.get("WATCHDOG_USEC", "")
    if not raw_usec:
        return None
    raw_pid = env.get("WATCHDOG_PID", "")
    try:
        usec = int(raw_usec)
        pid = int(raw_pid) if raw_pid else os.getpid()
    except ValueError:
        log.warning("ignoring malformed WATCHDOG_USEC=%r WATCHDOG_PID=%r", raw_usec, raw_pid)
        return None
    if pid != os.getpid() or usec <= 0:
        return None
    return usec / 1_000_000 / 2


async def run_watchdog(
    interval: float, *, task_status: trio.TaskStatus[None] = trio.TASK_STATUS_IGNORED
) -> None:
    """Ping ``WATCHDOG=1`` now and every ``interval`` seconds until cancelled.

    The ping is sent from a task on the daemon's own event loop, on purpose:
    if the loop is blocked (a sync call that never returns, a deadlock), the
    pings stop and systemd restarts the daemon. Cancellation leaves nothing
    behind.
    """
    task_status.started()
    while True:
        watchdog()
        await trio.sleep(interval)


def listen_fds(env: MutableMapping[str, str] = os.environ) -> list[socket.socket]:
    """Sockets passed by systemd socket activation, in ``LISTEN_FDS`` order.

    Only when ``$LISTEN_PID`` is this process: the variables may have been
    inherited from a parent that was the real recipient. Like
    ``sd_listen_fds(1)`` the ``LISTEN_*`` variables are removed from ``env``
    (by default ``os.environ``, hence from every child's environment) whether
    or not they were for us, and the sockets are made non-inheritable, which
    systemd does not do for us.
    """
    raw_pid = env.get("LISTEN_PID", "")
    raw_count = env.get("LISTEN_FDS", "")
    for name in _LISTEN_VARS:
        env.pop(name, None)
    if not raw_pid or not raw_count:
        return []
    try:
        pid, count = int(raw_pid), int(raw_count)
    except ValueError:
        log.warning("ignoring malformed LISTEN_PID=%r LISTEN_FDS=%r", raw_pid, raw_count)
        return []
    if pid != os.getpid():
        log.debug("LISTEN_PID=%d is not us (%d); no socket activation", pid, os.getpid())
        return []
    sockets = []
    for fd in range(_SD_LISTEN_FDS_START, _SD_LISTEN_FDS_START + count):
        sock = socket.socket(fileno=fd)
        sock.set_inheritable(False)
        sockets.append(sock)
    log.info("socket activation: %d socket(s) from systemd", len(sockets))
    return sockets


def peer_credentials(sock: socket.socket | trio.socket.SocketType) -> tuple[int, int, int]:
    """The (pid, uid, gid) of the process at the other end of a Unix socket.

    Read with ``SO_PEERCRED``: the kernel records them at ``connect()``, so the
    peer cannot lie about them.
    """
    raw = sock.getsockopt(socket.SOL_SOCKET, socket.SO_PEERCRED, _UCRED.size)
    pid, uid, gid = _UCRED.unpack(raw)
    return pid, uid, gid


def check_peer(uid: int, gid: int, *, allowed_uids: list[int], allowed_gids: list[int]) -> bool:
    """Whether a peer may use the daemon.

    Both lists empty means the socket's file mode is the only gate. Otherwise
    the peer's uid or primary gid must be listed. The daemon's own uid is
    always allowed so its own tools (``reverie`` CLI, health checks) work.
    """
    if uid == os.getuid():
        return True
    if not allowed_uids and not allowed_gids:
        return True
    return uid in allowed_uids or gid in allowed_gids


def resolve_group(group: str) -> int:
    """A group id from a name or a decimal number (``daemon.socket_group``)."""
    if group.isdigit():
        return int(group)
    try:
        return grp.getgrnam(group).gr_gid
    except KeyError:
        raise ConfigError(f"daemon.socket_group: no group named {group!r}") from None


def prepare_socket_path(path: Path, *, mode: int, group: str) -> None:
    """Apply ``daemon.socket_mode`` and ``daemon.socket_group`` to a bound Unix socket.

    For sockets the daemon binds itself; an activated socket already carries
    the ``.socket`` unit's ``SocketMode=``/``SocketGroup=``. Permissions are set
    after ``bind()``: in the window between, the file has at most what the
    umask allows (``UMask=0077`` under systemd), so it only ever starts tighter.
    ``group`` may be empty (leave the group alone).
    """
    if group:
        os.chown(path, -1, resolve_group(group))
    os.chmod(path, mode)


#: A data dir holding either was made by reverie (the lock file comes first, the database next).
_OURS = ("reverie.lock", "reverie.sqlite3")


def ensure_private_dir(path: Path) -> Path:
    """Create the data directory 0700, or tighten an existing one we own to 0700.

    Session memory is private. A directory that is neither empty nor
    reverie's (``/tmp``, a home directory) is refused with ``ConfigError``
    and left exactly as it was. A directory owned by someone else is left
    alone (we may not chmod it, and changing another user's files is not our
    call) but logged, since its mode is then not ours to guarantee.
    """
    path.mkdir(mode=0o700, parents=True, exist_ok=True)
    if not any((path / name).exists() for name in _OURS) and any(path.iterdir()):
        raise ConfigError(
            f"data dir {path} is not empty and holds no reverie data ({' or '.join(_OURS)}); "
            "pass a new or empty directory to --data-dir"
        )
    info = path.stat()
    if info.st_uid != os.getuid():
        log.warning("data dir %s is owned by uid %d, not us; mode left as is", path, info.st_uid)
    elif stat.S_IMODE(info.st_mode) != 0o700:
        log.info("tightening data dir %s to 0700", path)
        path.chmod(0o700)
    return path
