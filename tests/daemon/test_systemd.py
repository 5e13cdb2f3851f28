"""systemd glue against real sockets: notify datagrams, watchdog timing, activation, peers."""

from __future__ import annotations

import grp
import json
import os
import socket
import stat
import subprocess
import sys
import uuid
from collections.abc import Callable, Iterator
from pathlib import Path

import pytest
import trio
import trio.testing

from reverie.config import ConfigError
from reverie.daemon.service.systemd import (
    check_peer,
    ensure_private_dir,
    listen_fds,
    notify,
    peer_credentials,
    prepare_socket_path,
    ready,
    resolve_group,
    run_watchdog,
    status,
    stopping,
    watchdog,
    watchdog_interval,
)


@pytest.fixture
def receiver(tmp_path: Path) -> Iterator[tuple[socket.socket, Path]]:
    """A datagram socket standing in for systemd's notify socket."""
    path = tmp_path / "notify.sock"
    with socket.socket(socket.AF_UNIX, socket.SOCK_DGRAM) as sock:
        sock.bind(str(path))
        sock.settimeout(5)
        yield sock, path


def test_notify_sends_one_datagram_to_a_path_socket(
    receiver: tuple[socket.socket, Path],
) -> None:
    sock, path = receiver
    assert notify("READY=1\nSTATUS=up", env={"NOTIFY_SOCKET": str(path)}) is True
    assert sock.recv(4096) == b"READY=1\nSTATUS=up"


def test_notify_sends_to_an_abstract_socket() -> None:
    name = f"reverie-test-{uuid.uuid4().hex}"
    with socket.socket(socket.AF_UNIX, socket.SOCK_DGRAM) as sock:
        sock.bind("\0" + name)
        sock.settimeout(5)
        assert notify("WATCHDOG=1", env={"NOTIFY_SOCKET": "@" + name}) is True
        assert sock.recv(4096) == b"WATCHDOG=1"


def test_notify_without_notify_socket_is_a_no_op() -> None:
    assert notify("READY=1", env={}) is False


def test_notify_to_a_missing_socket_returns_false(tmp_path: Path) -> None:
    assert notify("READY=1", env={"NOTIFY_SOCKET": str(tmp_path / "absent.sock")}) is False


def test_notify_to_a_closed_socket_returns_false(tmp_path: Path) -> None:
    path = tmp_path / "closed.sock"
    with socket.socket(socket.AF_UNIX, socket.SOCK_DGRAM) as sock:
        sock.bind(str(path))
    assert path.exists()
    assert notify("READY=1", env={"NOTIFY_SOCKET": str(path)}) is False


def test_notify_ignores_unsupported_address_kinds() -> None:
    assert notify("READY=1", env={"NOTIFY_SOCKET": "vsock:2:1234"}) is False


@pytest.mark.parametrize(
    ("send", "expected"),
    [
        (lambda: ready("serving 3 sessions"), b"READY=1\nSTATUS=serving 3 sessions"),
        (stopping, b"STOPPING=1"),
        (lambda: status("consolidating"), b"STATUS=consolidating"),
        (watchdog, b"WATCHDOG=1"),
    ],
    ids=["ready", "stopping", "status", "watchdog"],
)
def test_helpers_send_their_state_to_notify_socket(
    receiver: tuple[socket.socket, Path],
    monkeypatch: pytest.MonkeyPatch,
    send: Callable[[], bool],
    expected: bytes,
) -> None:
    sock, path = receiver
    monkeypatch.setenv("NOTIFY_SOCKET", str(path))
    assert send() is True
    assert sock.recv(4096) == expected


@pytest.mark.parametrize(
    ("env", "configured", "expected"),
    [
        ({"WATCHDOG_USEC": "30000000"}, 0.0, 15.0),
        ({"WATCHDOG_USEC": "30000000", "WATCHDOG_PID": str(os.getpid())}, 0.0, 15.0),
        ({"WATCHDOG_USEC": "30000000", "WATCHDOG_PID": str(os.getpid() + 1)}, 0.0, None),
        ({"WATCHDOG_USEC": "30000000"}, 5.0, 5.0),
        ({}, 5.0, 5.0),
        ({}, 0.0, None),
        ({"WATCHDOG_USEC": "0"}, 0.0, None),
        ({"WATCHDOG_USEC": "soon"}, 0.0, None),
        ({"WATCHDOG_USEC": "30000000", "WATCHDOG_PID": "me"}, 0.0, None),
    ],
    ids=[
        "half-of-usec",
        "pid-is-us",
        "pid-is-another-process",
        "configured-overrides-env",
        "configured-alone",
        "neither",
        "zero-usec",
        "malformed-usec",
        "malformed-pid",
    ],
)
def test_watchdog_interval(env: dict[str, str], configured: float, expected: float | None) -> None:
    assert watchdog_interval(env, configured) == expected


