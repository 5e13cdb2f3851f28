"""``reverie cluster``: the daemons and workers sharing one Postgres store, from a shell.

Through a daemon's socket (``--socket``, as every client command) it prints
that daemon's ``status().cluster``; with ``--store URL`` it reads the same
view straight from the database, for an operator on a machine with no
daemon (or whose daemon is the one in trouble). Either way the database
judges who is alive, by its own clock against ``cluster.owner_ttl`` (so
``--store`` takes ``--config`` for a TTL set there).
"""

from __future__ import annotations

import argparse
import json
from typing import Any

from reverie.config import ConfigError

from ..protocol import ClusterStatus
from .common import add_client_options, counted, plain, request_timeout

__all__ = ["add_cluster_parser", "render_cluster", "run_cluster", "summary"]


def add_cluster_parser(sub: Any) -> None:
    cluster = sub.add_parser(
        "cluster", help="show the daemons and workers sharing a Postgres store"
    )
    add_client_options(cluster)
    cluster.add_argument(
        "--store",
        metavar="URL",
        help="read the postgresql:// database itself instead of asking a daemon",
    )
    cluster.add_argument("--config", help="TOML config file (its [cluster] owner_ttl)")


def summary(cluster: ClusterStatus) -> str:
    """One line: the members alive of all, and the jobs by state."""
    alive = sum(m.alive for m in cluster.members)
    jobs = ", ".join(f"{n} {state}" for state, n in cluster.jobs.items()) or "none"
    return (
        f"{counted(len(cluster.members), 'member')} ({alive} alive, owner_ttl"
        f" {cluster.owner_ttl:g}s), jobs [{jobs}]"
    )


def render_cluster(cluster: ClusterStatus) -> None:
    """Print the members as a table (``*`` marks the daemon that answered), then the jobs."""
    asker = f" as seen by {cluster.member}" if cluster.member else " read from the database"
    print(f"cluster   {summary(cluster)}{asker}")
    rows = [("MEMBER", "ROLE", "STATE", "BEAT", "SESSIONS", "JOBS", "SERVES")]
    for m in cluster.members:
        mark = "*" if m.id == cluster.member else ""
        state = "alive" if m.alive else "dead"
        rows.append(
            (
                m.id + mark,
                m.role,
                state,
                f"{m.beat_age:.1f}s",
                str(m.sessions),
                str(m.jobs),
                m.serves,
            )
        )
    widths = [max(len(row[i]) for row in rows) for i in range(len(rows[0]))]
    for row in rows:
        print("  ".join(cell.ljust(w) for cell, w in zip(row, widths, strict=True)).rstrip())


def run_cluster(args: argparse.Namespace) -> int:
    """Ask a daemon, or the database with ``--store``; print a table or ``--json``."""
    if args.store:
        from .cluster_store import read_store  # the store's libraries, only when asked

        cluster = read_store(args.store, args.config)
    else:
        cluster = _from_daemon(args)
    if args.json:
        print(json.dumps(plain(cluster), ensure_ascii=False, indent=2))
    else:
        render_cluster(cluster)
    return 0


def _from_daemon(args: argparse.Namespace) -> ClusterStatus:
    from ..client import Client

    with Client(args.socket, timeout=request_timeout()) as client:
        cluster = client.status().cluster
    if cluster is None:
        raise ConfigError(
            "this daemon keeps its state in files, alone: a cluster is several daemons on one "
            "postgresql store (reverie serve --store postgresql://…)"
        )
    return cluster
