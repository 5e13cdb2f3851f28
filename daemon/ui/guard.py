"""The inspector's outer wall: the Host it answers to, and the headers every answer carries.

The gate (``gate.py``) keeps out whoever lacks the token; this keeps a
signed-in browser from being used by another page. A page on another port
of 127.0.0.1 is the same *site* for the browser, so ``SameSite=Strict``
sends it the cookie: it could frame ``/forget?session=…`` and have the
user click the real button. Every answer, a refusal included, therefore
forbids framing (CSP ``frame-ancestors 'none'`` and ``X-Frame-Options:
DENY``), content sniffing, referrers (a query holds session names) and
caching (a page holds memory). Its CSP allows what the pages use and no
more: inline styles, forms posted back here, and one inline handler (the
fact delete's confirm) by its hash; no other script, image, font or
connection.

A request whose ``Host`` is not one this server answers to is refused
before the gate: a DNS-rebinding page reaches the port under a name of its
own, and must find nothing there.
"""

from __future__ import annotations

import base64
import hashlib
import ipaddress
from collections.abc import Iterable, MutableMapping
from typing import Any

from starlette.datastructures import Headers
from starlette.responses import PlainTextResponse

from .gate import App, Receive, Scope, Send

__all__ = ["CONFIRM_DELETE", "Guard", "allowed_hosts", "policy"]

#: The one script the pages run: the fact delete's ``onsubmit`` (allowed by its hash).
CONFIRM_DELETE = "return confirm('Delete this fact everywhere it is kept?')"


def policy() -> str:
    """The Content-Security-Policy of every answer."""
    digest = base64.b64encode(hashlib.sha256(CONFIRM_DELETE.encode()).digest()).decode()
    return (
        "default-src 'none'; "
        "style-src 'unsafe-inline'; "  # the page's <style> and the charts' colours
        f"script-src 'unsafe-hashes' 'sha256-{digest}'; "
        "form-action 'self'; base-uri 'none'; frame-ancestors 'none'"
    )


_HEADERS = [
    (b"content-security-policy", policy().encode()),
    (b"x-frame-options", b"DENY"),
    (b"x-content-type-options", b"nosniff"),
    (b"referrer-policy", b"no-referrer"),
    (b"cache-control", b"no-store"),
]


def allowed_hosts(bound: str, port: int, extra: Iterable[str] = ()) -> frozenset[str]:
    """The ``Host`` values this server answers to: its address and loopback's names, with port.

    ``extra`` names more hosts (a proxy's name, for ``--allow-remote``), with
    or without their port.
    """
    names = {"localhost", "127.0.0.1", "[::1]", bound.lower(), *(h.lower() for h in extra)}
    try:
        if ipaddress.ip_address(bound).version == 6:
            names.add(f"[{bound.lower()}]")
    except ValueError:
        pass
    hosts = {f"{name}:{port}" for name in names} | {h.lower() for h in extra if ":" in h}
    if port == 80:  # a browser leaves the default port out
        hosts |= names
    return frozenset(hosts)


class Guard:
    """ASGI middleware: refuse an unknown ``Host`` (400); add the headers above to every answer."""

    def __init__(self, app: App, hosts: frozenset[str]) -> None:
        self.app = app
        self.hosts = hosts

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return

        async def send_guarded(message: MutableMapping[str, Any]) -> None:
            if message["type"] == "http.response.start":
                message["headers"] = [*message.get("headers", ()), *_HEADERS]
            await send(message)

        host = Headers(scope=scope).get("host", "").lower()
        if host not in self.hosts:
            refusal = PlainTextResponse(
                f"this inspector does not answer to the host {host!r}: open it at the address "
                "`reverie ui` printed (or pass --allow-host)",
                status_code=400,
            )
            await refusal(scope, receive, send_guarded)
            return
        await self.app(scope, receive, send_guarded)