@pytest.mark.trio
async def test_run_watchdog_pings_at_start_and_every_interval(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, autojump_clock: trio.testing.MockClock
) -> None:
    path = tmp_path / "notify.sock"
    monkeypatch.setenv("NOTIFY_SOCKET", str(path))
    with trio.socket.socket(socket.AF_UNIX, socket.SOCK_DGRAM) as sock:
        await sock.bind(str(path))
        offsets = []
        async with trio.open_nursery() as nursery:
            await nursery.start(run_watchdog, 15.0)
            start = trio.current_time()
            for _ in range(3):
                assert await sock.recv(64) == b"WATCHDOG=1"
                offsets.append(trio.current_time() - start)
            nursery.cancel_scope.cancel()
    assert offsets == pytest.approx([0.0, 15.0, 30.0])


# Puts the listening socket it is given at fd 3, sets the LISTEN_* variables
# for its own pid, then execs the child so the pid systemd would name is kept.
_ACTIVATOR = """
import os, sys
fd = int(sys.argv[1])
if fd != 3:
    os.dup2(fd, 3)
    os.close(fd)
os.environ.update(LISTEN_PID=str(os.getpid()), LISTEN_FDS="1", LISTEN_FDNAMES="reverie.socket")
os.execv(sys.executable, [sys.executable, "-c", sys.argv[2]])
"""

_ACTIVATED = """
import json, os, socket
from reverie.daemon.service.systemd import listen_fds
socks = listen_fds()
report = {
    "fds": [s.fileno() for s in socks],
    "inheritable": [s.get_inheritable() for s in socks],
    "stream": [s.type == socket.SOCK_STREAM for s in socks],
    "env": sorted(name for name in os.environ if name.startswith("LISTEN_")),
}
conn, _ = socks[0].accept()
conn.sendall(b"accepted")
conn.close()
print(json.dumps(report))
"""


def test_listen_fds_takes_over_an_activated_socket(tmp_path: Path) -> None:
    path = tmp_path / "activated.sock"
    env = {name: value for name, value in os.environ.items() if not name.startswith("LISTEN_")}
    with (
        socket.socket(socket.AF_UNIX, socket.SOCK_STREAM) as listener,
        socket.socket(socket.AF_UNIX, socket.SOCK_STREAM) as client,
    ):
        listener.bind(str(path))
        listener.listen(1)
        client.settimeout(30)
        client.connect(str(path))  # waits in the backlog until the child accepts
        child = subprocess.run(
            [sys.executable, "-c", _ACTIVATOR, str(listener.fileno()), _ACTIVATED],
            pass_fds=(listener.fileno(),),
            env=env,
            capture_output=True,
            text=True,
            timeout=60,
            check=False,
        )
        assert child.returncode == 0, child.stderr
        assert client.recv(64) == b"accepted"
    report = json.loads(child.stdout)
    assert report == {"fds": [3], "inheritable": [False], "stream": [True], "env": []}


def test_listen_fds_ignores_sockets_meant_for_another_pid() -> None:
    env = {
        "LISTEN_PID": str(os.getpid() + 1),
        "LISTEN_FDS": "1",
        "LISTEN_FDNAMES": "x",
        "HOME": "/",
    }
    assert listen_fds(env) == []
    assert env == {"HOME": "/"}


@pytest.mark.parametrize(
    "env",
    [{}, {"LISTEN_FDS": "1"}, {"LISTEN_PID": "me", "LISTEN_FDS": "1"}],
    ids=["unset", "no-pid", "malformed-pid"],
)
def test_listen_fds_without_valid_activation_is_empty(env: dict[str, str]) -> None:
    assert listen_fds(env) == []
    assert env == {}


