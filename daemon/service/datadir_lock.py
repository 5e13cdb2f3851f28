"""One daemon per data dir: an exclusive ``flock`` on the data dir itself and on
``<data_dir>/reverie.lock``.

The directory's lock cannot be stolen by deleting a file (a second daemon
after ``rm reverie.lock`` still finds the directory locked); the lock
file's holds the pid for the message, and keeps a daemon of an older
release, which locks only the file, out. The lock is taken before the database, the memory tree, the index or the
socket is opened, so a second daemon on the same data dir stops with one
line naming the pid that holds it, having touched nothing but the lock
file. The kernel drops the lock when its holder dies (even by ``kill -9``),
so a stale lock file never blocks a restart; the pid written in it is only
for the message.
"""

from __future__ import annotations

import errno
import fcntl
import os
from pathlib import Path

from reverie.config import ConfigError
from reverie.store import StoreError, StoreReadOnly

__all__ = ["LOCK_NAME", "DataDirLock"]

LOCK_NAME = "reverie.lock"


class DataDirLock:
    """Holds the data dir's lock from ``acquire`` until ``release`` (or process exit)."""

    def __init__(self, data_dir: Path) -> None:
        self.path = data_dir / LOCK_NAME
        self._fds: list[int] = []

    def acquire(self) -> None:
        """Take the lock, or raise ``ConfigError`` naming the holder's pid.

        Raises ``StoreReadOnly`` when the lock file cannot be created because
        the data dir is read-only or not ours.
        """
        try:
            self._lock(os.open(self.path.parent, os.O_RDONLY | os.O_DIRECTORY | os.O_CLOEXEC))
            fd = os.open(self.path, os.O_RDWR | os.O_CREAT | os.O_CLOEXEC, 0o600)
        except OSError as exc:
            self.release()
            error = (
                StoreReadOnly
                if exc.errno in (errno.EROFS, errno.EACCES, errno.EPERM)
                else StoreError
            )
            raise error(
                f"cannot open the lock file {self.path}: {exc.strerror}; "
                "make the data dir read-write (remount, fix its owner) or pass another --data-dir"
            ) from exc
        self._lock(fd)
        os.ftruncate(fd, 0)
        os.pwrite(fd, f"{os.getpid()}\n".encode(), 0)

    def _lock(self, fd: int) -> None:
        """Hold ``fd``'s exclusive lock until ``release``, or raise ``ConfigError``."""
        self._fds.append(fd)
        try:
            fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
        except BlockingIOError:
            self.release()
            holder = _read_pid(self.path)
            who = f"pid {holder}" if holder else "another process"
            raise ConfigError(
                f"data dir {self.path.parent} is in use by the reverie daemon {who}; "
                "stop it or pass another --data-dir"
            ) from None

    def release(self) -> None:
        """Drop the locks; the file stays (removing it would race a starting daemon)."""
        while self._fds:
            os.close(self._fds.pop())


def _read_pid(path: Path) -> int | None:
    try:
        text = path.read_text(encoding="ascii", errors="replace").strip()
    except OSError:
        return None
    return int(text) if text.isdigit() else None
