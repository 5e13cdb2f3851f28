"""``reverie worker`` in a subprocess, for the cluster tests: start, wait ready, kill, stop."""

from __future__ import annotations

import signal
import subprocess
import sys
from pathlib import Path

from tests.checks import poll
from tests.daemon_process import READY_DEADLINE

__all__ = ["WorkerProcess"]

_READY = "ready: consolidating"


class WorkerProcess:
    """``reverie worker`` against ``url``, its log under ``root``; ours to kill."""

    def __init__(self, root: Path, url: str, config: str) -> None:
        root.mkdir(parents=True, exist_ok=True)
        self.log_path = root / "worker.log"
        self.config_path = root / "reverie.toml"
        self.config_path.write_text(config)
        self.url = url
        self.proc: subprocess.Popen[bytes] | None = None

    def start(self) -> WorkerProcess:
        """Start it (again: after a kill, the log goes on) and wait until it is ready."""
        cmd = [sys.executable, "-m", "reverie.daemon", "worker", "--store", self.url]
        cmd += ["--config", str(self.config_path)]
        readies = self._text().count(_READY)
        with self.log_path.open("ab") as log:
            self.proc = subprocess.Popen(cmd, stdout=log, stderr=log)
        poll(lambda: self.log().count(_READY) > readies, READY_DEADLINE, "worker ready")
        return self

    def kill9(self) -> None:
        assert self.proc is not None
        self.proc.send_signal(signal.SIGKILL)
        self.proc.wait()

    def log(self) -> str:
        assert self.proc is not None
        if self.proc.poll() is not None:
            raise AssertionError(f"worker exited with {self.proc.returncode}:\n{self._text()}")
        return self._text()

    def _text(self) -> str:
        return self.log_path.read_text(errors="replace") if self.log_path.exists() else ""

    def stop(self) -> None:
        if self.proc is not None and self.proc.poll() is None:
            self.proc.send_signal(signal.SIGTERM)
            try:
                self.proc.wait(20)
            except subprocess.TimeoutExpired:
                self.proc.kill()
                self.proc.wait()
