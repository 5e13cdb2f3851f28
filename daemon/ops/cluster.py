"""The ``cluster`` section of ``status``: the members sharing one Postgres store, read from it.

Everything comes from the database in one look (``members``, ``sessions.owner``,
``jobs``), so a daemon's ``status``, ``reverie cluster`` through any daemon's
socket and ``reverie cluster --store`` straight from the database show the
same thing, whoever asks. Liveness is judged by the database's clock against
``owner_ttl``, the same rule the members apply to each other.
"""

from __future__ import annotations

from collections import Counter
from typing import Any

import msgspec

from reverie.store import Cluster, GroupCommit, Tx

from .. import protocol as p

__all__ = ["cluster_status"]


async def cluster_status(cluster: Cluster, db: GroupCommit[Any], role: str) -> p.ClusterStatus:
    """The members ``cluster`` sees and the jobs of all of them by state; ``role`` is the
    asker's (``""`` when it is not a member, only a reader of the database)."""
    members = await cluster.members()
    jobs: Counter[str] = Counter()
    for states in (await db.read(Tx.job_counts)).values():
        jobs.update(states)
    return p.ClusterStatus(
        member=cluster.member if role else "",
        role=role,
        owner_ttl=cluster.owner_ttl,
        members=[msgspec.convert(m, p.MemberStatus, from_attributes=True) for m in members],
        jobs=dict(sorted(jobs.items())),
    )
