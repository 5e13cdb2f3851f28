"""``reverie mcp --transport http``: a bearer token at the door, for every local user."""

from __future__ import annotations

import contextlib
import json
import os
import stat
import subprocess
import sys
from collections.abc import Iterator
from typing import Any

import anyio
import httpx
import pytest
from mcp import ClientSession

from reverie.daemon.door_token import UI_TOKEN_ENV, UI_TOKEN_FILE
from reverie.daemon.mcp.http_door import TOKEN_ENV
from tests.checks import accepts, free_port, poll
from tests.daemon.mcp_stdio import EXPECTED_TOOLS, SCOPE, SESSION, mcp_args
from tests.daemon_process import DaemonProcess


def test_mcp_http_refuses_a_remote_host_without_allow_remote() -> None:
    out = subprocess.run(
        [sys.executable, "-m", "reverie.daemon", "mcp", "--transport", "http", "--host", "0.0.0.0"],
        capture_output=True,
        text=True,
        timeout=60,
    )
    assert out.returncode == 2
    assert "--allow-remote" in out.stderr and "Traceback" not in out.stderr


def _door_env(daemon: DaemonProcess) -> dict[str, str]:
    """The environment of a door with no token variable and a default data dir that does not
    exist: the daemon (started with --data-dir) says where its data dir is."""
    env = {**os.environ, "XDG_DATA_HOME": str(daemon.root / "no-such-dir")}
    for variable in (TOKEN_ENV, UI_TOKEN_ENV, "REVERIE_DAEMON__DATA_DIR"):
        env.pop(variable, None)
    return env


@contextlib.contextmanager
def _http_door(cmd: list[str], env: dict[str, str], port: int) -> Iterator[None]:
    server = subprocess.Popen(cmd, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, env=env)
    try:
        poll(lambda: accepts(port) or server.poll() is not None, timeout=60, what="the door up")
        assert server.poll() is None, server.stderr.read().decode() if server.stderr else ""
        yield
    finally:
        server.terminate()
        server.wait(30)


@contextlib.contextmanager
def _http_server(daemon: DaemonProcess, *flags: str) -> Iterator[int]:
    """``reverie mcp --transport http`` on a free loopback port, its token in the daemon's
    data dir."""
    port = free_port()
    cmd = [sys.executable, *mcp_args(daemon, *flags), "--transport", "http", "--port", str(port)]
    with _http_door(cmd, _door_env(daemon), port):
        yield port


def test_the_inspector_keeps_its_token_in_the_data_dir_of_the_daemon_it_serves(
    daemon: DaemonProcess,
) -> None:
    """Issue 48: against a daemon started with --data-dir, `reverie ui` looked under the
    default data dir and stopped ("cannot create the token file .../ui.token")."""
    port = free_port()
    cmd = [sys.executable, "-m", "reverie.daemon", "ui", "--socket", str(daemon.socket)]
    with _http_door([*cmd, "--port", str(port)], _door_env(daemon), port):
        token = (daemon.data_dir / UI_TOKEN_FILE).read_text().strip()
        page = httpx.get(
            f"http://127.0.0.1:{port}/",
            headers={"Authorization": f"Bearer {token}"},
            timeout=30,
            follow_redirects=True,
        )
    assert page.status_code == 200 and page.url.path != "/sign-in"
    assert stat.S_IMODE((daemon.data_dir / UI_TOKEN_FILE).stat().st_mode) == 0o600


@pytest.mark.parametrize("door", ["ui", "mcp"])
def test_a_token_file_that_cannot_be_made_names_the_flag_and_the_variable(
    daemon: DaemonProcess, door: str
) -> None:
    missing = daemon.root / "no-such-dir" / "door.token"
    cmd = [sys.executable, "-m", "reverie.daemon", door, "--socket", str(daemon.socket)]
    cmd += ["--token-file", str(missing)] + (["--transport", "http"] if door == "mcp" else [])
    out = subprocess.run(cmd, capture_output=True, text=True, timeout=60, env=_door_env(daemon))
    assert out.returncode == 2, out.stderr
    (line,) = out.stderr.strip().splitlines()
    variable = UI_TOKEN_ENV if door == "ui" else TOKEN_ENV
    assert f"cannot create the token file {missing}" in line
    assert "--token-file" in line and f"${variable}" in line


