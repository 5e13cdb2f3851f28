"""reverie.actors.consolidation: when and how a session's old turns become long-term memory."""

from .supervisor import Supervisor

__all__ = ["Supervisor"]
