"""What a search asks (``SearchQuery``), its modes and kinds, and the bounds on a hostile query.

``SearchQuery`` is the one shape of a search inside the daemon: the server
converts the wire request into it once, and the indexer, the messages'
full-text index and the LanceDB index all read it. Every search path checks
a query here first (``checked_query``), so they reject the same arguments
with the same ``InvalidArgument`` and clip the same text.
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any, Literal

import msgspec

from reverie.config import InvalidArgument

from .ranking import text_terms

__all__ = [
    "KINDS",
    "MAX_K",
    "MAX_QUERY_CHARS",
    "Mode",
    "SearchQuery",
    "candidate_depth",
    "checked_query",
    "fts_query",
]

Mode = Literal["hybrid", "vector", "text"]
#: What the index holds: logged messages, history episodes, ``MEMORY.md`` facts.
KINDS = frozenset({"message", "episode", "fact"})
# Bounds for hostile queries: MiniLM reads at most 256 tokens anyway, and a
# BM25 query of more than a few dozen terms ranks no better, only slower.
MAX_QUERY_CHARS = 2000
MAX_QUERY_TERMS = 64
MAX_K = 1000


class SearchQuery(msgspec.Struct, frozen=True, kw_only=True):
    """The ``k`` best docs for ``query`` matching every filter (``since <= ts < until``).

    ``kinds`` None searches every kind; ``mode`` picks the signals: words
    and meaning (``hybrid``), or one of them. Not checked on construction:
    ``checked_query`` (run by every search) rejects bad values.
    """

    query: str
    scope: str | None = None
    session: str | None = None
    kinds: tuple[str, ...] | None = None
    k: int = 10
    since: float | None = None
    until: float | None = None
    mode: Mode = "hybrid"
    #: Hits scoring below this are left out (scores mean the same in every search).
    min_score: float = 0.0

    def filters(self) -> dict[str, Any]:
        """The filters as keyword arguments: ``scope``, ``session``, ``since``, ``until``."""
        return {
            "scope": self.scope,
            "session": self.session,
            "since": self.since,
            "until": self.until,
        }


def checked_query(
    query: str, *, kinds: Iterable[str] | None, mode: str, k: int, min_score: float = 0.0
) -> str:
    """The query clipped to ``MAX_QUERY_CHARS`` without NULs; bad arguments are InvalidArgument."""
    if not 0.0 <= min_score <= 1.0:  # also refuses NaN
        raise InvalidArgument(f"min_score must be between 0 and 1, not {min_score}")
    if mode not in ("hybrid", "vector", "text"):
        raise InvalidArgument(f"unknown search mode {mode!r}; use hybrid, vector or text")
    if not 1 <= k <= MAX_K:
        raise InvalidArgument(f"k must be between 1 and {MAX_K}, not {k}")
    unknown = set(kinds or ()) - KINDS
    if unknown:
        raise InvalidArgument(f"unknown kind(s) {sorted(unknown)}; use {sorted(KINDS)}")
    text = query[:MAX_QUERY_CHARS].replace("\x00", " ")
    if not text.strip():
        raise InvalidArgument("the search query is empty")
    return text


def candidate_depth(k: int) -> int:
    """How many hits of each signal hybrid search fuses to return ``k``.

    Fixed for small ``k`` so the normalisation, and so the order, of the
    first hits does not change with ``k``.
    """
    return min(MAX_K, max(k, 50))


def fts_query(query: str) -> str:
    """The query as plain words: no operator, quote or NUL reaches the FTS parser."""
    return " ".join(text_terms(query)[:MAX_QUERY_TERMS])
