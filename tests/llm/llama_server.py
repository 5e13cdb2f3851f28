"""A real llama.cpp server on loopback, for the consolidation loop's tests and ``bench kvcache``.

``make llm-build`` builds ``llama-server`` and unpacks the model, and ``make
test``/``make test-llm`` name both in ``REVERIE_LLAMA_SERVER`` and
``REVERIE_LLAMA_MODEL``; without them these tests are skipped (a plain
``pytest`` run on a machine that never built the server). The server gets
2 slots and 2 threads, like the ``make llm`` one.
"""

from __future__ import annotations

import os
import socket
import subprocess
import time
from pathlib import Path
from typing import Any, Self

import httpx

__all__ = ["LlamaServer", "configured"]

READY_SECONDS = 180.0


def configured() -> tuple[Path, Path] | None:
    """The server binary and the model file ``make`` named, or None."""
    binary, model = os.environ.get("REVERIE_LLAMA_SERVER"), os.environ.get("REVERIE_LLAMA_MODEL")
    if not binary or not model:
        return None
    return Path(binary), Path(model)


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        port: int = s.getsockname()[1]
        return port


class LlamaServer:
    """``llama-server`` serving one model on ``127.0.0.1:port``; ``kill`` and ``start`` again."""

    def __init__(self, binary: Path, model: Path, log: Path, *, context: int = 8192) -> None:
        self.binary, self.model, self.log_path = binary, model, log
        self.context = context
        self.port = _free_port()
        self.process: subprocess.Popen[bytes] | None = None

    @property
    def base_url(self) -> str:
        return f"http://127.0.0.1:{self.port}/v1"

    def start(self) -> Self:
        """Start the server and wait until it has loaded the model (``/health`` answers 200)."""
        args = [str(self.binary), "-m", str(self.model), "--host", "127.0.0.1"]
        args += ["--port", str(self.port), "-c", str(self.context), "-np", "2", "-t", "2"]
        env = {**os.environ, "LD_LIBRARY_PATH": str(self.binary.parent)}
        with self.log_path.open("ab") as log:
            self.process = subprocess.Popen(args, stdout=log, stderr=subprocess.STDOUT, env=env)
        deadline = time.monotonic() + READY_SECONDS
        while not self._healthy():
            if self.process.poll() is not None:
                raise RuntimeError(f"llama-server exited; see {self.log_path}")
            if time.monotonic() > deadline:
                raise RuntimeError(
                    f"llama-server not ready in {READY_SECONDS:g}s; see {self.log_path}"
                )
            time.sleep(0.2)
        return self

    def _healthy(self) -> bool:
        try:
            return httpx.get(f"http://127.0.0.1:{self.port}/health", timeout=2).status_code == 200
        except httpx.HTTPError:
            return False

    def kill(self) -> None:
        """SIGKILL, as a crash or an OOM kill would end it."""
        if self.process is not None:
            self.process.kill()
            self.process.wait()
            self.process = None

    def stop(self) -> None:
        if self.process is not None:
            self.process.terminate()
            try:
                self.process.wait(timeout=10)
            except subprocess.TimeoutExpired:
                self.kill()
            self.process = None

    def tokens(self, text: str) -> int:
        """How many tokens the model's tokenizer makes of ``text``."""
        reply = httpx.post(f"http://127.0.0.1:{self.port}/tokenize", json={"content": text})
        found: list[Any] = reply.json()["tokens"]
        return len(found)

    def slot_busy(self) -> bool:
        """Whether a slot is processing a request now."""
        reply = httpx.get(f"http://127.0.0.1:{self.port}/slots", timeout=5)
        return any(slot.get("is_processing") for slot in reply.json())
