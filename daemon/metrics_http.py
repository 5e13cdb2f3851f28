"""``daemon.metrics_listen``: GET /metrics over HTTP, in the Prometheus text format.

Off by default. ``"127.0.0.1:9464"`` (or just ``"9464"``, which means
loopback) serves the same text as ``reverie metrics``; another host is
used only when configured. The server speaks just enough HTTP/1.1 for a
scraper: one request per connection, ``GET /metrics`` (a query string is
ignored) answers 200, another path 404, another method 405; a request head
that is too large, malformed or slow gets 400 or is dropped. It holds no
state and cannot change any; it never delays the daemon's socket.
"""

from __future__ import annotations

import ipaddress
import logging
from collections.abc import Awaitable, Callable

import trio

from reverie.config import ConfigError

from .metrics import render_metrics
from .protocol import DaemonStatus

__all__ = ["parse_listen", "serve_metrics"]

log = logging.getLogger(__name__)

MAX_HEAD_BYTES = 8192
HEAD_TIMEOUT = 5.0
MAX_CONNECTIONS = 16
CONTENT_TYPE = "text/plain; version=0.0.4; charset=utf-8"


def parse_listen(value: str) -> tuple[str, int]:
    """``host:port``, ``[v6]:port`` or ``port`` (loopback) → (host, port); else ``ConfigError``."""
    host, sep, port_text = value.rpartition(":")
    if not sep:
        host, port_text = "127.0.0.1", value
    host = host.strip("[]") or "127.0.0.1"
    try:
        port = int(port_text)
        if host != "localhost":
            ipaddress.ip_address(host)
    except ValueError:
        port = -1
    if not 0 < port < 65536:
        raise ConfigError(
            f"daemon.metrics_listen = {value!r}: give an address and port such as "
            '"127.0.0.1:9464" (or "" to turn the metrics endpoint off)'
        )
    return host, port


def _response(status: str, body: bytes, extra: str = "") -> bytes:
    head = (
        f"HTTP/1.1 {status}\r\nContent-Length: {len(body)}\r\nConnection: close\r\n"
        f"Content-Type: {CONTENT_TYPE if status.startswith('200') else 'text/plain; charset=utf-8'}\r\n"
        f"{extra}\r\n"
    )
    return head.encode() + body


async def _read_head(stream: trio.SocketStream) -> bytes | None:
    data = b""
    with trio.move_on_after(HEAD_TIMEOUT):
        while b"\r\n\r\n" not in data and len(data) <= MAX_HEAD_BYTES:
            chunk = await stream.receive_some(4096)
            if not chunk:
                return None
            data += chunk
        return data
    return None


async def _answer(head: bytes, status: Callable[[], Awaitable[DaemonStatus]]) -> bytes:
    line = head.split(b"\r\n", 1)[0].decode("latin-1")
    parts = line.split(" ")
    if len(parts) != 3 or not parts[2].startswith("HTTP/") or len(head) > MAX_HEAD_BYTES:
        return _response("400 Bad Request", b"bad request\n")
    method, target, _ = parts
    if target.split("?", 1)[0] != "/metrics":
        return _response("404 Not Found", b"only /metrics is served here\n")
    if method not in ("GET", "HEAD"):
        return _response("405 Method Not Allowed", b"use GET\n", "Allow: GET, HEAD\r\n")
    body = render_metrics(await status()).encode()
    reply = _response("200 OK", body)
    return reply[: len(reply) - len(body)] if method == "HEAD" else reply


async def serve_metrics(
    listen: str,
    status: Callable[[], Awaitable[DaemonStatus]],
    *,
    task_status: trio.TaskStatus[list[trio.SocketListener]] = trio.TASK_STATUS_IGNORED,
) -> None:
    """Serve until cancelled; ``started`` with the listeners once they accept connections."""
    host, port = parse_listen(listen)
    limit = trio.CapacityLimiter(MAX_CONNECTIONS)

    async def handle(stream: trio.SocketStream) -> None:
        async with limit, stream:
            try:
                head = await _read_head(stream)
                if head is not None:
                    await stream.send_all(await _answer(head, status))
            except (trio.BrokenResourceError, trio.ClosedResourceError, OSError):
                pass  # the scraper went away
            except Exception:  # a failed scrape must never stop the daemon
                log.exception("metrics: answering a scrape failed")

    try:
        listeners = await trio.open_tcp_listeners(port, host=host)
    except OSError as exc:
        raise ConfigError(
            f"daemon.metrics_listen = {listen!r}: cannot listen: {exc.strerror or exc}"
        ) from exc
    log.info("metrics: serving GET /metrics on %s:%d", host, port)
    await trio.serve_listeners(handle, listeners, task_status=task_status)
