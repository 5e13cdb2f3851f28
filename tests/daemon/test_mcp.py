"""``reverie mcp`` spawned over stdio by MCP clients (the SDK's own, and nanobot's) against a real daemon."""

from __future__ import annotations

import importlib.util
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
from mcp.client.stdio import stdio_client
from pydantic import AnyUrl

from reverie.daemon.mcp import memory_uri
from reverie.daemon.version import package_version
from tests.checks import poll
from tests.daemon.mcp_stdio import EXPECTED_TOOLS, SCOPE, SESSION, mcp_args, run_mcp
from tests.inprocess import InProcessDaemon

pytestmark = pytest.mark.in_process  # the engine is not what these check: SQLite only


def test_mcp_client_lists_tools_remembers_and_recalls(daemon: InProcessDaemon) -> None:
    async def body(session: ClientSession) -> Any:
        tools = {t.name: t for t in (await session.list_tools()).tools}
        remembered = await session.call_tool(
            "remember", {"content": "my cat is called Marzipan", "id": "m-1"}
        )
        recalled = await session.call_tool("recall", {"query": "Marzipan", "mode": "text"})
        return tools, remembered, recalled

    tools, remembered, recalled = run_mcp(daemon, body)
    assert set(tools) == EXPECTED_TOOLS
    for tool in tools.values():
        assert tool.description and tool.inputSchema["type"] == "object", tool.name
    assert tools["recall"].inputSchema["required"] == ["query"]
    assert tools["forget"].annotations.destructiveHint is True
    assert not remembered.isError
    assert remembered.structuredContent == {"session": SESSION, "seq": 1, "id": "m-1"}
    assert not recalled.isError
    hits = recalled.structuredContent["hits"]
    assert any("Marzipan" in h["text"] for h in hits), hits
    # What the model reads of a hit: its words, kind, when and score, nothing else.
    assert all(set(h) == {"text", "kind", "when", "score"} for h in hits), hits
    assert json.loads(recalled.content[0].text) == recalled.structuredContent
    with daemon.client() as client:  # the server appended through the daemon, under its scope
        info = {s.name: s.scope for s in client.sessions()}
        assert info == {SESSION: SCOPE}


def test_mcp_memory_md_is_a_resource(daemon: InProcessDaemon) -> None:
    with daemon.client() as client:
        client.memory_edit(SCOPE, "# Alice\n- likes tea\n")

    async def body(session: ClientSession) -> Any:
        listed = [str(r.uri) for r in (await session.list_resources()).resources]
        templates = [
            t.uriTemplate for t in (await session.list_resource_templates()).resourceTemplates
        ]
        own = await session.read_resource(AnyUrl(memory_uri(SCOPE)))
        return listed, templates, own

    async def unpinned(session: ClientSession) -> Any:
        return await session.read_resource(AnyUrl(memory_uri("project/none")))

    listed, templates, own = run_mcp(daemon, body)
    assert listed == [memory_uri(SCOPE)]
    assert templates == ["reverie://memory/{scope}"]
    assert own.contents[0].text == "# Alice\n- likes tea\n"
    assert own.contents[0].mimeType == "text/markdown"
    other = run_mcp(daemon, unpinned, "--unpinned")
    assert other.contents[0].text == ""


def test_mcp_bad_input_is_a_typed_tool_error(daemon: InProcessDaemon) -> None:
    async def body(session: ClientSession) -> Any:
        missing = await session.call_tool("wm_get", {"key": "nothing-here"})
        conflict = await session.call_tool(
            "wm_set", {"key": "k", "value": 1, "expected_version": 5}
        )
        ok = await session.call_tool("wm_set", {"key": "plan", "value": {"step": 1}, "ttl": 60})
        got = await session.call_tool("wm_get", {"key": "plan"})
        return missing, conflict, ok, got

    async def unpinned(session: ClientSession) -> Any:
        return await session.call_tool("context", {"session": "bad\x00name"})

    missing, conflict, ok, got = run_mcp(daemon, body)
    bad_name = run_mcp(daemon, unpinned, "--unpinned")
    assert missing.isError and missing.structuredContent["code"] == "not_found"
    assert missing.content[0].text.startswith("not_found: ")
    assert bad_name.isError and bad_name.structuredContent["code"] == "invalid_argument"
    assert conflict.isError and conflict.structuredContent["code"] == "conflict"
    assert not ok.isError and ok.structuredContent == {"key": "plan", "version": 1}
    assert got.structuredContent["value"] == {"step": 1}
    assert got.structuredContent["expires_at"] is not None


