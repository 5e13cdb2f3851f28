"""``reverie worker``: consolidation only, for a store several members share.

A worker serves no socket and owns no session: it joins the store's
members (role "worker"), scans for the sessions due (``DueScan``), leases
their jobs in the database and distils them with the configured backends
(an LLM or the extractive path), until SIGTERM or SIGINT. So LLM capacity
grows by adding workers next to the model servers, apart from the daemons.
The KV-cache discipline (each backend's slot gate, its stream leases) is
per backend, in this process, as in a daemon. Local disk holds only
caches (tiktoken's); the state is all in the database.
"""

from __future__ import annotations

import dataclasses
import logging
import os
import signal

import httpx
import trio

from reverie.actors import MemoryKeeper, Services, SessionHooks, Supervisor, job_runners
from reverie.config import Config, ConfigError
from reverie.store import TokenCounter, open_store

from .membership import Membership

__all__ = ["run_worker"]

log = logging.getLogger(__name__)


async def run_worker(config: Config) -> None:
    """Consolidate for the store ``config`` names until SIGTERM/SIGINT.

    A store that cannot be reached raises ``StoreError`` before anything
    runs (the CLI exits 2 on it); one with no ``url`` is a ``ConfigError``.
    """
    if not config.store.url:
        raise ConfigError(
            "reverie worker consolidates for a shared PostgreSQL store: "
            "pass --store postgresql://… (or set [store] url)"
        )
    os.environ.setdefault("TIKTOKEN_CACHE_DIR", str(config.data_path / "cache" / "tiktoken"))
    store = open_store(config.store, config.data_path, config.cluster)
    assert store.cluster is not None and store.leases is not None, "a URL opens a shared store"
    await store.open()
    shared = Services(
        config=config, db=store.db, tokens=TokenCounter(config.consolidation.tokenizer)
    )
    http = httpx.AsyncClient(timeout=httpx.Timeout(config.llm.timeout, connect=10.0))
    keeper = MemoryKeeper(store.memory, SessionHooks())
    supervisor = Supervisor(shared, http)
    services = dataclasses.replace(shared, hooks=supervisor, memory=keeper)
    workers, scan = job_runners(services, supervisor.queue, keeper, None, store.leases)
    assert scan is not None
    membership = Membership(store.cluster, "worker")
    try:
        with trio.open_signal_receiver(signal.SIGTERM, signal.SIGINT) as signals:
            async with trio.open_nursery() as nursery:
                await nursery.start(membership.run)
                await nursery.start(supervisor.run)
                await nursery.start(workers.run)
                await nursery.start(scan.run)
                log.info(
                    "ready: consolidating as %s (data in %s)", store.cluster.member, store.where
                )
                async for signum in signals:
                    log.info("received %s: stopping", signal.Signals(signum).name)
                    break
                nursery.cancel_scope.cancel()
    finally:
        await http.aclose()
        await store.close()
        log.info("stopped")