def test_peer_credentials_name_the_connecting_process() -> None:
    ours, theirs = socket.socketpair(socket.AF_UNIX, socket.SOCK_STREAM)
    with ours, theirs:
        expected = (os.getpid(), os.getuid(), os.getgid())
        assert peer_credentials(ours) == expected
        assert peer_credentials(trio.socket.from_stdlib_socket(theirs)) == expected


_OTHER_UID = os.getuid() + 1000
_GID = 5000


@pytest.mark.parametrize(
    ("uid", "allowed_uids", "allowed_gids", "allowed"),
    [
        (_OTHER_UID, [], [], True),
        (_OTHER_UID, [_OTHER_UID], [], True),
        (_OTHER_UID, [], [_GID], True),
        (_OTHER_UID, [_OTHER_UID + 1], [], False),
        (_OTHER_UID, [], [_GID + 1], False),
        (_OTHER_UID, [_OTHER_UID + 1], [_GID + 1], False),
        (os.getuid(), [_OTHER_UID], [_GID + 1], True),
    ],
    ids=[
        "no-lists-open",
        "uid-listed",
        "gid-listed",
        "uid-not-listed",
        "gid-not-listed",
        "neither-listed",
        "own-uid-always",
    ],
)
def test_check_peer(
    uid: int, allowed_uids: list[int], allowed_gids: list[int], allowed: bool
) -> None:
    assert check_peer(uid, _GID, allowed_uids=allowed_uids, allowed_gids=allowed_gids) is allowed


def test_resolve_group_by_name_and_number() -> None:
    name = grp.getgrgid(os.getgid()).gr_name
    assert resolve_group(name) == os.getgid()
    assert resolve_group("4242") == 4242


def test_resolve_group_unknown_name_is_a_config_error() -> None:
    with pytest.raises(ConfigError, match="socket_group"):
        resolve_group(f"no-such-group-{uuid.uuid4().hex[:8]}")


def _other_gid(current: int) -> int | None:
    if os.geteuid() == 0:
        return 4242 if current != 4242 else 4243
    return next((gid for gid in os.getgroups() if gid != current), None)


def test_prepare_socket_path_sets_mode_and_group(tmp_path: Path) -> None:
    path = tmp_path / "reverie.sock"
    with socket.socket(socket.AF_UNIX, socket.SOCK_STREAM) as sock:
        sock.bind(str(path))
        gid = _other_gid(path.stat().st_gid)
        if gid is None:
            pytest.skip("this user belongs to one group only; nothing to chgrp to")
        prepare_socket_path(path, mode=0o660, group=str(gid))
        info = path.stat()
    assert stat.S_ISSOCK(info.st_mode)
    assert stat.S_IMODE(info.st_mode) == 0o660
    assert info.st_gid == gid


def test_prepare_socket_path_without_group_keeps_the_group(tmp_path: Path) -> None:
    path = tmp_path / "reverie.sock"
    with socket.socket(socket.AF_UNIX, socket.SOCK_STREAM) as sock:
        sock.bind(str(path))
        before = path.stat().st_gid
        prepare_socket_path(path, mode=0o600, group="")
        info = path.stat()
    assert stat.S_IMODE(info.st_mode) == 0o600
    assert info.st_gid == before


def test_ensure_private_dir_creates_0700(tmp_path: Path) -> None:
    path = ensure_private_dir(tmp_path / "a" / "data")
    assert path.is_dir()
    assert stat.S_IMODE(path.stat().st_mode) == 0o700


def test_ensure_private_dir_tightens_our_existing_dir(tmp_path: Path) -> None:
    path = tmp_path / "data"
    path.mkdir()
    path.chmod(0o755)
    ensure_private_dir(path)
    assert stat.S_IMODE(path.stat().st_mode) == 0o700


@pytest.mark.skipif(os.geteuid() != 0, reason="needs root to own a directory as another uid")
def test_ensure_private_dir_leaves_another_users_dir_alone(tmp_path: Path) -> None:
    path = tmp_path / "data"
    path.mkdir()
    path.chmod(0o755)
    os.chown(path, _OTHER_UID, -1)
    ensure_private_dir(path)
    assert stat.S_IMODE(path.stat().st_mode) == 0o755
