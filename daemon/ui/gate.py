"""The inspector's door: no page and no action without the token.

The inspector can read every session and forget any of them, so it asks for
as much as the strictest door (MCP over HTTP): the token of ``reverie ui``
(``door_token``). A browser cannot send a bearer header, so the token is
given once, on the sign-in form or as ``?token=`` in a link, or a one-time
code ``reverie ui`` prints in its link (``?once=``, good for one sign-in, so
the terminal's scrollback holds nothing that opens the inspector later), and
the answer is a cookie: ``HttpOnly`` (no script reads it), ``SameSite=Strict`` (no other
site's page sends it) and holding an HMAC of the token, not the token. A
script may send ``Authorization: Bearer <token>`` instead. Every comparison
takes the same time whatever the guess.

Each form also carries a second HMAC (``csrf``) that the pages check on
every POST: a page of another origin that somehow got the cookie sent
still cannot know it. A third signs the notices an action leaves for the
page it redirects to (``?notice=…&sig=…``): a link made elsewhere cannot
put words of its own on an inspector page.
"""

from __future__ import annotations

import hashlib
import hmac
from collections.abc import Awaitable, Callable, MutableMapping
from typing import Any
from urllib.parse import urlencode

from starlette.requests import Request
from starlette.responses import RedirectResponse, Response

__all__ = ["COOKIE", "SIGN_IN", "Gate", "safe_next", "without_token"]

COOKIE = "reverie_ui"
#: The one path open without the token: where it is given.
SIGN_IN = "/sign-in"

Scope = MutableMapping[str, Any]
Receive = Callable[[], Awaitable[MutableMapping[str, Any]]]
Send = Callable[[MutableMapping[str, Any]], Awaitable[None]]
App = Callable[[Scope, Receive, Send], Awaitable[None]]


def _derive(token: str, purpose: str) -> str:
    return hmac.new(token.encode(), purpose.encode(), hashlib.sha256).hexdigest()


def safe_next(path: str | None) -> str:
    """A path on this site to go back to after signing in (never another host)."""
    if not path or not path.startswith("/") or path.startswith("//") or "\\" in path:
        return "/"
    return path


class Gate:
    """ASGI middleware: a request passes with the cookie, the bearer header or ``?token=``.

    Any other is answered by ``refuse(request)`` (the sign-in page, 401).
    ``scope["state"]`` gets ``gate`` (the sign-in form checks a token with
    it) and ``csrf`` (what every form carries).
    """

    def __init__(
        self,
        app: App,
        token: str,
        refuse: Callable[[Request], Response],
        once: str | None = None,
    ) -> None:
        self.app = app
        self._once = once  # the one-time sign-in code, until it is used
        self.refuse = refuse
        self.cookie = _derive(token, "reverie ui session")
        self.csrf = _derive(token, "reverie ui form")
        self._notices = _derive(token, "reverie ui notice")
        self.bearer = f"Bearer {token}"
        self.token = token

    def sign(self, notice: str) -> str:
        """The signature of a notice this inspector issued."""
        return hmac.new(self._notices.encode(), notice.encode(), hashlib.sha256).hexdigest()

    def issued(self, notice: str, sig: str) -> bool:
        """Whether ``sig`` is this inspector's signature of ``notice``."""
        return hmac.compare_digest(sig.encode(), self.sign(notice).encode())

    def token_ok(self, given: str) -> bool:
        return hmac.compare_digest(given.encode(), self.token.encode())

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] == "lifespan":
            await self.app(scope, receive, send)
            return
        if scope["type"] != "http":  # no websockets here
            return
        scope.setdefault("state", {}).update(csrf=self.csrf, gate=self)
        request = Request(scope)
        if scope["path"] == SIGN_IN or self._signed_in(request):
            await self.app(scope, receive, send)
            return
        given = request.query_params.get("token")
        once = request.query_params.get("once")
        if request.method == "GET" and (
            (given is not None and self.token_ok(given))
            or (once is not None and self._redeem(once))
        ):
            response = self.signed_in(without_token(request))
        else:
            response = self.refuse(request)
        await response(scope, receive, send)

    def _redeem(self, once: str) -> bool:
        """Whether ``once`` is the one-time code; it is then used up (no await between)."""
        if self._once is None or not hmac.compare_digest(once.encode(), self._once.encode()):
            return False
        self._once = None
        return True

    def signed_in(self, to: str) -> Response:
        """Go to ``to`` holding the session cookie."""
        response = RedirectResponse(safe_next(to), status_code=303)
        response.set_cookie(COOKIE, self.cookie, httponly=True, samesite="strict", path="/")
        return response

    def _signed_in(self, request: Request) -> bool:
        cookie = request.cookies.get(COOKIE, "")
        header = request.headers.get("authorization", "")
        return hmac.compare_digest(cookie.encode(), self.cookie.encode()) or hmac.compare_digest(
            header.encode(), self.bearer.encode()
        )


def without_token(request: Request) -> str:
    """The request's path and query, less ``token`` and ``once`` (not to stay in the history)."""
    query = [(k, v) for k, v in request.query_params.multi_items() if k not in ("token", "once")]
    return request.url.path + (f"?{urlencode(query)}" if query else "")
