"""One daemon per data dir: a second one stops at once, touching nothing."""

from __future__ import annotations

import stat
import subprocess
import sys
from pathlib import Path

from tests.daemon_process import DaemonProcess

_QUIET = {"REVERIE_INDEX__ENABLED": "false"}  # no indexer writing files behind our back


def _serve(data_dir: Path, socket: Path) -> subprocess.CompletedProcess[str]:
    cmd = [sys.executable, "-m", "reverie.daemon", "serve", "--data-dir", str(data_dir)]
    return subprocess.run(
        [*cmd, "--socket", str(socket)], capture_output=True, text=True, timeout=60
    )


def _files(root: Path) -> dict[str, tuple[int, int]]:
    return {
        str(path.relative_to(root)): (path.stat().st_size, path.stat().st_mtime_ns)
        for path in sorted(root.rglob("*"))
        if path.is_file()
    }


def _error_line(stderr: str) -> str:
    assert "Traceback" not in stderr, stderr
    lines = [line for line in stderr.splitlines() if line.startswith("reverie:")]
    assert len(lines) == 1, stderr
    return lines[0]


def test_second_daemon_on_the_same_data_dir_exits_2_naming_the_first(make_daemon) -> None:
    first: DaemonProcess = make_daemon(env=_QUIET)
    with first.client() as client:
        client.append("s", "user", "before", id="m1")
    before = _files(first.data_dir)
    other = first.root / "other.sock"

    done = _serve(first.data_dir, other)

    assert done.returncode == 2, done.stderr
    line = _error_line(done.stderr)
    assert first.proc is not None
    assert f"pid {first.proc.pid}" in line
    assert str(first.data_dir) in line
    assert not other.exists()
    assert _files(first.data_dir) == before, "the second daemon touched the data dir"
    with first.client() as client:  # the first goes on, its appends unharmed
        client.append("s", "user", "after", id="m2")
        assert [m.id for m in client.history("s")] == ["m1", "m2"]


def test_live_socket_is_refused_before_any_state_is_opened(make_daemon, tmp_path: Path) -> None:
    first: DaemonProcess = make_daemon(env=_QUIET)
    elsewhere = tmp_path / "elsewhere"

    done = _serve(elsewhere, first.socket)

    assert done.returncode == 2, done.stderr
    assert "already listening" in _error_line(done.stderr)
    assert not (elsewhere / "reverie.sqlite3").exists()
    assert not (elsewhere / "memory").exists()
    with first.client() as client:
        assert client.status().pid == first.proc.pid  # type: ignore[union-attr]


def test_killed_daemon_leaves_neither_lock_nor_socket_in_the_way(make_daemon) -> None:
    first: DaemonProcess = make_daemon(env=_QUIET)
    with first.client() as client:
        client.append("s", "user", "kept", id="m1")
    first.kill9()
    assert first.socket.exists(), "kill -9 should leave the socket file behind"

    first.start()  # same data dir, same (stale) socket

    with first.client() as client:
        assert client.status().pid == first.proc.pid  # type: ignore[union-attr]
        assert [m.id for m in client.history("s")] == ["m1"]


def test_removing_the_lock_file_does_not_let_a_second_daemon_in(make_daemon) -> None:
    first: DaemonProcess = make_daemon(env=_QUIET)
    (first.data_dir / "reverie.lock").unlink()

    done = _serve(first.data_dir, first.root / "other.sock")

    assert done.returncode == 2, done.stderr
    assert f"data dir {first.data_dir} is in use" in _error_line(done.stderr)
    assert not (first.root / "other.sock").exists()


def test_a_foreign_directory_is_refused_and_left_as_it_was(tmp_path: Path) -> None:
    foreign = tmp_path / "home"
    foreign.mkdir(mode=0o755)
    (foreign / "notes.txt").write_text("mine")
    foreign.chmod(0o755)

    done = _serve(foreign, tmp_path / "d.sock")

    assert done.returncode == 2, done.stderr
    assert "is not empty and holds no reverie data" in _error_line(done.stderr)
    assert stat.S_IMODE(foreign.stat().st_mode) == 0o755
    assert [p.name for p in foreign.iterdir()] == ["notes.txt"]
