"""The inspector as an ASGI app: the pages behind the gate, the sampler beside them.

``build_app`` is what ``reverie ui`` serves with uvicorn (the server the
MCP SDK already brings). A daemon error becomes a page with its code and
message: 404 for a name that does not exist, 503 when the daemon cannot be
reached (with what to do), 400 for the rest. ``guard`` wraps it all: the
Host it answers to, and the headers that keep it out of other pages' frames.
"""

from __future__ import annotations

from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from pathlib import Path

import anyio
from starlette.applications import Starlette
from starlette.exceptions import HTTPException
from starlette.requests import Request
from starlette.responses import Response

from reverie.config import ConnectionLost, NotFound, ReverieError

from .gate import Gate, without_token
from .guard import Guard
from .health import Sampler
from .pages import ROUTES
from .render import render

__all__ = ["build_app", "serve_ui"]


def _refused(request: Request) -> Response:
    return render(
        request, "sign_in.html", next=without_token(request), wrong=False, http_status=401
    )


async def _daemon_error(request: Request, exc: Exception) -> Response:
    assert isinstance(exc, ReverieError)
    status = 404 if isinstance(exc, NotFound) else 503 if isinstance(exc, ConnectionLost) else 400
    return render(request, "error.html", code=exc.code, message=exc.message, http_status=status)


async def _http_error(request: Request, exc: Exception) -> Response:
    assert isinstance(exc, HTTPException)
    code = "not_found" if exc.status_code == 404 else "refused"
    return render(request, "error.html", code=code, message=exc.detail, http_status=exc.status_code)


def build_app(
    socket: Path,
    token: str,
    *,
    hosts: frozenset[str],
    interval: float = 5.0,
    once: str | None = None,
) -> Guard:
    """The inspector of the daemon at ``socket``, for holders of ``token``, at ``hosts``.

    ``hosts`` are the ``Host`` headers it answers to (``guard.allowed_hosts``);
    ``once`` a code that signs in one browser, once (``gate.Gate``).
    """
    sampler = Sampler(socket, interval)

    @asynccontextmanager
    async def lifespan(app: Starlette) -> AsyncIterator[None]:
        async with anyio.create_task_group() as tasks:
            tasks.start_soon(sampler.run)
            yield
            tasks.cancel_scope.cancel()

    app = Starlette(
        routes=ROUTES,
        lifespan=lifespan,
        exception_handlers={ReverieError: _daemon_error, HTTPException: _http_error},
    )
    app.state.socket = socket
    app.state.sampler = sampler
    return Guard(Gate(app, token, _refused, once), hosts)


def serve_ui(app: Guard, host: str, port: int) -> None:
    """Serve ``app`` until the process is stopped."""
    import uvicorn

    config = uvicorn.Config(app, host=host, port=port, log_level="warning")
    anyio.run(uvicorn.Server(config).serve)
