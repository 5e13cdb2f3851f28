"""``reverie mcp`` at its edges: integers past 64 bits, and a client of a newer MCP revision."""

from __future__ import annotations

import json
import subprocess
import sys
from typing import Any

import pytest
from mcp import ClientSession

from tests.daemon.mcp_stdio import EXPECTED_TOOLS, mcp_args, run_mcp
from tests.inprocess import InProcessDaemon

pytestmark = pytest.mark.in_process


def _integer_arguments(tool: Any) -> list[str]:
    """The arguments of a listed tool whose JSON schema admits an integer."""
    found = []
    for name, schema in tool.inputSchema["properties"].items():
        types = [schema, *schema.get("anyOf", [])]
        if any(t.get("type") == "integer" for t in types):
            found.append(name)
    return found


def _required(tool: Any) -> dict[str, Any]:
    """Values for a listed tool's required arguments (strings, or any JSON value)."""
    properties = tool.inputSchema["properties"]
    return {
        name: "x" if properties[name].get("type") == "string" else 1
        for name in tool.inputSchema.get("required", [])
    }


def test_integers_past_64_bits_are_invalid_argument_and_the_server_goes_on(
    daemon: InProcessDaemon,
) -> None:
    """Issue 48: an integer past 64 bits came back as an untyped error (an OverflowError)."""
    edges = (2**63, 2**64 - 1, 2**64, -(2**63) - 1)

    async def body(session: ClientSession) -> Any:
        results = []
        for tool in (await session.list_tools()).tools:
            for argument in _integer_arguments(tool):
                for value in edges:
                    arguments = {**_required(tool), argument: value}
                    results.append((argument, await session.call_tool(tool.name, arguments)))
        for value in (2**64, -(2**63) - 1):  # inside a JSON value: more than the wire carries
            results.append(
                ("value", await session.call_tool("wm_set", {"key": "k", "value": [value]}))
            )
        return results, await session.call_tool("remember", {"content": "still here"})

    results, after = run_mcp(daemon, body)
    assert {"max_tokens", "k", "step", "total_steps", "expected_version", "limit"} <= {
        argument for argument, _ in results
    }
    for argument, result in results:
        assert result.isError, (argument, result)
        assert result.structuredContent["code"] == "invalid_argument", result.content
        assert argument in result.structuredContent["message"], result.content
    assert not after.isError


def test_a_client_of_a_newer_protocol_is_served_and_logs_nothing(daemon: InProcessDaemon) -> None:
    """The OpenAI Agents SDK's client (mcp 2.x, protocol 2026-07-28) asks ``server/discover``
    first, then falls back to ``initialize``: the SDK here (mcp 1.x) logged ~90 lines of
    validation errors at WARNING for each connection."""
    meta = {
        "io.modelcontextprotocol/protocolVersion": "2026-07-28",
        "io.modelcontextprotocol/clientCapabilities": {"elicitation": {"form": {}}},
    }
    initialize = {
        "protocolVersion": "2026-07-28",
        "capabilities": {"elicitation": {"form": {}, "url": {}}, "sampling": {"tools": {}}},
        "clientInfo": {"name": "openai-agents", "version": "2.0.0", "websiteUrl": "https://x"},
    }
    calls = [
        {"jsonrpc": "2.0", "id": 1, "method": "server/discover", "params": {"_meta": meta}},
        {"jsonrpc": "2.0", "id": 2, "method": "initialize", "params": initialize},
        {"jsonrpc": "2.0", "method": "notifications/initialized"},
        {"jsonrpc": "2.0", "id": 3, "method": "tools/list", "params": {"_meta": meta}},
    ]
    server = subprocess.Popen(
        [sys.executable, *mcp_args(daemon)],
        stdin=subprocess.PIPE,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
    )
    assert server.stdin is not None and server.stdout is not None
    answers = {}
    for call in calls:  # one at a time: the server ends at the end of its input
        server.stdin.write(json.dumps(call) + "\n")
        server.stdin.flush()
        if "id" in call:
            answer = json.loads(server.stdout.readline())
            answers[answer["id"]] = answer
    _, stderr = server.communicate(timeout=120)
    assert "error" in answers[1]  # the older SDK does not know the method: the client falls back
    assert answers[2]["result"]["serverInfo"]["name"] == "reverie"
    assert {t["name"] for t in answers[3]["result"]["tools"]} == EXPECTED_TOOLS
    assert stderr == ""