def test_mcp_with_no_flags_works_for_this_os_user(daemon: InProcessDaemon) -> None:
    """As hosts configure it: `reverie mcp` alone; remember, recall and context round-trip."""
    user = pwd.getpwuid(os.getuid()).pw_name

    async def body(session: ClientSession) -> Any:
        info = session.get_server_capabilities()
        tools = {t.name: t for t in (await session.list_tools()).tools}
        remembered = await session.call_tool("remember", {"content": "I keep bees in Porto"})
        recalled = await session.call_tool(
            "recall", {"query": "bees", "mode": "text", "since": "2000-01-01"}
        )
        context = await session.call_tool("context", {})
        bad_k = await session.call_tool("recall", {"query": "bees", "k": "many"})
        bad_since = await session.call_tool("recall", {"query": "bees", "since": "last spring"})
        return info, tools, remembered, recalled, context, bad_k, bad_since

    async def main() -> Any:
        params = StdioServerParameters(
            command=sys.executable,
            args=["-m", "reverie.daemon", "mcp", "--socket", str(daemon.socket)],
        )
        with anyio.fail_after(120):
            async with (
                stdio_client(params, errlog=errlog) as (read, write),
                ClientSession(read, write) as session,
            ):
                started = await session.initialize()
                return started.serverInfo.version, await body(session)

    errlog = (daemon.root / "mcp-stderr.txt").open("w+")
    version, (_, tools, remembered, recalled, context, bad_k, bad_since) = anyio.run(main)
    errlog.seek(0)
    assert "Traceback" not in errlog.read()
    assert version == package_version()
    assert remembered.structuredContent["session"] == f"mcp:{user}"
    hits = recalled.structuredContent["hits"]
    assert [h["text"] for h in hits] == ["I keep bees in Porto"]  # written to user/<user> only
    assert "null" not in context.content[0].text
    assert context.structuredContent["messages"][0]["content"] == "I keep bees in Porto"
    assert bad_k.isError and bad_k.content[0].text.startswith("invalid_argument: k: ")
    assert bad_since.isError and bad_since.content[0].text.startswith("invalid_argument: since: ")
    for tool in tools.values():
        assert "\n    " not in (tool.description or ""), tool.name


def test_a_fact_added_updated_and_deleted_by_id_reaches_context_and_search(
    daemon: InProcessDaemon,
) -> None:
    with daemon.client() as client:
        client.append(SESSION, "user", "hello", scope=SCOPE)

    def fact_hits(client: Any, word: str) -> list[str]:
        reply = client.search(word, scope=SCOPE, kinds=["fact"], mode="text")
        return [h.text.split("] ", 1)[-1] for h in reply.hits]  # less the "[date] " prefix

    async def add(session: ClientSession) -> Any:
        added = await session.call_tool("fact_add", {"text": "Alice keeps bees in Porto."})
        return added, await session.call_tool("fact_list", {})

    added, listed = run_mcp(daemon, add)
    first = added.structuredContent["id"]
    assert [f["id"] for f in listed.structuredContent["facts"]] == [first]
    with daemon.client() as client:
        assert "Alice keeps bees in Porto." in client.context(SESSION).memory
        poll(lambda: fact_hits(client, "bees") == ["Alice keeps bees in Porto."], what="indexed")

    async def update(session: ClientSession) -> Any:
        text = "Alice keeps bees in Braga."
        changed = await session.call_tool("fact_update", {"id": first, "text": text})
        stale = await session.call_tool("fact_update", {"id": first, "text": "x y z"})
        return changed, stale

    changed, stale = run_mcp(daemon, update)
    second = changed.structuredContent["id"]
    assert second != first and changed.structuredContent["text"] == "Alice keeps bees in Braga."
    assert stale.isError and stale.structuredContent["code"] == "not_found"
    with daemon.client() as client:
        memory = client.context(SESSION).memory
        assert "Braga" in memory and "Porto" not in memory
        poll(lambda: fact_hits(client, "bees") == ["Alice keeps bees in Braga."], what="reindexed")

    async def delete(session: ClientSession) -> Any:
        return await session.call_tool("fact_delete", {"id": second})

    assert not run_mcp(daemon, delete).isError
    with daemon.client() as client:
        assert "bees" not in client.context(SESSION).memory
        assert client.facts(SCOPE) == []
        poll(lambda: fact_hits(client, "bees") == [], what="the fact gone from the index")


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


