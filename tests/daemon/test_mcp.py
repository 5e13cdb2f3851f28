"""``reverie mcp`` spawned over stdio by MCP clients (the SDK's own, and nanobot's) against a real daemon."""

from __future__ import annotations

import importlib.util
import socket
import subprocess
import sys
from pathlib import Path
from typing import Any

import anyio
import pytest
from mcp import ClientSession, StdioServerParameters
from mcp.client.stdio import stdio_client
from pydantic import AnyUrl

from reverie.daemon.mcp import memory_uri
from tests.checks import poll
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
}


def _args(daemon: DaemonProcess) -> list[str]:
    return [
        "-m",
        "reverie.daemon",
        "mcp",
        "--socket",
        str(daemon.socket),
        "--session",
        SESSION,
        "--scope",
        SCOPE,
    ]


def _run(daemon: DaemonProcess, body: Any) -> Any:
    async def main() -> Any:
        params = StdioServerParameters(command=sys.executable, args=_args(daemon))
        with anyio.fail_after(120):
            async with (
                stdio_client(params) as (read, write),
                ClientSession(read, write) as session,
            ):
                await session.initialize()
                return await body(session)

    return anyio.run(main)


def test_mcp_client_lists_tools_remembers_and_recalls(daemon: DaemonProcess) -> None:
    async def body(session: ClientSession) -> Any:
        tools = {t.name: t for t in (await session.list_tools()).tools}
        remembered = await session.call_tool(
            "remember", {"content": "my cat is called Marzipan", "id": "m-1"}
        )
        recalled = await session.call_tool("recall", {"query": "Marzipan", "mode": "text"})
        return tools, remembered, recalled

    tools, remembered, recalled = _run(daemon, body)
    assert set(tools) == EXPECTED_TOOLS
    for tool in tools.values():
        assert tool.description and tool.inputSchema["type"] == "object", tool.name
    assert tools["recall"].inputSchema["required"] == ["query"]
    assert tools["forget"].annotations.destructiveHint is True
    assert not remembered.isError
    assert remembered.structuredContent == {"session": SESSION, "seq": 1, "id": "m-1"}
    assert not recalled.isError
    hits = recalled.structuredContent["hits"]
    assert any("Marzipan" in h["text"] and h["scope"] == SCOPE for h in hits), hits
    with daemon.client() as client:  # the server appended through the daemon, under its scope
        info = {s.name: s.scope for s in client.sessions()}
        assert info == {SESSION: SCOPE}


def test_mcp_memory_md_is_a_resource(daemon: DaemonProcess) -> None:
    with daemon.client() as client:
        client.memory_edit(SCOPE, "# Alice\n- likes tea\n")

    async def body(session: ClientSession) -> Any:
        listed = [str(r.uri) for r in (await session.list_resources()).resources]
        templates = [
            t.uriTemplate for t in (await session.list_resource_templates()).resourceTemplates
        ]
        own = await session.read_resource(AnyUrl(memory_uri(SCOPE)))
        other = await session.read_resource(AnyUrl(memory_uri("project/none")))
        return listed, templates, own, other

    listed, templates, own, other = _run(daemon, body)
    assert listed == [memory_uri(SCOPE)]
    assert templates == ["reverie://memory/{scope}"]
    assert own.contents[0].text == "# Alice\n- likes tea\n"
    assert own.contents[0].mimeType == "text/markdown"
    assert other.contents[0].text == ""


def test_mcp_bad_input_is_a_typed_tool_error(daemon: DaemonProcess) -> None:
    async def body(session: ClientSession) -> Any:
        missing = await session.call_tool("wm_get", {"key": "nothing-here"})
        bad_name = await session.call_tool("context", {"session": "bad\x00name"})
        conflict = await session.call_tool(
            "wm_set", {"key": "k", "value": 1, "expected_version": 5}
        )
        ok = await session.call_tool("wm_set", {"key": "plan", "value": {"step": 1}, "ttl": 60})
        got = await session.call_tool("wm_get", {"key": "plan"})
        return missing, bad_name, conflict, ok, got

    missing, bad_name, conflict, ok, got = _run(daemon, body)
    assert missing.isError and missing.structuredContent["code"] == "not_found"
    assert missing.content[0].text.startswith("not_found: ")
    assert bad_name.isError and bad_name.structuredContent["code"] == "invalid_argument"
    assert conflict.isError and conflict.structuredContent["code"] == "conflict"
    assert not ok.isError and ok.structuredContent == {"key": "plan", "version": 1}
    assert got.structuredContent["value"] == {"step": 1}
    assert got.structuredContent["expires_at"] is not None