def _over_http(port: int, token: str, body: Any) -> Any:
    from mcp.client.streamable_http import streamable_http_client
    from mcp.shared._httpx_utils import create_mcp_http_client

    async def main() -> Any:
        http = create_mcp_http_client(headers={"Authorization": f"Bearer {token}"})
        with anyio.fail_after(60):
            async with (
                http,
                streamable_http_client(f"http://127.0.0.1:{port}/mcp", http_client=http) as (
                    read,
                    write,
                    _,
                ),
                ClientSession(read, write) as session,
            ):
                await session.initialize()
                return await body(session)

    return anyio.run(main)


INITIALIZE = {
    "jsonrpc": "2.0",
    "id": 1,
    "method": "initialize",
    "params": {
        "protocolVersion": "2025-06-18",
        "capabilities": {},
        "clientInfo": {"name": "probe", "version": "0"},
    },
}
MCP_HEADERS = {"Accept": "application/json, text/event-stream"}


def test_mcp_over_streamable_http_needs_its_token(daemon: DaemonProcess) -> None:
    token_file = daemon.data_dir / "mcp.token"
    with _http_server(daemon) as port:
        token = token_file.read_text().strip()
        url = f"http://127.0.0.1:{port}/mcp"
        refused = [
            httpx.post(url, json=INITIALIZE, headers={**MCP_HEADERS, **auth}, timeout=30)
            for auth in ({}, {"Authorization": "Bearer " + "x" * len(token)})
        ]

        async def body(session: ClientSession) -> Any:
            tools = {t.name for t in (await session.list_tools()).tools}
            return tools, await session.call_tool("remember", {"content": "over http"})

        tools, remembered = _over_http(port, token, body)
    assert stat.S_IMODE(token_file.stat().st_mode) == 0o600 and len(token) >= 32
    assert [r.status_code for r in refused] == [401, 401]
    assert refused[0].json()["error"] == "unauthorized"
    assert tools == EXPECTED_TOOLS
    assert not remembered.isError and remembered.structuredContent["seq"] == 1
    with daemon.client() as client:
        assert [m.content for m in client.history(SESSION)] == ["over http"]


@pytest.mark.skipif(os.geteuid() != 0, reason="needs root to act as another local user")
def test_another_local_user_can_neither_read_nor_forget_over_http(daemon: DaemonProcess) -> None:
    with daemon.client() as client:
        client.append(SESSION, "user", "my PIN is 4711", scope=SCOPE)
    probe = (
        "import encodings.idna, os, sys, json, urllib.request, urllib.error\n"  # before setuid
        "os.setgid(65534); os.setuid(65534)\n"
        "try:\n    open(sys.argv[2]).read(); print('token read')\n"
        "except OSError as e:\n    print('token refused', e.errno)\n"
        "calls = [json.loads(sys.argv[3]), {'jsonrpc': '2.0', 'id': 2, 'method': 'tools/call',"
        " 'params': {'name': 'forget', 'arguments': {'session': sys.argv[4]}}}]\n"
        "for call in calls:\n"
        "    req = urllib.request.Request(sys.argv[1], json.dumps(call).encode(),"
        " {'Content-Type': 'application/json', 'Accept': 'application/json, text/event-stream'})\n"
        "    try:\n        urllib.request.urlopen(req, timeout=30); print('answered')\n"
        "    except urllib.error.HTTPError as e:\n        print('http', e.code)\n"
    )
    probe_args = [str(daemon.data_dir / "mcp.token"), json.dumps(INITIALIZE), SESSION]
    with _http_server(daemon, "--no-forget") as port, _http_server(daemon) as full:
        outs = [
            subprocess.run(
                [sys.executable, "-I", "-c", probe, f"http://127.0.0.1:{p}/mcp", *probe_args],
                capture_output=True,
                text=True,
                timeout=60,
                cwd="/",
            )
            for p in (port, full)
        ]
    for out in outs:
        assert out.stdout.split("\n")[:3] == ["token refused 13", "http 401", "http 401"], out
    with daemon.client() as client:
        assert [m.content for m in client.history(SESSION)] == ["my PIN is 4711"]
