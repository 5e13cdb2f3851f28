"""The ``reverie`` command: one module per command group; ``main`` runs one command.

``main`` builds the parser, dispatches and turns a user error into one line
(never a traceback). The command groups live by feature (``status``,
``memory``, ``search``, ``working_memory``, ``data``, ``mcp``). Apart from
``serve``, the CLI is a host of the daemon: it talks to it only through
``reverie.daemon.client``.
"""

from .main import main

__all__ = ["main"]
