"""The inspector's pages and actions, each a few calls of the public client.

Every page asks the daemon afresh (one connection per request, as the CLI
does), so what it shows is what a host would get now. Names travel in the
query string, never in the path: a session may be called anything,
slashes included. Actions are POSTs carrying the form token (``gate``),
answered by a redirect back to the page they came from (so a reload does
not repeat them). A daemon error is shown as its code and message.
"""

from __future__ import annotations

import hmac
import math
from collections.abc import AsyncIterator, Awaitable, Callable
from contextlib import asynccontextmanager
from typing import Any
from urllib.parse import urlencode

from starlette.datastructures import FormData
from starlette.exceptions import HTTPException
from starlette.requests import Request
from starlette.responses import RedirectResponse, Response
from starlette.routing import Route

from reverie.config import InvalidArgument, NotFound

from ..client import AsyncClient
from ..protocol.frames import MAX_INT
from .charts import draw
from .gate import Gate, safe_next
from .health import SERIES
from .render import render

__all__ = ["ROUTES"]

#: Sessions per page of the sessions list, and messages per page of a session's history.
PAGE = 50
#: The most hits a search page shows (``?k=``): each may carry its turns.
MAX_K = 50
#: The newest scratchpad entries a scope page shows.
SCRATCH_SHOWN = 20
#: A turns lookup reads the history ``TURN_PAGE`` messages at a time, at most
#: ``TURN_PAGES`` pages a request: an id it does not find costs a bounded read,
#: and the page links to the next stretch.
TURN_PAGE, TURN_PAGES = 200, 10
_MODES = ("hybrid", "text", "vector")


@asynccontextmanager
async def _daemon(request: Request) -> AsyncIterator[AsyncClient]:
    async with AsyncClient(request.app.state.socket) as client:
        yield client


async def _form(request: Request) -> FormData:
    """The POSTed form, once its form token is checked (a forged form gets 403)."""
    form = await request.form()
    given = form.get("csrf")
    if not isinstance(given, str) or not hmac.compare_digest(given, request.state.csrf):
        raise HTTPException(403, "this form did not come from the inspector: reload the page")
    return form


def _back(request: Request, path: str, notice: str, **query: str) -> RedirectResponse:
    """Back to ``path`` with ``notice``, signed so that the page shows it (``gate``)."""
    gate: Gate = request.state.gate
    params = {**{k: v for k, v in query.items() if v}, "notice": notice, "sig": gate.sign(notice)}
    return RedirectResponse(f"{path}?{urlencode(params)}", status_code=303)


def _count(request: Request, name: str, default: int, top: int) -> int:
    """A whole number from 0 to ``top`` from the query string; anything else is a 400."""
    text = request.query_params.get(name, "") or str(default)
    try:
        value = int(text)
    except ValueError:  # not digits, or more digits than Python parses
        value = -1
    if not 0 <= value <= top:
        raise InvalidArgument(f"{name} must be a whole number from 0 to {top}, not {text[:40]!r}")
    return value


def _field(form: FormData, name: str) -> str:
    value = form.get(name)
    if not isinstance(value, str) or not value:
        raise InvalidArgument(f"the form has no {name}")
    return value


async def home(request: Request) -> Response:
    return RedirectResponse("/sessions", status_code=303)


async def sessions(request: Request) -> Response:
    """Sessions by name, ``PAGE`` at a time after ``after``, those named ``prefix…``."""
    prefix = request.query_params.get("prefix", "")
    after = request.query_params.get("after", "")
    async with _daemon(request) as client:
        page = await client.sessions(after=after, limit=PAGE + 1, prefix=prefix)
    more = len(page) > PAGE
    page = page[:PAGE]
    following = page[-1].name if more and page else ""
    return render(
        request, "sessions.html", sessions=page, prefix=prefix, after=after, following=following
    )


async def _session_info(client: AsyncClient, name: str) -> Any:
    found = await client.sessions(prefix=name, limit=1)
    if not found or found[0].name != name:
        raise HTTPException(404, f"there is no session {name!r} (forgotten, or never written)")
    return found[0]


async def session(request: Request) -> Response:
    """A session: its numbers, its tail (what ``context`` gives), a history page, its episodes."""
    name = request.query_params.get("name", "")
    after_seq = _count(request, "after_seq", 0, MAX_INT)
    async with _daemon(request) as client:
        info = await _session_info(client, name)
        context = await client.context(name)  # bounded as a host's is by default
        history = await client.history(name, after_seq=after_seq, limit=PAGE)
        view = await client.memory(info.scope, limit=200)
    episodes = [e for e in view.entries if e.session == name]
    return render(
        request,
        "session.html",
        info=info,
        context=context,
        history=history,
        after_seq=after_seq,
        next_seq=history[-1].seq if len(history) == PAGE else 0,
        episodes=episodes,
    )


async def scope(request: Request) -> Response:
    """A scope's memory: each fact with its date and sources, its history timeline, and
    its working memory (keys with their values, task, scratchpad, checkpoints)."""
    name = request.query_params.get("name", "")
    async with _daemon(request) as client:
        facts = await client.facts(name)
        view = await client.memory(name, limit=100)
        keys = await client.wm_list(name, values=True)
        try:
            task = await client.task_get(name)
        except NotFound:
            task = None
        scratch = await client.scratch_get(name, last=SCRATCH_SHOWN)
        checkpoints = await client.checkpoint_list(name)
    return render(
        request,
        "scope.html",
        scope=name,
        facts=facts,
        view=view,
        keys=keys,
        task=task,
        scratch=scratch,
        checkpoints=checkpoints,
    )


