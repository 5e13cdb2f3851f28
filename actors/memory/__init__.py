"""reverie.actors.memory: long-term memory (``MEMORY.md`` and history) and its one owner."""

from .forget import Forgetter
from .watch import MemoryWatcher, scope_problems

__all__ = ["Forgetter", "MemoryWatcher", "scope_problems"]
