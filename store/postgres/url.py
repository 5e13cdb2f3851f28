"""A Postgres URL fit to show: its password removed, for logs, ``status`` and errors.

A store URL (``postgresql://user:secret@host/db?password=...``) or a libpq
conninfo (``host=... password=secret``) may carry a password; libpq repeats
the conninfo in some of its errors. Nothing reverie prints goes out without
passing through ``redact_url`` (a URL) or ``redact_secrets`` (any text).
"""

from __future__ import annotations

import re
from urllib.parse import unquote, urlsplit

__all__ = ["redact_secrets", "redact_url"]

#: ``password=secret`` or ``password = 'it\'s secret'`` in a conninfo or a message.
_PASSWORD_PAIR = re.compile(r"""password\s*=\s*(?:'(?:[^'\\]|\\.)*'?|[^\s&]*)""", re.I)
#: ``scheme://user:secret@`` in a URL: the user is kept, the secret goes.
_URL_SECRET = re.compile(r"(\b[a-z][a-z0-9+.-]*://[^\s/:@]*):[^\s@/]*@", re.I)


def redact_secrets(text: str) -> str:
    """``text`` with every password it may hold (URL userinfo, conninfo pair) redacted."""
    return _URL_SECRET.sub(r"\1@", _PASSWORD_PAIR.sub("password=<redacted>", text))


def redact_url(url: str) -> str:
    """``url`` without its password, neither in the userinfo nor in the query string;
    everything else is kept as written. A conninfo (``key=value ...``) has its
    ``password`` pair redacted."""
    if "://" not in url:
        return redact_secrets(url)
    parts = urlsplit(url)
    netloc = parts.netloc
    if "@" in netloc:
        userinfo, _, hosts = netloc.rpartition("@")
        user = userinfo.partition(":")[0]
        netloc = f"{user}@{hosts}" if user else hosts
    query = "&".join(
        pair
        for pair in parts.query.split("&")
        if pair and unquote(pair.partition("=")[0]) != "password"
    )
    # Not urlunsplit: it drops the empty host of ``postgresql:///db?host=/socket/dir``.
    shown = f"{parts.scheme}://{netloc}{parts.path}"
    return shown + (f"?{query}" if query else "") + (f"#{parts.fragment}" if parts.fragment else "")
