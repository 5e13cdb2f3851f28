"""A Postgres URL fit to show: its secrets removed, for logs, ``status`` and errors.

A store URL (``postgresql://user:secret@host/db?password=...``) or a libpq
conninfo (``host=... password=secret``) may carry a password; libpq repeats
the conninfo in some of its errors. Nothing reverie prints goes out without
passing through ``redact_url`` (a URL) or ``redact_secrets`` (any text).
"""

from __future__ import annotations

import re
from urllib.parse import unquote, urlsplit

__all__ = ["SECRET_PARAMETERS", "redact_secrets", "redact_url"]

#: The connection parameters whose value is a secret (libpq's, PostgreSQL 18): a key's
#: password, the server password, an OAuth client's secret. Paths (``passfile``,
#: ``sslkey``) are shown; the files they name are never read by reverie.
SECRET_PARAMETERS = frozenset({"password", "sslpassword", "oauth_client_secret"})
#: ``password=secret`` or ``sslpassword = 'it\'s secret'`` in a conninfo or a message.
_PASSWORD_PAIR = re.compile(
    r"""\b(ssl)?(password|oauth_client_secret)\s*=\s*(?:'(?:[^'\\]|\\.)*'?|[^\s&]*)""", re.I
)
#: ``scheme://user:secret@`` in a URL: the user is kept, the secret goes.
_URL_SECRET = re.compile(r"(\b[a-z][a-z0-9+.-]*://[^\s/:@]*):[^\s@/]*@", re.I)


def redact_secrets(text: str) -> str:
    """``text`` with every password it may hold (URL userinfo, conninfo pair) redacted."""
    return _URL_SECRET.sub(r"\1@", _PASSWORD_PAIR.sub(r"\1\2=<redacted>", text))


def redact_url(url: str) -> str:
    """``url`` without its password, neither in the userinfo nor in the query string;
    everything else is kept as written. A conninfo (``key=value ...``) has its
    ``password`` pair redacted."""
    if "://" not in url:
        return redact_secrets(url)
    try:
        parts = urlsplit(url)
    except ValueError:  # malformed (``[`` unclosed): shown as text, its secrets redacted
        return redact_secrets(url)
    netloc = parts.netloc
    if "@" in netloc:
        userinfo, _, hosts = netloc.rpartition("@")
        user = userinfo.partition(":")[0]
        netloc = f"{user}@{hosts}" if user else hosts
    query = "&".join(
        pair
        for pair in parts.query.split("&")
        if pair and unquote(pair.partition("=")[0]) not in SECRET_PARAMETERS
    )
    # Not urlunsplit: it drops the empty host of ``postgresql:///db?host=/socket/dir``.
    shown = f"{parts.scheme}://{netloc}{parts.path}"
    return shown + (f"?{query}" if query else "") + (f"#{parts.fragment}" if parts.fragment else "")