@pytest.mark.skipif(
    importlib.util.find_spec("nanobot") is None,
    reason="nanobot-ai is not installed (the `nanobot` extra, in `test`)",
)
def test_nanobot_mcp_client_loads_reverie_tools(daemon: InProcessDaemon) -> None:
    import asyncio

    from nanobot.agent.tools.mcp import connect_mcp_servers
    from nanobot.agent.tools.registry import ToolRegistry
    from nanobot.config.schema import Config

    # docs/mcp.md's snippet, as nanobot's own config model reads it
    entry = {"command": sys.executable, "args": mcp_args(daemon), "toolTimeout": 60}
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


def test_a_pinned_server_reaches_only_its_session_and_scope(daemon: InProcessDaemon) -> None:
    with daemon.client() as client:
        client.append("other:bob", "user", "my PIN is 4711", scope="user/bob")
        client.append("mcp:alice2", "user", "hello", scope=SCOPE)
    reaching_out = [
        ("context", {"session": "other:bob"}),
        ("recall", {"query": "PIN", "scope": "user/bob"}),
        ("recall", {"query": "PIN", "session": "other:bob"}),
        ("forget", {"session": "other:bob"}),
        ("remember", {"content": "x", "session": "other:bob"}),
        ("wm_set", {"key": "k", "value": 1, "scope": "user/bob"}),
        ("memory", {"scope": "user/bob"}),
    ]

    async def calls(session: ClientSession) -> Any:
        refused = [await session.call_tool(name, args) for name, args in reaching_out]
        own = await session.call_tool("context", {"session": "mcp:alice2"})
        return refused, own

    for flags in (("--session", SESSION, "--scope", SCOPE), ("--scope", SCOPE)):
        refused, own = run_mcp(daemon, calls, *flags)
        codes = [r.structuredContent["code"] if r.isError else "answered" for r in refused]
        assert codes == ["unauthorized"] * len(reaching_out), (flags, codes)
        assert own.isError == (flags[0] == "--session"), (flags, own)
    with daemon.client() as client:
        assert [m.content for m in client.history("other:bob")] == ["my PIN is 4711"]
        assert client.wm_list("user/bob") == []


def test_read_only_and_no_forget_serve_fewer_tools(daemon: InProcessDaemon) -> None:
    async def names(session: ClientSession) -> set[str]:
        return {t.name for t in (await session.list_tools()).tools}

    read_only = run_mcp(daemon, names, "--session", SESSION, "--read-only")
    no_forget = run_mcp(daemon, names, "--session", SESSION, "--no-forget")
    assert read_only == {
        "recall",
        "memory",
        "context",
        "wm_get",
        "wm_list",
        "task_get",
        "checkpoint_list",
        "fact_list",
        "fact_history",
    }
    assert no_forget == EXPECTED_TOOLS - {"forget", "fact_delete"}


def test_a_pinned_context_of_a_fresh_session_shows_the_scope_facts(daemon: InProcessDaemon) -> None:
    """Issue 47: the prompt a new session gets is its scope's memory, not an empty block."""
    with daemon.client() as client:
        client.fact_add(SCOPE, "Alice lives in Lisbon.")

    async def body(session: ClientSession) -> Any:
        return await session.call_tool("context", {})

    context = run_mcp(daemon, body)
    assert not context.isError, context
    assert "Alice lives in Lisbon." in context.structuredContent["memory"]
    assert context.structuredContent["messages"] == []
    assert context.structuredContent["tokens"] == context.structuredContent["memory_tokens"] > 0
