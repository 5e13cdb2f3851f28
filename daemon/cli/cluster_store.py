"""``reverie cluster --store URL``: the cluster read straight from the database, no daemon asked.

The one client-side command that opens the store itself (as ``serve`` does):
an operator may have no daemon on the machine, or want to see past the one in
trouble. It opens only the store's main database (no index, no memory), reads
the view ``status`` would show (``ops/cluster.py``), and closes it; it does not
join the cluster, so it is never one of the members it lists.
"""

from __future__ import annotations

import trio

from reverie.config import ConfigError, load_config
from reverie.store import StoreError, open_store

from ..ops.cluster import cluster_status
from ..protocol import ClusterStatus

__all__ = ["read_store"]


def read_store(url: str, config_file: str | None) -> ClusterStatus:
    """The members and jobs of the store at ``url``, judged by the ``[cluster] owner_ttl``
    of ``config_file`` (and the environment). A store that cannot be read is a ``ConfigError``
    (one line, exit 2), as for ``reverie serve``."""
    config = load_config(config_file, overrides={"store": {"url": url}})
    store = open_store(config.store, config.data_path, config.cluster)
    cluster = store.cluster
    if cluster is None:  # load_config accepts only a postgresql:// URL for the store
        raise ConfigError(f"--store takes a postgresql:// URL, not {url!r}")

    async def read() -> ClusterStatus:
        await store.db.open()
        try:
            return await cluster_status(cluster, store.db, role="")
        finally:
            await store.db.close()

    try:
        return trio.run(read)
    except StoreError as exc:
        raise ConfigError(f"{exc.code}: {exc.message}") from exc
