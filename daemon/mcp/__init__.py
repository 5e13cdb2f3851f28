"""``reverie mcp``'s server: the daemon's memory as MCP tools and resources.

``server`` builds the FastMCP server (error mapping, the
``reverie://memory/{scope}`` resource); ``tools`` declares the tools an LLM
sees; ``binding`` pins them to a session or scope and picks which are
served; ``http_door`` puts the HTTP transport behind a bearer token;
``sdk_log`` keeps the SDK's noise about newer clients out of the log. Like
the CLI, it is a host of the daemon: it reaches it only through
``reverie.daemon.client``. The MCP SDK is imported with this package, so the
CLI imports it only when ``reverie mcp`` runs.
"""

from .binding import Binding
from .sdk_log import quiet_unknown_requests
from .server import MEMORY_URI, build_server, check_daemon, memory_uri, tool_result

__all__ = [
    "MEMORY_URI",
    "Binding",
    "build_server",
    "check_daemon",
    "memory_uri",
    "quiet_unknown_requests",
    "tool_result",
]
