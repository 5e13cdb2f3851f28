"""Fixtures for fault injection: small file systems we can fill up or make read-only."""

from __future__ import annotations

import os
import subprocess
from collections.abc import Iterator
from pathlib import Path

import pytest


def _run(*cmd: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run(cmd, capture_output=True, text=True, timeout=30, check=False)


class Mounts:
    """Mounts made by one test; ``unmount_all`` (the fixture's teardown) undoes every one."""

    def __init__(self) -> None:
        self.mounted: list[Path] = []

    def _mount(self, path: Path, *args: str) -> Path:
        if os.geteuid() != 0:
            pytest.skip("mounting needs root; this fault (a full or read-only disk) cannot run")
        path.mkdir(parents=True, exist_ok=True)
        done = _run("mount", *args, str(path))
        if done.returncode != 0:
            pytest.skip(f"cannot mount at {path}: {done.stderr.strip()}")
        self.mounted.append(path)
        return path

    def tmpfs(self, path: Path, size: str = "8m", mode: str = "0700") -> Path:
        """A size-limited tmpfs at ``path``."""
        return self._mount(path, "-t", "tmpfs", "-o", f"size={size},mode={mode}", "tmpfs")

    def bind_read_only(self, path: Path) -> Path:
        """``path`` itself, bind-mounted read-only over itself.

        Files opened before keep working (the kernel refuses to remount a file
        system read-only while a file on it is open for writing, so SQLite's
        open database cannot be made read-only under it); anything that opens
        or creates a file for writing from now on gets EROFS.
        """
        self._mount(path, "--bind", str(path))
        done = _run("mount", "-o", "remount,bind,ro", str(path))
        assert done.returncode == 0, done.stderr
        return path

    def unmount(self, path: Path) -> None:
        """Undo the newest mount at ``path`` (lazily if it is still busy)."""
        self.mounted.reverse()
        self.mounted.remove(path)
        self.mounted.reverse()
        if _run("umount", str(path)).returncode != 0:
            _run("umount", "-l", str(path))

    def unmount_all(self) -> None:
        while self.mounted:
            self.unmount(self.mounted[-1])


@pytest.fixture
def mounts() -> Iterator[Mounts]:
    """Request it before ``make_daemon`` so daemons stop before the unmounts."""
    made = Mounts()
    try:
        yield made
    finally:
        made.unmount_all()


def remount(path: Path, mode: str) -> None:
    """Remount the tmpfs at ``path`` ``ro`` or ``rw`` (root does not care about chmod)."""
    done = _run("mount", "-o", f"remount,{mode}", str(path))
    assert done.returncode == 0, done.stderr


def fill(path: Path) -> Path:
    """Write a ballast file under ``path`` until its file system has no page left."""
    ballast = path / "ballast"
    fd = os.open(ballast, os.O_WRONLY | os.O_CREAT | os.O_TRUNC, 0o600)
    try:
        for size in (1 << 20, 1 << 16, 1 << 12):
            chunk = b"\0" * size
            try:
                while True:
                    os.write(fd, chunk)
            except OSError as exc:
                assert exc.errno == 28, exc
    finally:
        os.close(fd)
    return ballast
