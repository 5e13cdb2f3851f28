"""Fixtures for fault injection: small file systems we can fill up or make read-only."""

from __future__ import annotations

import os
import subprocess
from collections.abc import Callable, Iterator
from pathlib import Path

import pytest


def _run(*cmd: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run(cmd, capture_output=True, text=True, timeout=30, check=False)


@pytest.fixture
def tmpfs() -> Iterator[Callable[..., Path]]:
    """``tmpfs(path, size="8m")`` mounts a size-limited tmpfs at ``path``; unmounted at teardown.

    Needs root (CAP_SYS_ADMIN); otherwise the test is skipped, saying so.
    Request this fixture before ``make_daemon`` so daemons stop before the
    unmount; a mount still busy is detached lazily so none is ever left behind.
    """
    mounted: list[Path] = []

    def mount(path: Path, size: str = "8m") -> Path:
        if os.geteuid() != 0:
            pytest.skip("mounting a tmpfs needs root; the fault tests for a full disk cannot run")
        path.mkdir(parents=True, exist_ok=True)
        done = _run("mount", "-t", "tmpfs", "-o", f"size={size},mode=0700", "tmpfs", str(path))
        if done.returncode != 0:
            pytest.skip(f"cannot mount a tmpfs at {path}: {done.stderr.strip()}")
        mounted.append(path)
        return path

    try:
        yield mount
    finally:
        for path in reversed(mounted):
            if _run("umount", str(path)).returncode != 0:
                _run("umount", "-l", str(path))


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
