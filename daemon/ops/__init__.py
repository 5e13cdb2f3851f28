"""The server's operations, one module per feature: requests in, actor calls, replies out.

The server hands every decoded request to ``Handlers.dispatch`` together
with its ``Replier``; the feature whose requests include it answers it
(``sessions``, ``memory``, ``working_memory``, ``search``, ``admin``), each
over the shared ``calls``. Session and scope writes go through their actor
(the only writer); the rest run as tasks of the connection.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

import trio

from reverie.actors import (
    Forgetter,
    MemoryKeeper,
    MemoryWatcher,
    Services,
    SessionRegistry,
    Supervisor,
)
from reverie.config import UnknownOp

from .. import protocol as p
from ..membership import Membership
from ..protocol.search import SEARCH_REQUESTS
from ..protocol.working_memory import WM_REQUESTS
from ..reload import Reloader
from .admin import ADMIN_REQUESTS, AdminOps, Backup
from .calls import Feature, Replier
from .facts import FACT_REQUESTS, FactOps
from .memory import MEMORY_REQUESTS, MemoryOps
from .search import SearchHandlers
from .sessions import SESSION_REQUESTS, SessionOps
from .working_memory import WorkingMemoryHandlers

if TYPE_CHECKING:  # the connection module needs ops.calls: a run-time import would loop
    from ..connection import Ledger

__all__ = ["Handlers"]


class Handlers:
    """The operations, bound to the daemon's services, registries and workers."""

    def __init__(
        self,
        services: Services,
        registry: SessionRegistry,
        supervisor: Supervisor,
        memory: MemoryKeeper,
        version: str,
        *,
        wm: WorkingMemoryHandlers,
        forgetter: Forgetter,
        watcher: MemoryWatcher,
        search: SearchHandlers | None = None,
        ledger: Ledger,
        reloader: Reloader | None = None,
        membership: Membership | None = None,
        backup: Backup,
    ) -> None:
        self.services = services
        search = search or SearchHandlers(None)
        self.admin = AdminOps(
            services,
            registry,
            wm.scopes,
            supervisor,
            memory,
            version,
            forgetter=forgetter,
            watcher=watcher,
            search=search,
            reloader=reloader,
            ledger=ledger,
            membership=membership,
            backup=backup,
        )
        self.memory_ops = MemoryOps(supervisor, memory, forgetter, services)
        self._features: list[tuple[tuple[type, ...], Feature]] = [
            (SESSION_REQUESTS, SessionOps(services, registry, forgetter)),
            (WM_REQUESTS, wm),
            (SEARCH_REQUESTS, search),
            (MEMORY_REQUESTS, self.memory_ops),
            (FACT_REQUESTS, FactOps(memory, forgetter, services)),
            (ADMIN_REQUESTS, self.admin),
        ]

    def connection_closed(self, leases: set[str]) -> None:
        """A connection closed: end the stream leases it began."""
        self.memory_ops.end_leases(leases)

    def count_error(self, code: str) -> None:
        self.admin.errors[code] += 1

    async def status(self) -> p.DaemonStatus:
        """The daemon's state (``status``), also served over HTTP as metrics."""
        return await self.admin.status()

    async def dispatch(self, request: p.Request, replier: Replier, nursery: trio.Nursery) -> None:
        """Route ``request`` to its feature; a frame type with no handler is a bug, answered."""
        for requests, feature in self._features:
            if isinstance(request, requests):
                await feature.dispatch(request, replier, nursery)
                return
        rid = request.rid
        replier(rid, lambda r: r)(UnknownOp(f"op {type(request).__name__} has no handler"))