async def turns(request: Request) -> Response:
    """The turns a fact or episode came from: ``ids`` of ``session``, found in its history.

    One request reads at most ``TURN_PAGES`` pages after ``after_seq``; what
    it has not found yet, the page offers to look for further on.
    """
    name = request.query_params.get("session", "")
    wanted = {i for i in request.query_params.get("ids", "").split(",") if i}
    found: list[Any] = []
    start = after = _count(request, "after_seq", 0, MAX_INT)
    read_all = False
    async with _daemon(request) as client:
        for _ in range(TURN_PAGES):
            page = await client.history(name, after_seq=after, limit=TURN_PAGE)
            found += [m for m in page if m.id in wanted]
            read_all = len(page) < TURN_PAGE
            if page:
                after = page[-1].seq
            if read_all or len(found) == len(wanted):
                break
    missing = sorted(wanted - {m.id for m in found})
    return render(
        request,
        "turns.html",
        session=name,
        turns=found,
        missing=missing,
        read_all=read_all,
        start=start,
        last=after,
    )


def _min_score(text: str) -> float | None:
    """The form's threshold; empty: the daemon's own (``index.min_score``)."""
    if not text:
        return None
    try:
        value = float(text)
    except ValueError:
        value = math.nan
    if not 0 <= value <= 1:
        raise InvalidArgument(f"min score must be a number from 0 to 1, not {text!r}")
    return value


async def search(request: Request) -> Response:
    """A search as a host makes it, each hit with its signals; none named: every scope."""
    q = request.query_params
    query, mode = q.get("q", ""), q.get("mode", "hybrid")
    form = {k: q.get(k, "") for k in ("q", "scope", "session", "min_score")}
    form["mode"] = mode if mode in _MODES else "hybrid"
    reply = None
    if query:
        min_score = _min_score(form["min_score"])
        async with _daemon(request) as client:
            reply = await client.search(
                query,
                scope=form["scope"] or None,
                session=form["session"] or None,
                everywhere=not (form["scope"] or form["session"]),
                mode=form["mode"],  # type: ignore[arg-type]
                min_score=min_score,
                k=_count(request, "k", 10, MAX_K) or 10,
            )
    return render(request, "search.html", form=form, reply=reply, modes=_MODES)


async def health(request: Request) -> Response:
    """Charts of the sampled status, and the status now."""
    sampler = request.app.state.sampler
    async with _daemon(request) as client:
        status = await client.status()
    samples = list(sampler.samples)
    charts = [(chart.title, draw(chart, samples)) for chart in SERIES]
    return render(request, "health.html", status=status, charts=charts, problem=sampler.problem)


async def sign_in(request: Request) -> Response:
    """The token, given by hand: right, the session cookie; wrong, the form again (401)."""
    if request.method == "GET":
        return render(
            request,
            "sign_in.html",
            next=request.query_params.get("next", "/"),
            wrong=False,
            http_status=401,
        )
    form = await request.form()
    given, target = form.get("token"), safe_next(str(form.get("next") or "/"))
    gate: Gate = request.state.gate
    if isinstance(given, str) and gate.token_ok(given):
        return gate.signed_in(target)
    return render(request, "sign_in.html", next=target, wrong=True, http_status=401)


async def forget_confirm(request: Request) -> Response:
    name = request.query_params.get("session", "")
    async with _daemon(request) as client:
        info = await _session_info(client, name)
    return render(request, "forget.html", info=info)


async def forget(request: Request) -> Response:
    name = _field(await _form(request), "session")
    async with _daemon(request) as client:
        deleted = await client.forget(name)
    notice = f"forgot {name}: {deleted} messages and all derived from them"
    return _back(request, "/sessions", notice)


async def consolidate(request: Request) -> Response:
    name = _field(await _form(request), "session")
    async with _daemon(request) as client:
        await client.consolidate(name)
    return _back(request, "/session", "consolidation asked for; reload to see it", name=name)


async def _on_scope(
    request: Request, fields: tuple[str, ...], act: Callable[..., Awaitable[Any]], notice: str
) -> Response:
    """A fact action: the form's scope and ``fields``, ``act(client, scope, *fields)``, back."""
    form = await _form(request)
    scope, *values = (_field(form, name) for name in ("scope", *fields))
    async with _daemon(request) as client:
        await act(client, scope, *values)
    return _back(request, "/scope", notice, name=scope)


async def fact_add(request: Request) -> Response:
    return await _on_scope(request, ("text",), lambda c, s, t: c.fact_add(s, t), "fact added")


async def fact_edit(request: Request) -> Response:
    edit = lambda c, s, i, t: c.fact_update(s, i, t)  # noqa: E731
    return await _on_scope(request, ("id", "text"), edit, "fact saved")


async def fact_delete(request: Request) -> Response:
    return await _on_scope(request, ("id",), lambda c, s, i: c.fact_delete(s, i), "fact deleted")


ROUTES = [
    Route("/", home),
    Route("/sessions", sessions),
    Route("/session", session),
    Route("/scope", scope),
    Route("/turns", turns),
    Route("/search", search),
    Route("/health", health),
    Route("/sign-in", sign_in, methods=["GET", "POST"]),
    Route("/forget", forget_confirm, methods=["GET"]),
    Route("/forget", forget, methods=["POST"]),
    Route("/consolidate", consolidate, methods=["POST"]),
    Route("/fact/add", fact_add, methods=["POST"]),
    Route("/fact/edit", fact_edit, methods=["POST"]),
    Route("/fact/delete", fact_delete, methods=["POST"]),
]
