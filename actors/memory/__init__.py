"""reverie.actors.memory: long-term memory (``MEMORY.md`` and history) and its one owner."""

from .forget import Forgetter
from .keeper import MemoryKeeper
from .watch import MemoryWatcher

__all__ = ["Forgetter", "MemoryKeeper", "MemoryWatcher"]
