"""The scope a session's memory belongs to by default, shared by the daemon and its hosts.

A session belongs to one scope, set on its first append; when that append
names none, the scope is ``session/<name>``. The actors decide it, search and
forget recognise it, and the MCP host names it: one definition here, at the
bottom layer, which all of them (and the client's side) may import.
"""

from __future__ import annotations

__all__ = ["default_scope"]


def default_scope(session: str) -> str:
    """The scope of ``session`` when its first append named none."""
    return f"session/{session}"
