"""The daemon as a system service: readiness, socket activation, modes, peers, SIGTERM."""

from __future__ import annotations

import os
import signal
import socket
import stat
import subprocess
import sys
import threading
import time
from pathlib import Path

import pytest

from reverie.daemon import Client
from tests.daemon_process import DaemonProcess
from tests.fakellm import FakeLLM, hold


def _notifications(sock: socket.socket, until: str, timeout: float = 30.0) -> list[str]:
    sock.settimeout(timeout)
    seen: list[str] = []
    while not any(until in s for s in seen):
        seen.append(sock.recv(4096).decode())
    return seen


def test_ready_only_once_accepting_and_watchdog_pings(tmp_path: Path) -> None:
    notify_path = tmp_path / "notify.sock"
    with socket.socket(socket.AF_UNIX, socket.SOCK_DGRAM) as notify:
        notify.bind(str(notify_path))
        daemon = DaemonProcess(
            tmp_path,
            env={"NOTIFY_SOCKET": str(notify_path), "REVERIE_DAEMON__WATCHDOG_INTERVAL": "0.2"},
        )
        daemon.proc = subprocess.Popen(
            [
                sys.executable,
                "-m",
                "reverie.daemon",
                "serve",
                "--data-dir",
                str(daemon.data_dir),
                "--socket",
                str(daemon.socket),
            ],
            env=daemon.env,
            stderr=subprocess.DEVNULL,
        )
        try:
            seen = _notifications(notify, "READY=1")
            # At READY the socket must already accept and answer.
            with Client(daemon.socket) as client:
                assert client.hello().version == 1
            start = time.monotonic()
            pings = [s for s in _notifications(notify, "WATCHDOG=1") if "WATCHDOG=1" in s]
            while len(pings) < 5:
                pings += [s for s in _notifications(notify, "WATCHDOG=1") if "WATCHDOG=1" in s]
            elapsed = time.monotonic() - start
            # Paced at the interval, not a burst (a slow machine only makes them later; that
            # they come at all is the 30 s receive timeout above).
            assert elapsed > 0.4
            assert any("STATUS=" in s for s in seen)
            assert daemon.stop() == 0
            assert any("STOPPING=1" in s for s in _notifications(notify, "STOPPING=1"))
        finally:
            if daemon.proc.poll() is None:
                daemon.proc.kill()


def test_socket_activation_serves_on_the_passed_socket(tmp_path: Path) -> None:
    path = tmp_path / "activated.sock"
    listener = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
    listener.bind(str(path))
    listener.listen(16)
    wrapper = (
        "import os, sys; os.dup2(int(sys.argv[1]), 3); os.environ['LISTEN_FDS'] = '1'; "
        "os.environ['LISTEN_PID'] = str(os.getpid()); os.execv(sys.executable, [sys.executable, *sys.argv[2:]])"
    )
    data = tmp_path / "data"
    proc = subprocess.Popen(
        [
            sys.executable,
            "-c",
            wrapper,
            str(listener.fileno()),
            "-m",
            "reverie.daemon",
            "serve",
            "--data-dir",
            str(data),
            "--socket",
            str(tmp_path / "unused.sock"),
        ],
        pass_fds=[listener.fileno()],
        stderr=subprocess.DEVNULL,
    )
    listener.close()
    try:
        with Client(path) as client:
            assert client.append("activated", "user", "through fd 3").seq == 1
            assert [m.content for m in client.history("activated")] == ["through fd 3"]
        assert not (tmp_path / "unused.sock").exists()
    finally:
        proc.send_signal(signal.SIGTERM)
        assert proc.wait(30) == 0
    assert path.exists(), "the activated socket belongs to systemd and must not be removed"


def test_socket_and_data_dir_modes(daemon: DaemonProcess) -> None:
    assert stat.S_IMODE(daemon.socket.stat().st_mode) == 0o600
    assert stat.S_IMODE(daemon.data_dir.stat().st_mode) == 0o700


@pytest.mark.skipif(os.geteuid() != 0, reason="needs root to connect as another uid")
def test_peer_not_allowed_gets_unauthorized(make_daemon) -> None:
    daemon: DaemonProcess = make_daemon(
        config="[daemon]\nsocket_mode = 0o666\nallowed_gids = [4242]\n"
    )
    assert daemon.status_as_nobody() == "refused unauthorized"
    with daemon.client() as client:  # our own uid is always allowed
        assert client.status().errors.get("unauthorized", 0) >= 1  # the client may retry once


def test_sigterm_while_clients_append_exits_0_and_keeps_every_ack(
    make_daemon, fake_llm: FakeLLM
) -> None:
    config = (
        "[consolidation]\nidle_after = 0.2\nbudget_tokens = 10\ntarget_tokens = 1\n"
        f'[llm]\nbase_url = "{fake_llm.base_url}"\nmodel = "fake"\n'
    )
    daemon: DaemonProcess = make_daemon(config=config)
    fake_llm.script(hold())  # the consolidation is in the middle of its LLM call at SIGTERM
    with daemon.client() as client:
        client.append("c", "user", "a long enough message to be over the tiny budget")
        client.append("c", "assistant", "and a long enough answer to go with it")
    deadline = time.monotonic() + 30
    while fake_llm.in_flight != 1:
        assert time.monotonic() < deadline, "the consolidation never reached the LLM"
        time.sleep(0.05)
    acked: list[tuple[str, str]] = []
    stop = threading.Event()

    def writer(n: int) -> None:
        with Client(daemon.socket) as client:
            i = 0
            while not stop.is_set():
                try:
                    ack = client.append(f"t{n}", "user", f"m{i}", id=f"t{n}-{i}")
                except Exception:
                    return
                acked.append((f"t{n}", ack.id))
                i += 1

    threads = [threading.Thread(target=writer, args=(n,)) for n in range(32)]
    for t in threads:
        t.start()
    stop.wait(1.0)  # let them append for a moment
    assert daemon.stop() == 0
    stop.set()
    for t in threads:
        t.join()
    fake_llm.release()
    daemon.start()
    with daemon.client() as client:
        stored = {(f"t{n}", m.id) for n in range(32) for m in client.history(f"t{n}", limit=1000)}
        deadline = time.monotonic() + 30
        while not client.memory("session/c").entries:  # the interrupted job was requeued and done
            assert time.monotonic() < deadline, client.status().consolidation
            time.sleep(0.05)
        assert len(client.memory("session/c").entries) == 1
        assert client.context("c").messages == []
    assert len(acked) > 0
    assert set(acked) <= stored
