"""reverie.actors.consolidation: when and how a session's old turns become long-term memory."""

from .supervisor import Consolidator

__all__ = ["Consolidator"]
