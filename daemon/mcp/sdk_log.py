"""What the MCP SDK logs about clients newer than it, said in one debug line.

A client of a newer protocol revision (the OpenAI Agents SDK on mcp 2.x,
revision 2026-07-28) first asks ``server/discover``; the SDK this server
runs (mcp 1.x) does not know that method, answers "invalid params" (and the
client falls back to ``initialize``), but first logs the whole validation
error of its request union on the root logger at WARNING: about ninety
lines per connection, about nothing the operator can act on. This filter
on the root logger turns each such record into one debug line naming the
method, and drops it unless debug logging is on.
"""

from __future__ import annotations

import logging
import re
from pathlib import PurePath

__all__ = ["quiet_unknown_requests"]

#: The SDK's module that logs them, and how its messages start.
_SOURCE = ("mcp", "shared", "session.py")
_PREFIXES = ("Failed to validate request", "Failed to validate notification")
#: The method named in the first validation error (``input_value='server/discover'``).
_METHOD = re.compile(r"input_value='([^']{1,100})'")


class _UnknownRequests(logging.Filter):
    def filter(self, record: logging.LogRecord) -> bool:
        if PurePath(record.pathname).parts[-3:] != _SOURCE:
            return True
        text = str(record.msg)
        if not text.startswith(_PREFIXES):
            return True
        if not logging.getLogger().isEnabledFor(logging.DEBUG):
            return False
        method = _METHOD.search(text)
        record.msg = "an MCP client sent %s, which this server's MCP version does not know"
        record.args = (repr(method.group(1)) if method else "a message",)
        record.levelno, record.levelname = logging.DEBUG, "DEBUG"
        return True


def quiet_unknown_requests() -> None:
    """Install the filter on the root logger (the SDK logs these with ``logging.warning``)."""
    logging.getLogger().addFilter(_UnknownRequests())
