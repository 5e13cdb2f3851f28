"""The daemon's lifetime: open the store, start the actors, listen, stop gracefully.

Start order: data dir (0700), its lock (one daemon per data dir), the
socket (bound, a live daemon's refused, a stale one replaced, any other
file refused and left alone; nothing is accepted yet), the database (migrations
run before anything is served), the session registry, then serving; "ready"
is logged only once connections are accepted. The search index opens in the
background meanwhile (docs/design.md, "Start-up"). On SIGTERM or SIGINT: stop
accepting, let in-flight requests and mailboxes drain within
``grace_seconds``, flush the writer thread, exit 0.
"""

from __future__ import annotations

import dataclasses
import errno
import gc
import logging
import os
import signal
import socket as stdsocket
import stat
from collections.abc import AsyncIterator, Callable
from pathlib import Path

import httpx
import trio

from reverie.actors import (
    Duty,
    Forgetter,
    HookChain,
    MemoryKeeper,
    MemoryWatcher,
    ScopeRegistry,
    Services,
    SessionHooks,
    SessionRegistry,
    Supervisor,
    job_runners,
)
from reverie.actors.search import Indexer
from reverie.config import Config, ConfigError
from reverie.store import (
    Clock,
    Store,
    StoreError,
    StoreReadOnly,
    TokenCounter,
    Tx,
    make_embedder,
    open_store,
    tune_allocator,
)

from .connection import Ledger
from .membership import Membership
from .metrics_http import parse_listen, serve_metrics
from .ops import Handlers
from .ops.search import SearchHandlers
from .ops.working_memory import WorkingMemoryHandlers
from .reload import Reloader
from .server import Server
from .service import systemd
from .service.datadir_lock import DataDirLock
from .service.open_files import raise_open_files_limit
from .version import package_version

__all__ = ["Running", "package_version", "run_daemon", "serve"]

log = logging.getLogger(__name__)


def _is_socket(path: Path) -> bool:
    try:
        return stat.S_ISSOCK(path.lstat().st_mode)
    except FileNotFoundError:
        return False


def _bind(path: Path, mode: int, group: str) -> trio.SocketListener:
    """Listen on a Unix socket at ``path``, replacing a stale one, created with ``mode``.

    Only a socket is ever replaced: any other file at ``path`` (a typo that
    names the database) is refused and left as it is.
    """
    path.parent.mkdir(parents=True, exist_ok=True)
    if path.is_symlink() or (path.exists() and not _is_socket(path)):
        raise ConfigError(
            f"{path} exists and is not a socket; pass another --socket (reverie replaces only "
            "a stale socket of its own)"
        )
    probe = stdsocket.socket(stdsocket.AF_UNIX, stdsocket.SOCK_STREAM)
    try:
        probe.connect(str(path))
    except (FileNotFoundError, ConnectionRefusedError):
        if _is_socket(path):
            path.unlink()
    else:
        raise ConfigError(
            f"another daemon is already listening on {path}; stop it or pass another --socket"
        )
    finally:
        probe.close()
    sock = stdsocket.socket(stdsocket.AF_UNIX, stdsocket.SOCK_STREAM)
    old = os.umask(0o777 & ~mode)
    try:
        sock.bind(str(path))
    finally:
        os.umask(old)
    systemd.prepare_socket_path(path, mode=mode, group=group)
    sock.listen(1024)
    return trio.SocketListener(trio.socket.from_stdlib_socket(sock))


def _listeners(config: Config) -> tuple[list[trio.SocketListener], bool]:
    """Sockets passed by systemd (socket activation), else our own bound socket."""
    activated = systemd.listen_fds()
    if activated:
        return [trio.SocketListener(trio.socket.from_stdlib_socket(s)) for s in activated], True
    daemon = config.daemon
    return [_bind(config.socket_path, daemon.socket_mode, daemon.socket_group)], False


def _prepare_data_dir(config: Config) -> Path:
    try:
        return systemd.ensure_private_dir(config.data_path)
    except OSError as exc:  # a read-only or foreign data dir: one line that says what to do
        error = (
            StoreReadOnly if exc.errno in (errno.EROFS, errno.EACCES, errno.EPERM) else StoreError
        )
        raise error(
            f"cannot prepare data directory {config.data_path}: {exc.strerror}; "
            "make it writable (remount read-write, fix its owner) or pass another --data-dir"
        ) from exc


