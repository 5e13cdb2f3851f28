"""``reverie mcp``'s server: the daemon's memory as MCP tools and resources.

``server`` builds the FastMCP server (binding, error mapping, the
``reverie://memory/{scope}`` resource); ``tools`` declares the tools an LLM
sees. Like the CLI, it is a host of the daemon: it reaches it only through
``reverie.daemon.client``. The MCP SDK is imported with this package, so the
CLI imports it only when ``reverie mcp`` runs.
"""

from .server import MEMORY_URI, Binding, build_server, check_daemon, memory_uri, tool_result

__all__ = ["MEMORY_URI", "Binding", "build_server", "check_daemon", "memory_uri", "tool_result"]
