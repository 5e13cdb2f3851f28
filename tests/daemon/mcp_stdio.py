"""Helpers for the MCP tests: ``reverie mcp`` spawned over stdio against a real daemon."""

from __future__ import annotations

import sys
from typing import Any

import anyio
from mcp import ClientSession, StdioServerParameters
from mcp.client.stdio import stdio_client

from tests.daemon_process import DaemonProcess

SESSION = "mcp:alice"
SCOPE = "user/alice"
EXPECTED_TOOLS = {
    "remember",
    "recall",
    "memory",
    "context",
    "forget",
    "wm_get",
    "wm_set",
    "wm_delete",
    "wm_list",
    "task_get",
    "task_set",
    "checkpoint_create",
    "checkpoint_restore",
    "checkpoint_list",
    "fact_list",
    "fact_history",
    "fact_add",
    "fact_update",
    "fact_delete",
}


def mcp_args(daemon: DaemonProcess, *flags: str) -> list[str]:
    pinned = ("--session", SESSION, "--scope", SCOPE)
    return ["-m", "reverie.daemon", "mcp", "--socket", str(daemon.socket), *(flags or pinned)]


def run_mcp(daemon: DaemonProcess, body: Any, *flags: str) -> Any:
    async def main() -> Any:
        params = StdioServerParameters(command=sys.executable, args=mcp_args(daemon, *flags))
        with anyio.fail_after(120):
            async with (
                stdio_client(params) as (read, write),
                ClientSession(read, write) as session,
            ):
                await session.initialize()
                return await body(session)

    return anyio.run(main)
