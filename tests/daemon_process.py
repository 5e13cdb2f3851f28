"""A real reverie daemon in a subprocess, for tests: start, wait ready, kill, restart."""

from __future__ import annotations

import os
import resource
import signal
import subprocess
import sys
import time
from pathlib import Path

from reverie.daemon import Client, ConnectionLost
from reverie.daemon.protocol import Hello

READY_DEADLINE = 120.0  # a bound, not a timing: a start after kill -9 on a loaded machine took 28 s


class DaemonProcess:
    """``reverie serve`` on a socket under ``root``; the process is ours to kill."""

    def __init__(
        self,
        root: Path,
        env: dict[str, str] | None = None,
        config: str | None = None,
        open_files: int | None = None,
    ) -> None:
        self.root = root
        self.open_files = open_files  # the daemon's RLIMIT_NOFILE, soft and hard (None: ours)
        self.data_dir = root / "data"
        self.socket = root / "reverie.sock"
        self.log_path = root / "daemon.log"
        self.env = {**os.environ, **(env or {})}
        self.config_path: Path | None = None
        if config is not None:
            self.config_path = root / "reverie.toml"
            self.config_path.write_text(config)
        self.proc: subprocess.Popen[bytes] | None = None

    def _limit_open_files(self) -> None:
        if self.open_files is not None:
            resource.setrlimit(resource.RLIMIT_NOFILE, (self.open_files, self.open_files))

    def start(self) -> DaemonProcess:
        cmd = [
            sys.executable,
            "-m",
            "reverie.daemon",
            "serve",
            "--data-dir",
            str(self.data_dir),
            "--socket",
            str(self.socket),
        ]
        if self.config_path is not None:
            cmd += ["--config", str(self.config_path)]
        log = self.log_path.open("ab")
        self.proc = subprocess.Popen(
            cmd, stdout=log, stderr=log, env=self.env, preexec_fn=self._limit_open_files
        )
        log.close()
        self.wait_ready()
        return self

    def wait_ready(self) -> None:
        """Poll until the daemon answers ``hello``, within a deadline."""
        deadline = time.monotonic() + READY_DEADLINE
        while True:
            assert self.proc is not None
            if self.proc.poll() is not None:
                raise RuntimeError(f"daemon exited with {self.proc.returncode}:\n{self.log()}")
            try:
                with Client(self.socket, timeout=5) as client:
                    client._roundtrip(Hello(rid=1))  # one try, no reconnect loop
                return
            except (ConnectionLost, OSError):
                if time.monotonic() > deadline:
                    raise RuntimeError(
                        f"daemon not ready after {READY_DEADLINE}s:\n{self.log()}"
                    ) from None
                time.sleep(0.02)

    def running(self) -> bool:
        return self.proc is not None and self.proc.poll() is None

    def log(self) -> str:
        return self.log_path.read_text(errors="replace") if self.log_path.exists() else ""

    def kill9(self) -> None:
        assert self.proc is not None
        self.proc.send_signal(signal.SIGKILL)
        self.proc.wait()

    def stop(self, timeout: float = 20.0) -> int:
        """SIGTERM, then SIGKILL after ``timeout``; returns the exit code."""
        if self.proc is None or self.proc.poll() is not None:
            return self.proc.returncode if self.proc else 0
        self.proc.send_signal(signal.SIGTERM)
        try:
            return self.proc.wait(timeout)
        except subprocess.TimeoutExpired:
            self.proc.kill()
            self.proc.wait()
            raise

    def restart(self) -> DaemonProcess:
        self.stop()
        return self.start()

    def status_as_nobody(self) -> str:
        """Ask for ``status`` as uid/gid 65534 (needs root): "allowed" or "refused <code>"."""
        for directory in [self.root, *self.root.parents]:  # let uid 65534 reach the socket
            if directory == Path("/tmp"):
                break
            os.chmod(directory, directory.stat().st_mode | 0o011)
        code = (
            "import os, sys\n"
            "from reverie.daemon import Client\n"
            "from reverie.config import Unauthorized\n"
            "os.setgid(65534); os.setuid(65534)\n"
            "try:\n    Client(sys.argv[1]).status()\n    print('allowed')\n"
            "except Unauthorized as e:\n    print('refused', e.code)\n"
        )
        out = subprocess.run(
            [sys.executable, "-c", code, str(self.socket)],
            capture_output=True,
            text=True,
            timeout=60,
        )
        return out.stdout.strip() or out.stderr

    def client(self, timeout: float | None = 60.0) -> Client:
        return Client(self.socket, timeout=timeout)
