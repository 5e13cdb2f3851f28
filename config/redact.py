"""One scrubber for every error and log line that can carry a URL, a header or a body.

What it hides: a URL's userinfo (``http://user:pass@host`` keeps only the
host), the token after ``Bearer``/``Basic`` (so ``Authorization`` headers
echoed back by a server), API keys of the ``sk-…`` shape and the value of
an ``api_key``/``apikey``/``token``/``password``/``secret`` field, and any
secret the caller names (a configured API key, whatever its shape). The
rest of the text is kept, so the message still says what went wrong.
"""

from __future__ import annotations

import logging
import re
import sys
from collections.abc import Iterable

__all__ = ["MASK", "ScrubbingFormatter", "log_to_stderr", "scrub"]

MASK = "***"

_PATTERNS = (
    # scheme://user:pass@host -> scheme://***@host
    (re.compile(r"(?i)\b([a-z][a-z0-9+.-]*://)[^/\s@]+@"), rf"\1{MASK}@"),
    # Authorization: Bearer xyz / Basic xyz
    (re.compile(r"(?i)\b(bearer|basic)(\s+)[A-Za-z0-9._~+/=-]+"), rf"\1\2{MASK}"),
    # sk-… style API keys anywhere
    (re.compile(r"\bsk-[A-Za-z0-9_-]{6,}"), f"sk-{MASK}"),
    # "api_key": "…", api_key=…, token: …
    (
        re.compile(
            r"(?i)([\"']?\b(?:api[_-]?key|access[_-]?token|token|password|secret)[\"']?\s*[:=]\s*[\"']?)"
            r"[^\s\"'&,}]+"
        ),
        rf"\1{MASK}",
    ),
)


def scrub(text: str, secrets: Iterable[str | None] = ()) -> str:
    """``text`` with credentials masked (see the module docstring); ``secrets`` verbatim too."""
    for secret in secrets:
        if secret:
            text = text.replace(secret, MASK)
    for pattern, replacement in _PATTERNS:
        text = pattern.sub(replacement, text)
    return text


class ScrubbingFormatter(logging.Formatter):
    """Formats a log record, traceback included, then ``scrub``s it: every line a
    library logs too (httpx logs each request's URL, userinfo and all)."""

    def format(self, record: logging.LogRecord) -> str:
        return scrub(super().format(record))


def log_to_stderr(level: int) -> None:
    """Send every log line of the process to stderr through the scrubber: the one
    setup of the daemon and of ``reverie mcp``, so neither door leaks a secret."""
    handler = logging.StreamHandler(sys.stderr)
    handler.setFormatter(ScrubbingFormatter("%(asctime)s %(levelname)s %(name)s: %(message)s"))
    logging.basicConfig(level=level, handlers=[handler])
