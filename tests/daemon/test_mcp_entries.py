"""``reverie mcp --print-config HOST``: the entry, pasted into a host, connects.

An MCP host starts a stdio server with only HOME, LOGNAME, PATH, SHELL, TERM
and USER of its own environment (the MCP SDK's ``get_default_environment``,
which nanobot uses too), plus the entry's ``env``. The tests start the printed
entries that way, with a PATH that does not hold the venv and no
REVERIE_SOCKET in the environment.
"""

from __future__ import annotations

import asyncio
import json
import os
import pwd
import subprocess
import sys
from pathlib import Path
from typing import Any

import anyio
import pytest
from mcp import ClientSession, StdioServerParameters
from mcp.client.stdio import get_default_environment, stdio_client

from tests.daemon.mcp_stdio import SCOPE, SESSION
from tests.daemon_process import DaemonProcess

MINIMAL_PATH = "/usr/bin:/bin"
USER = pwd.getpwuid(os.getuid()).pw_name
SESSION_OF_USER, SCOPE_OF_USER = f"mcp:{USER}", f"user/{USER}"  # the flags' defaults


def _printed(host: str, *flags: str, socket: Path) -> tuple[dict[str, Any], str]:
    command = [sys.executable, "-m", "reverie.daemon", "mcp", "--socket", str(socket)]
    out = subprocess.run(
        [*command, "--print-config", host, *flags],
        capture_output=True,
        text=True,
        timeout=60,
        check=True,
    )
    return json.loads(out.stdout), out.stderr


@pytest.fixture
def host_environment(monkeypatch: pytest.MonkeyPatch) -> dict[str, str]:
    """This process's environment as a host has it: no REVERIE_*, a PATH without the venv."""
    for name in [n for n in os.environ if n.startswith("REVERIE_")]:
        monkeypatch.delenv(name)
    monkeypatch.setenv("PATH", MINIMAL_PATH)
    passed = get_default_environment()
    assert set(passed) <= {"HOME", "LOGNAME", "PATH", "SHELL", "TERM", "USER"}, passed
    assert passed["PATH"] == MINIMAL_PATH
    return passed


@pytest.mark.parametrize("host", ["claude", "cursor"])
def test_the_printed_entry_connects_with_only_what_a_host_passes(
    daemon: DaemonProcess, host_environment: dict[str, str], host: str
) -> None:
    config, note = _printed(host, "--session", SESSION, "--scope", SCOPE, socket=daemon.socket)
    entry = config["mcpServers"]["reverie"]
    assert Path(entry["command"]).is_absolute(), entry
    assert entry["env"] == {"REVERIE_SOCKET": str(daemon.socket)}
    assert "no daemon" not in note

    async def main() -> Any:
        params = StdioServerParameters(
            command=entry["command"], args=entry["args"], env=entry["env"]
        )
        with anyio.fail_after(120):
            async with (
                stdio_client(params) as (read, write),
                ClientSession(read, write) as session,
            ):
                await session.initialize()
                return await session.call_tool("remember", {"content": f"pasted into {host}"})

    result = anyio.run(main)
    assert not result.isError, result
    with daemon.client() as client:
        assert [m.content for m in client.history(SESSION)] == [f"pasted into {host}"]
        assert client.sessions(prefix=SESSION)[0].scope == SCOPE


def test_the_printed_nanobot_entry_connects_through_nanobots_own_client(
    daemon: DaemonProcess, host_environment: dict[str, str]
) -> None:
    from nanobot.agent.tools.mcp import connect_mcp_servers
    from nanobot.agent.tools.registry import ToolRegistry
    from nanobot.config.schema import Config

    printed, _ = _printed("nanobot", socket=daemon.socket)  # the defaults, written out
    servers = Config.model_validate(printed).tools.mcp_servers
    assert servers["reverie"].args[1:] == ["--session", SESSION_OF_USER, "--scope", SCOPE_OF_USER]

    async def main() -> str:
        registry = ToolRegistry()
        connections = await connect_mcp_servers(servers, registry)
        try:
            tool = registry.get("mcp_reverie_remember")
            assert tool is not None, "nanobot did not load reverie's tools"
            return str(await tool.execute(content="pasted into nanobot"))
        finally:
            for connection in connections.values():
                await connection.aclose()

    result = asyncio.run(asyncio.wait_for(main(), 120))
    assert SESSION_OF_USER in result
    with daemon.client() as client:
        assert [m.content for m in client.history(SESSION_OF_USER)] == ["pasted into nanobot"]


def test_without_its_env_the_entry_says_hosts_do_not_pass_the_shells(
    daemon: DaemonProcess, host_environment: dict[str, str], tmp_path: Path
) -> None:
    config, _ = _printed("claude", socket=daemon.socket)
    entry = config["mcpServers"]["reverie"]
    out = subprocess.run(  # pasted without its env: the default socket, where no daemon is
        [entry["command"], *entry["args"]],
        env={**host_environment, "XDG_RUNTIME_DIR": str(tmp_path)},
        capture_output=True,
        text=True,
        timeout=60,
        stdin=subprocess.DEVNULL,
    )
    assert out.returncode == 1
    (line,) = out.stderr.strip().splitlines()
    assert "REVERIE_SOCKET" in line and '"env"' in line and "--print-config" in line, line
