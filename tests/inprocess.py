"""The real daemon inside the test process: ``reverie.daemon.app.serve`` on a real socket.

A subprocess daemon costs its interpreter and its imports (LanceDB's alone
is 4-5 s on a loaded machine) at every start; this one pays them once per
test session. It is the same code on the same kind of socket and store, so
a test that only talks to a daemon through a client runs here. A test whose
point is the process itself (kill -9, signals, exit codes, the ready line,
the CLI's ``serve``, open-file limits, systemd, the environment read at run
time) keeps ``DaemonProcess`` (tests/daemon_process.py).

Each fresh data dir would make the embedding model's int8 rewrite again
(``store/embed/model_file.py``: a child process importing ``onnx``, 5-15 s
under load, which a stop then waits for); a daemon given ``model`` (the
rewrite made once for the session) starts on a data dir that already holds
it, as every daemon's second start does. The rewrite itself stays checked
by the subprocess daemons and tests/store/test_int8_weights.py.

What the daemon does to its whole process it does to the tests' here: it
raises the open-files limit and tunes malloc (both harmless to a test), sets
the umask while it binds its socket (for a few microseconds), pages out code
when its index is idle, and sets ``TIKTOKEN_CACHE_DIR`` and ``gc.freeze()``
(both undone by ``start`` and ``stop``). SQLite's locks belong to a process:
a test that holds a reader on the daemon's database to block it needs a
process daemon.

Blocking tests get the daemon on a thread of its own running ``trio.run``;
trio tests start it in their own nursery (``serve_in``). Either way a daemon
that crashes fails the test: its client calls fail, and ``stop`` raises the
daemon's error.
"""

from __future__ import annotations

import contextlib
import gc
import os
import shutil
import threading
from pathlib import Path
from typing import Any

import trio

from reverie.config import Config, load_config
from reverie.daemon import Client
from reverie.daemon.app import Running, serve

READY_DEADLINE = 120.0  # generous: the first start of a session imports the store's engines
STOP_DEADLINE = 60.0


def _config_only(env: dict[str, str]) -> dict[str, str]:
    """``env`` if every name in it is a configuration key (``REVERIE_SECTION__KEY``).

    Anything else is read from ``os.environ`` while the daemon runs (a test clock,
    a forget hold, an API key), which a daemon sharing the test's process cannot
    have of its own: such a test needs ``DaemonProcess``.
    """
    for name in env:
        if not (name.startswith("REVERIE_") and "__" in name):
            raise TypeError(f"{name} is read at run time: use a subprocess daemon (make_daemon)")
    return env


class InProcessDaemon:
    """``serve`` on ``root/reverie.sock`` with its data in ``root/data``, in this process."""

    def __init__(
        self,
        root: Path,
        env: dict[str, str] | None = None,
        config: str | None = None,
        model: Path | None = None,
    ) -> None:
        self.root = root
        self.model = model  # the embedding model's rewrite, to be found in the data dir
        self.data_dir = root / "data"
        self.socket = root / "reverie.sock"
        self.env = {**os.environ, **_config_only(env or {})}
        self.config_path: Path | None = None
        if config is not None:
            self.config_path = root / "reverie.toml"
            self.config_path.write_text(config)
        self._thread: threading.Thread | None = None
        self._token: trio.lowlevel.TrioToken | None = None
        self._running: Running | None = None
        self._ready = threading.Event()
        self._error: BaseException | None = None

    def config(self) -> Config:
        """What ``reverie serve --data-dir --socket [--config]`` would run with."""
        overrides: dict[str, dict[str, Any]] = {
            "daemon": {"data_dir": str(self.data_dir), "socket": str(self.socket)}
        }
        return load_config(self.config_path, env=self.env, overrides=overrides)

    # -- a blocking test: the daemon on a thread of its own -----------------------------
    def start(self) -> InProcessDaemon:
        """Serve on a new thread; return once it accepts connections."""
        config = self.config()
        self._seed_model()
        self._ready.clear()
        self._error = None
        self._thread = threading.Thread(
            target=self._run, args=(config,), name=f"reverie-daemon {self.root.name}", daemon=True
        )
        tiktoken_cache = os.environ.get("TIKTOKEN_CACHE_DIR")
        self._thread.start()
        ready = self._ready.wait(READY_DEADLINE)
        if tiktoken_cache is None:  # serve sets it for its process: not for the tests after
            os.environ.pop("TIKTOKEN_CACHE_DIR", None)
        if self._error is not None:
            raise RuntimeError(f"in-process daemon failed to start: {self._error!r}") from (
                self._error
            )
        if not ready:
            raise RuntimeError(f"in-process daemon not ready after {READY_DEADLINE}s")
        return self

    def _seed_model(self) -> None:
        """A new data dir with the model's rewrite in ``models/`` (a hard link) and an empty
        ``reverie.toml``: a data dir holding none of reverie's files is refused."""
        if self.model is None or self.data_dir.exists():
            return
        models = self.data_dir / "models"
        models.mkdir(parents=True)
        self.data_dir.chmod(0o700)
        (self.data_dir / "reverie.toml").touch()
        try:
            os.link(self.model, models / self.model.name)
        except OSError:  # another file system
            shutil.copyfile(self.model, models / self.model.name)

    def _run(self, config: Config) -> None:
        async def main() -> None:
            self._token = trio.lowlevel.current_trio_token()
            async with trio.open_nursery() as nursery:
                self._running = await nursery.start(serve, config)
                self._ready.set()

        try:
            trio.run(main)
        except BaseException as exc:  # handed to the test by start and stop
            self._error = exc
        finally:
            self._ready.set()

    def stop(self) -> int:
        """The graceful stop (as SIGTERM's); raises what the daemon raised if it crashed."""
        thread = self._thread
        if thread is None:
            return 0
        if thread.is_alive() and self._running is not None and self._token is not None:
            with contextlib.suppress(trio.RunFinishedError):  # it ended by itself: a crash
                trio.from_thread.run(self._running.stop, trio_token=self._token)
        thread.join(STOP_DEADLINE)
        self._thread = None
        # serve's gc.freeze() took every object of this process out of the collector's reach:
        # give the earlier tests' garbage back to it, or a session of daemons would keep it.
        gc.unfreeze()
        if thread.is_alive():
            raise RuntimeError(f"in-process daemon did not stop within {STOP_DEADLINE}s")
        if self._error is not None:
            raise RuntimeError(f"in-process daemon crashed: {self._error!r}") from self._error
        return 0

    def running(self) -> bool:
        return self._thread is not None and self._thread.is_alive()

    def restart(self) -> InProcessDaemon:
        self.stop()
        return self.start()

    def client(self) -> Client:
        return Client(self.socket)

    # -- a trio test: the daemon in the test's nursery ----------------------------------
    async def serve_in(self, nursery: trio.Nursery) -> Running:
        """Start serving as a task of ``nursery``; cancel it (or ``stop`` the result) to end."""
        self._seed_model()
        return await nursery.start(serve, self.config())