async def run_daemon(config: Config, reload: Callable[[], Config] | None = None) -> None:
    """Run until SIGTERM/SIGINT; returns after a graceful stop.

    ``reload`` rebuilds the configuration from the sources it came from;
    SIGHUP reloads the live keys with it (see ``reload.py``). A signal that
    arrives while the daemon starts is acted on once it is ready.
    """
    with (
        trio.open_signal_receiver(signal.SIGTERM, signal.SIGINT) as stops,
        trio.open_signal_receiver(signal.SIGHUP) as hangups,
    ):
        async with trio.open_nursery() as nursery:
            running: Running = await nursery.start(serve, config, reload)
            nursery.start_soon(_reload_on_hangups, hangups, running)
            async for signum in stops:
                log.info("received %s: stopping", signal.Signals(signum).name)
                break
            await running.stop()
            nursery.cancel_scope.cancel()  # the reloads; serve closes what it opened, shielded


async def _reload_on_hangups(hangups: AsyncIterator[int], running: Running) -> None:
    async for _ in hangups:
        await running.reload()


class Running:
    """A daemon that is serving: what ``serve`` hands to ``task_status.started``."""

    def __init__(
        self,
        server: Server,
        registry: SessionRegistry,
        reloader: Reloader,
        grace: float,
        scope: trio.CancelScope,
    ) -> None:
        self._server = server
        self._registry = registry
        self._reloader = reloader
        self._grace = grace
        self._scope = scope

    async def reload(self) -> list[str] | None:
        """SIGHUP's reload of the live keys (``reload.py``)."""
        return await self._reloader.reload()

    async def stop(self) -> None:
        """The graceful stop: accept nothing more, drain the mailboxes within the grace, then
        end ``serve`` (which closes the store)."""
        systemd.stopping()
        self._server.stop_accepting()
        await _drain(self._registry, self._grace)
        self._scope.cancel()


async def serve(
    config: Config,
    reload: Callable[[], Config] | None = None,
    *,
    task_status: trio.TaskStatus[Running] = trio.TASK_STATUS_IGNORED,
) -> None:
    """Serve until cancelled (trio's ``serve_listeners`` pattern), with no signal handling.

    ``task_status.started`` receives a ``Running`` once connections are accepted;
    its ``stop`` is the graceful stop, a bare cancellation the abrupt one. The
    store, the socket and the data dir's lock are released either way. The
    data dir's lock and the socket are taken before any state is opened: a
    second daemon on the same data dir, or on a socket a live daemon serves,
    stops having touched nothing. ``run_daemon`` adds the signals; tests run
    this in their own nursery (tests/inprocess.py).
    """
    raise_open_files_limit(config.daemon.max_connections)
    tune_allocator()  # before any thread: each would otherwise grow an arena of its own
    if config.daemon.metrics_listen:
        parse_listen(config.daemon.metrics_listen)  # a typo stops the start, before any work
    data_dir = _prepare_data_dir(config)
    # tiktoken copies even a local BPE file into a cache, /tmp/data-gym-cache by
    # default: keep it in the data dir (an explicit setting still wins).
    os.environ.setdefault("TIKTOKEN_CACHE_DIR", str(data_dir / "cache" / "tiktoken"))
    lock = DataDirLock(data_dir)
    lock.acquire()
    try:
        listeners, activated = _listeners(config)
        try:
            await _serve(
                config, reload or (lambda: config), data_dir, listeners, activated, task_status
            )
        finally:
            with trio.CancelScope(shield=True):
                for listener in listeners:
                    await listener.aclose()
            if not activated and _is_socket(config.socket_path):
                config.socket_path.unlink()
    finally:
        lock.release()


