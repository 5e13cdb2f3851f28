"""One daemon per data dir: an exclusive ``flock`` on the data dir itself.

The lock is taken before the database, the memory tree, the index or the
socket is opened, so a second daemon on the same data dir stops with one
line naming the pid that holds it, having touched nothing but the lock
file. The kernel drops the lock when its holder dies (even by ``kill -9``),
so a stale lock never blocks a restart.

The lock is on the directory, not on a file in it: a lock file can be
deleted (it looks stale), and a second daemon would then lock a new file
of the same name and share the data dir. ``<data_dir>/reverie.lock`` only
holds the holder's pid, for the message.
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
        self.data_dir = data_dir
        self.path = data_dir / LOCK_NAME
        self._fd: int | None = None
        self._dir_fd: int | None = None

    def acquire(self) -> None:
        """Take the lock, or raise ``ConfigError`` naming the holder's pid.

        Raises ``StoreReadOnly`` when the lock file cannot be created because
        the data dir is read-only or not ours.
        """
        try:
            fd = os.open(self.path, os.O_RDWR | os.O_CREAT | os.O_CLOEXEC, 0o600)
        except OSError as exc:
            error = (
                StoreReadOnly
                if exc.errno in (errno.EROFS, errno.EACCES, errno.EPERM)
                else StoreError
            )
            raise error(
                f"cannot open the lock file {self.path}: {exc.strerror}; "
                "make the data dir read-write (remount, fix its owner) or pass another --data-dir"
            ) from exc
        dir_fd = os.open(self.data_dir, os.O_RDONLY | os.O_DIRECTORY | os.O_CLOEXEC)
        try:
            fcntl.flock(dir_fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
        except BlockingIOError:
            holder = _read_pid(fd)
            os.close(fd)
            os.close(dir_fd)
            who = f"pid {holder}" if holder else "another process"
            raise ConfigError(
                f"data dir {self.data_dir} is in use by the reverie daemon {who}; "
                "stop it or pass another --data-dir"
            ) from None
        os.ftruncate(fd, 0)
        os.pwrite(fd, f"{os.getpid()}\n".encode(), 0)
        self._fd, self._dir_fd = fd, dir_fd

    def release(self) -> None:
        """Drop the lock; the pid file stays (removing it would race a starting daemon)."""
        for fd in (self._fd, self._dir_fd):
            if fd is not None:
                os.close(fd)
        self._fd = self._dir_fd = None


def _read_pid(fd: int) -> int | None:
    try:
        text = os.pread(fd, 32, 0).decode("ascii", "replace").strip()
    except OSError:
        return None
    return int(text) if text.isdigit() else None