def test_mcp_without_a_daemon_says_what_to_do(tmp_path: Path) -> None:
    out = subprocess.run(
        [sys.executable, "-m", "reverie.daemon", "mcp", "--socket", str(tmp_path / "none.sock")],
        capture_output=True,
        text=True,
        timeout=60,
        stdin=subprocess.DEVNULL,
    )
    assert out.returncode == 1
    lines = out.stderr.strip().splitlines()
    assert len(lines) == 1 and "reverie serve" in lines[0], out.stderr
    assert out.stdout == ""


def test_mcp_http_refuses_a_remote_host_without_allow_remote() -> None:
    out = subprocess.run(
        [sys.executable, "-m", "reverie.daemon", "mcp", "--transport", "http", "--host", "0.0.0.0"],
        capture_output=True,
        text=True,
        timeout=60,
    )
    assert out.returncode == 2
    assert "--allow-remote" in out.stderr and "Traceback" not in out.stderr


@pytest.mark.skipif(
    importlib.util.find_spec("nanobot") is None,
    reason="nanobot-ai is not installed (it is the `bench` extra: make .venv/.installed-bench)",
)
def test_nanobot_mcp_client_loads_reverie_tools(daemon: DaemonProcess) -> None:
    import asyncio

    from nanobot.agent.tools.mcp import connect_mcp_servers
    from nanobot.agent.tools.registry import ToolRegistry
    from nanobot.config.schema import Config

    # the README's snippet, as nanobot's own config model reads it
    entry = {"command": sys.executable, "args": _args(daemon), "toolTimeout": 60}
    servers = Config.model_validate({"tools": {"mcpServers": {"reverie": entry}}}).tools.mcp_servers

    async def main() -> tuple[set[str], str]:
        registry = ToolRegistry()
        connections = await connect_mcp_servers(servers, registry)
        try:
            names = {name for name in EXPECTED_TOOLS if registry.get(f"mcp_reverie_{name}")}
            tool = registry.get("mcp_reverie_remember")
            assert tool is not None
            result = await tool.execute(content="nanobot was here", id="nb-1")
        finally:
            for connection in connections.values():
                await connection.aclose()
        return names, str(result)

    names, result = asyncio.run(asyncio.wait_for(main(), 120))
    assert names == EXPECTED_TOOLS
    assert '"id":"nb-1"' in result
    with daemon.client() as client:
        assert [m.content for m in client.history(SESSION)] == ["nanobot was here"]


def test_mcp_over_streamable_http_on_loopback(daemon: DaemonProcess) -> None:
    from mcp.client.streamable_http import streamable_http_client

    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        port = probe.getsockname()[1]
    cmd = [sys.executable, *_args(daemon), "--transport", "http", "--port", str(port)]
    server = subprocess.Popen(cmd, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)
    try:
        poll(lambda: _accepts(port), timeout=60, what="the MCP HTTP server listening")

        async def main() -> Any:
            with anyio.fail_after(60):
                async with (
                    streamable_http_client(f"http://127.0.0.1:{port}/mcp") as (read, write, _),
                    ClientSession(read, write) as session,
                ):
                    await session.initialize()
                    tools = {t.name for t in (await session.list_tools()).tools}
                    return tools, await session.call_tool("remember", {"content": "over http"})

        tools, remembered = anyio.run(main)
    finally:
        server.terminate()
        server.wait(30)
    assert tools == EXPECTED_TOOLS
    assert not remembered.isError and remembered.structuredContent["seq"] == 1
    with daemon.client() as client:
        assert [m.content for m in client.history(SESSION)] == ["over http"]


def _accepts(port: int) -> bool:
    try:
        socket.create_connection(("127.0.0.1", port), timeout=1).close()
    except OSError:
        return False
    return True