async def _serve(
    config: Config,
    reload: Callable[[], Config],
    data_dir: Path,
    listeners: list[trio.SocketListener],
    activated: bool,
    task_status: trio.TaskStatus[Running],
) -> None:
    """Open the store, start the actors, serve ``listeners`` until cancelled."""
    store = open_store(config.store, data_dir, config.cluster)
    db, memory = store.db, store.memory
    await store.open()
    shared = Services(config=config, db=db, tokens=TokenCounter(config.consolidation.tokenizer))
    http = httpx.AsyncClient(timeout=httpx.Timeout(config.llm.timeout, connect=10.0))
    indexer = (
        Indexer(
            shared,
            memory,
            lambda: make_embedder(config.embeddings, models_dir=data_dir / "models"),
            store.open_index,
        )
        if config.index.enabled
        else None
    )
    keeper = MemoryKeeper(memory, indexer or SessionHooks())
    # On a shared store the workers may take the idle sessions alone (docs/scale-out.md).
    leave_to_workers = store.leases is not None and config.consolidation.leave_to_workers
    if config.consolidation.leave_to_workers and not leave_to_workers:
        log.warning("consolidation.leave_to_workers ignored: the store is not a shared one")
    supervisor = Supervisor(shared, http, leave_to=store.leases if leave_to_workers else None)
    hooks = supervisor if indexer is None else HookChain(supervisor, indexer)
    services = dataclasses.replace(shared, hooks=hooks, memory=keeper)
    registry = SessionRegistry(services)
    workers, due_scan = job_runners(services, supervisor.queue, keeper, registry, store.leases)
    scopes = ScopeRegistry(shared, Clock.from_env(), _sweep_duty(store))
    wm = WorkingMemoryHandlers(scopes)
    forgetter = Forgetter(shared, keeper, indexer, store.drop_index)
    watcher = MemoryWatcher(keeper)
    reloader = Reloader(config, reload)
    membership = (
        None
        if store.cluster is None
        else Membership(
            store.cluster, "daemon", "systemd" if activated else str(config.socket_path)
        )
    )
    ledger = Ledger()  # the server counts into it, status reads it
    handlers = Handlers(
        services,
        registry,
        supervisor,
        keeper,
        package_version(),
        wm=wm,
        forgetter=forgetter,
        watcher=watcher,
        search=SearchHandlers(indexer, min_score=config.index.min_score),
        reloader=reloader,
        ledger=ledger,
        membership=membership,
        backup=store.backup,
    )
    server = Server(config, handlers, ledger)
    try:
        async with trio.open_nursery() as nursery:
            if membership is not None:
                await nursery.start(membership.run)
            await nursery.start(registry.run)
            await nursery.start(supervisor.run)
            await nursery.start(workers.run)
            if due_scan is not None and not leave_to_workers:
                await nursery.start(due_scan.run)
            await nursery.start(scopes.run)
            if indexer is not None:
                await nursery.start(indexer.run)
            await nursery.start(forgetter.run)
            await nursery.start(watcher.run)
            await nursery.start(server.serve, listeners)
            if config.daemon.metrics_listen:
                await nursery.start(serve_metrics, config.daemon.metrics_listen, handlers.status)
            # Start-up's objects (modules, LanceDB's and Arrow's once the index opens:
            # ~140,000) go to the permanent generation. Requests in flight are promoted
            # to the oldest generation at every tenth young collection, so under load a
            # full collection ran every ~1.6 s and scanned them all each time (~95 ms):
            # about 20 µs of the event loop's CPU per append at 64 clients.
            gc.freeze()
            if indexer is not None:
                nursery.start_soon(_freeze_when_open, indexer)
            where = "sockets from systemd" if activated else str(config.socket_path)
            log.info("ready: listening on %s (data in %s)", where, store.where)
            systemd.ready(f"listening on {where}")
            interval = systemd.watchdog_interval(configured=config.daemon.watchdog_interval)
            if interval is not None:
                await nursery.start(systemd.run_watchdog, interval)
            task_status.started(
                Running(
                    server, registry, reloader, config.daemon.grace_seconds, nursery.cancel_scope
                )
            )
    finally:
        with trio.CancelScope(shield=True):  # cancelled or not, the writer thread is flushed
            await http.aclose()
            await store.close()
        log.info("stopped")


async def _freeze_when_open(indexer: Indexer) -> None:
    """``gc.freeze`` again once the index has opened (in the background, after the
    start's): LanceDB's modules are most of the objects the freeze is for."""
    await indexer.wait_open()
    gc.freeze()


def _sweep_duty(store: Store) -> Duty | None:
    """On a database daemons share, the TTL sweep is a duty one of them holds at a time."""
    cluster = store.cluster
    if cluster is None:
        return None
    every = 3 * cluster.owner_ttl
    return Duty(
        lambda: cluster.take_duty("wm-sweep", 2 * every),
        lambda: store.db.read(Tx.expiring_keys),
        every,
    )


async def _drain(registry: SessionRegistry, grace: float) -> None:
    """Wait (bounded) until no session mailbox holds a request."""
    with trio.move_on_after(grace):
        while registry.mailbox_depths():
            await trio.sleep(0.01)
