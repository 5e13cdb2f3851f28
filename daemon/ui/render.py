"""Pages from the templates beside this module, every value escaped.

Session names, memory and turns are whatever hosts and models wrote, so
the Jinja environment escapes everything it prints (``autoescape``); only
the charts, drawn here from numbers, are marked safe. A notice is shown
only with the inspector's signature (``gate``).
"""

from __future__ import annotations

import datetime
import json
from pathlib import Path
from typing import Any
from urllib.parse import urlencode

import jinja2
from starlette.requests import Request
from starlette.responses import HTMLResponse

from .guard import CONFIRM_DELETE

__all__ = ["render"]

_ENV = jinja2.Environment(
    loader=jinja2.FileSystemLoader(Path(__file__).parent / "templates"),
    autoescape=True,
    undefined=jinja2.StrictUndefined,
)


def _when(ts: float) -> str:
    """A Unix time as UTC to the minute (0: never)."""
    if not ts:
        return "never"
    return datetime.datetime.fromtimestamp(ts, datetime.UTC).strftime("%Y-%m-%d %H:%M")


def _link(path: str, **query: Any) -> str:
    """``path`` with ``query`` encoded (names may hold any character)."""
    params = {k: v for k, v in query.items() if v not in (None, "")}
    return f"{path}?{urlencode(params)}" if params else path


def _shown(value: Any) -> str:
    """A working-memory value as JSON, cut to a line's worth (keys sorted: a LangGraph
    store's ``value`` comes before its ``vectors``)."""
    text = json.dumps(value, sort_keys=True, ensure_ascii=False, default=str)
    return text if len(text) <= _SHOWN_CHARS else text[: _SHOWN_CHARS - 1] + "…"


_SHOWN_CHARS = 300
_ENV.filters["when"] = _when
_ENV.filters["shown"] = _shown
_ENV.globals["link"] = _link


def _notice(request: Request) -> str:
    """The page's ``?notice=``, if the inspector itself signed it (else nothing)."""
    notice, sig = request.query_params.get("notice", ""), request.query_params.get("sig", "")
    return notice if notice and request.state.gate.issued(notice, sig) else ""


def render(
    request: Request, template: str, *, http_status: int = 200, **values: Any
) -> HTMLResponse:
    """``template`` filled with ``values``, the form token and the page's notice."""
    page = _ENV.get_template(template).render(
        request=request,
        csrf=request.state.csrf,
        notice=_notice(request),
        confirm_delete=CONFIRM_DELETE,
        **values,
    )
    return HTMLResponse(page, status_code=http_status)
