"""The daemon's own operations: hello, status, metrics and backup.

``status`` gathers every component's state for a person or a monitor
(never secrets); ``metrics`` is the same data as Prometheus text. A backup
runs one at a time: each holds the memory tree still while it copies.
"""

from __future__ import annotations

import logging
import os
import time
from collections import Counter
from collections.abc import Awaitable, Callable
from pathlib import Path
from typing import TYPE_CHECKING

import msgspec
import trio

from reverie.actors import (
    Forgetter,
    MemoryKeeper,
    MemoryWatcher,
    ScopeRegistry,
    Services,
    SessionRegistry,
    Supervisor,
)
from reverie.store import BackupInfo, Tx, heap_usage

from .. import protocol as p
from ..membership import Membership
from ..metrics import render_metrics
from ..reload import Reloader
from ..service.process_stats import process_stats
from .calls import Replier, run
from .cluster import cluster_status
from .search import SearchHandlers

if TYPE_CHECKING:  # the connection module needs ops.calls: a run-time import would loop
    from ..connection import Ledger

__all__ = ["ADMIN_REQUESTS", "AdminOps", "Backup"]

ADMIN_REQUESTS = (p.Hello, p.Status, p.Metrics, p.Backup)
#: Copies the store into a new data dir while the daemon serves (``Store.backup``).
Backup = Callable[[Path], Awaitable[BackupInfo]]


class AdminOps:
    """The daemon's own operations; ``errors`` counts the error replies sent, by code."""

    def __init__(
        self,
        services: Services,
        registry: SessionRegistry,
        scopes: ScopeRegistry,
        supervisor: Supervisor,
        memory: MemoryKeeper,
        version: str,
        *,
        forgetter: Forgetter,
        watcher: MemoryWatcher,
        search: SearchHandlers,
        reloader: Reloader | None,
        ledger: Ledger,
        membership: Membership | None = None,
        backup: Backup,
    ) -> None:
        self.services = services
        self.registry = registry
        self.scopes = scopes
        self.supervisor = supervisor
        self.memory = memory
        self.version = version
        self.forgetter = forgetter
        self.watcher = watcher
        self.search = search
        self.reloader = reloader
        self.membership = membership
        self.backup = backup
        self.started = time.time()
        #: The connections open now and the reply bytes held for them; the server counts.
        self.ledger = ledger
        self.errors: Counter[str] = Counter()
        self._backups = trio.Lock()  # one backup at a time: each holds the memory tree still

    async def dispatch(self, request: p.Request, replier: Replier, nursery: trio.Nursery) -> None:
        rid = request.rid
        match request:
            case p.Hello():
                replier(rid, lambda _: self._hello(rid))(None)
            case p.Status():
                reply = replier(rid, lambda s: p.StatusReply(rid=rid, status=s))
                nursery.start_soon(run, reply, self.status)
            case p.Metrics():
                reply = replier(rid, lambda t: p.MetricsReply(rid=rid, text=t))
                nursery.start_soon(run, reply, self._metrics)
            case p.Backup(dest=dest):
                reply = replier(rid, lambda b: p.BackupReply(rid=rid, backup=b))
                nursery.start_soon(run, reply, self._backup, dest)

    def _hello(self, rid: int) -> p.HelloReply:
        return p.HelloReply(
            rid=rid,
            version=p.PROTOCOL_VERSION,
            server=f"reverie {self.version}",
            max_frame_bytes=self.services.config.daemon.max_frame_bytes,
            max_message_bytes=self.services.config.daemon.max_message_bytes,
        )

    async def _backup(self, dest: str) -> p.BackupView:
        async with self._backups:
            info = await self.backup(Path(dest))
        return msgspec.convert(info, p.BackupView, from_attributes=True)

    async def _metrics(self) -> str:
        return render_metrics(await self.status())

    async def status(self) -> p.DaemonStatus:
        """The daemon's state for a person or a monitor (never secrets)."""
        known = await self.services.db.read(Tx.count_sessions)
        status = {
            "version": self.version,
            "pid": os.getpid(),
            "uptime_seconds": round(time.time() - self.started, 3),
            "socket": self.services.config.daemon.socket,
            "data_dir": self.services.config.daemon.data_dir,
            "sessions": {
                "live": self.registry.live,
                "passivated": max(0, known - self.registry.live),
                "known": known,
            },
            "mailbox_depths": self.registry.mailbox_depths(),
            "scopes": {"live": self.scopes.live, "ttl_deadlines": len(self.scopes.expiries)},
            "store": await self.services.db.describe(),
            "consolidation": await self.supervisor.status(),
            "forgets": self.forgetter.status(),
            "memory": self.watcher.status(),
            "index": await self.search.status(),
            "counters": dict(self.services.counters),
            "errors": dict(self.errors),
            "config_reloads": self.reloader.reloads if self.reloader else 0,
            "log_level": logging.getLevelName(logging.getLogger().getEffectiveLevel()).lower(),
            "process": {
                **process_stats(),
                **heap_usage(),
                "connections": self.ledger.open,
                "unread_reply_bytes": self.ledger.held,
            },
        }
        if self.membership is not None:
            cluster = await cluster_status(
                self.membership.cluster, self.services.db, self.membership.role
            )
            status["cluster"] = msgspec.to_builtins(cluster)
        # The sections come from their owners as dicts; the wire's Structs check their shape.
        return msgspec.convert(status, p.DaemonStatus)
