"""reverie.actors.consolidation: when and how a session's old turns become long-term memory.

The supervisor decides when (timers over the sessions' hooks), the queue
holds one job per session, the workers run the jobs through the session
actors (``requests.py``: the whole interface between the two), and
``distill.py`` turns the turns into a history entry and a new
``MEMORY.md`` (the LLM client in ``llm.py``, the extractive path in
``extractive.py``). On a store several members share, the jobs are
leased in the database instead (``leased.py``, ``due_scan.py``).
"""

from .due_scan import DueScan
from .leased import LeasedSessions
from .requests import Applied, ApplyRequest, Sessions, SnapshotRequest
from .runners import job_runners
from .supervisor import Supervisor
from .turns import oldest_turns
from .workers import Workers

__all__ = [
    "Applied",
    "ApplyRequest",
    "DueScan",
    "LeasedSessions",
    "Sessions",
    "SnapshotRequest",
    "Supervisor",
    "Workers",
    "job_runners",
    "oldest_turns",
]
