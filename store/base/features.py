"""What an engine has and does, as plain flags (Django's ``DatabaseFeatures``).

Each engine's ``features.py`` sets the flags that differ from these
defaults; ``Store.features`` is its class. Code asks a flag, never which
engine runs, and the engines' modules follow them: a concept of ``base/``
that an engine has no flag for (``cluster`` without ``shared_members``,
``backup`` without ``backs_up_data_dir``) has no module there
(``tests/store/test_engine_modules.py``).
"""

from __future__ import annotations

__all__ = ["Features"]


class Features:
    """The defaults: an engine that has none of these."""

    #: ``reverie backup`` copies the engine's state into a new data dir while the daemon
    #: serves (``base/backup.py``); a database server's own tools back it up instead.
    backs_up_data_dir: bool = False
    #: Several members (daemons serving hosts, ``reverie worker``s) share the store and
    #: coordinate through it alone (``base/cluster.py``, ``base/job_leases.py``); else one
    #: daemon per data dir, held by its lock.
    shared_members: bool = False
