"""The daemon's open-file limit: every connection holds a descriptor.

Many systems start processes with a soft ``RLIMIT_NOFILE`` of 1,024 — no
more than the default ``max_connections`` before the daemon's own files
(SQLite, WAL, LanceDB, the listening socket) are counted. Out of
descriptors, ``accept`` fails and clients hang instead of getting ``busy``.
So at start the daemon raises its soft limit to the hard limit (what the
administrator allows; the systemd units set ``LimitNOFILE``), and warns when
even that is too low for the configured connections; the server then serves
at most ``connection_room()`` connections, so the one past them is still
accepted and answered ``busy`` rather than left hanging.
"""

from __future__ import annotations

import logging
import resource

__all__ = ["OWN_FILES", "connection_room", "raise_open_files_limit"]

log = logging.getLogger(__name__)

#: Descriptors the daemon holds besides connections (databases, index files, sockets).
OWN_FILES = 256


def raise_open_files_limit(max_connections: int) -> int:
    """Raise the soft open-file limit to the hard one; return the soft limit now in force."""
    soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    if hard == resource.RLIM_INFINITY or soft == resource.RLIM_INFINITY:
        return soft
    if soft < hard:
        resource.setrlimit(resource.RLIMIT_NOFILE, (hard, hard))
        soft = hard
    if soft < max_connections + OWN_FILES:
        log.warning(
            "open files are limited to %d, too few for max_connections = %d;"
            " raise the hard limit (LimitNOFILE= in the unit, ulimit -Hn) or lower max_connections",
            soft,
            max_connections,
        )
    return soft


def connection_room() -> int | None:
    """Connections the soft open-file limit leaves room for beside ``OWN_FILES`` (None: no limit)."""
    soft, _hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    if soft == resource.RLIM_INFINITY:
        return None
    return max(1, soft - OWN_FILES)
