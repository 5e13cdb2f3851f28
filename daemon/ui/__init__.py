"""``reverie ui``: a local web inspector of the daemon's memory.

A small web app on loopback, one more host of the daemon: like the CLI and
the MCP server it reaches the daemon only through ``reverie.daemon.client``.
``guard`` refuses a Host it does not know and keeps every page out of
other pages' frames; ``gate`` asks for the inspector's token on every page
and action; ``pages`` are the routes (sessions, a session, a scope's memory, search, health);
``render`` fills the templates (everything escaped); ``health`` samples
the daemon's status for ``charts``.
"""

from .app import build_app, serve_ui
from .guard import allowed_hosts

__all__ = ["allowed_hosts", "build_app", "serve_ui"]
