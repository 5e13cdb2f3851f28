"""Wire frames for search: ``search`` over the index, ``reindex`` to rebuild it, and
``embed``, the index's embedder lent to a host that ranks its own texts by meaning.

Same conventions as the package (which folds these into its ``Request`` and
``Reply`` unions). A reply has the same tag as its request. Reindex
progress is read with ``status`` (its ``index.reindex`` entry).

This module imports neither the actors nor the store.
"""

from __future__ import annotations

from collections.abc import Iterator
from typing import Annotated, Literal

import msgspec

from .frames import Data, Frame

#: How ``search`` ranks: by both signals, by meaning alone, or by words alone.
Mode = Literal["hybrid", "vector", "text"]
#: The most hits one search returns: ``reverie.store.search_query.MAX_K`` (which the
#: protocol cannot import; tests/daemon/test_schema_validation.py checks they agree).
MAX_K = 1000
#: The most texts one ``embed`` embeds (a host embeds more in several requests).
MAX_EMBED_TEXTS = 256

__all__ = [
    "MAX_EMBED_TEXTS",
    "MAX_K",
    "SEARCH_REQUESTS",
    "Embed",
    "EmbedReply",
    "Mode",
    "Reindex",
    "ReindexReply",
    "Search",
    "SearchHitView",
    "SearchReply",
    "SearchReplyFrame",
    "SearchRequest",
]


class SearchHitView(Data):
    """A found message, history episode or memory fact.

    ``score`` lies in [0, 1] and means the same in every search, so a host
    can threshold it; ``words`` and ``meaning`` are the two signals behind it
    (0 where that signal did not find the hit). ``via`` is set on a message
    that an episode or fact hit brought to its place, and on a fact that a
    message hit brought: that hit's ``uid`` (the brought hit carries its
    score). ``until`` is the UTC day (``YYYY-MM-DD``) a claim stopped being
    true, on a retired fact and a turn that stated one; "" on what is current.
    """

    kind: str
    text: str
    score: float
    scope: str
    session: str
    ts: float
    message_ids: list[str]
    source: str
    uid: str = ""
    words: float = 0.0
    meaning: float = 0.0
    via: str = ""
    until: str = ""


class Search(Frame, tag="search"):
    """The ``k`` best docs for ``query`` matching every filter (``since <= ts < until``).

    ``mode`` is ``hybrid``, ``vector`` or ``text``. Every acknowledged
    message is searched by its words; ``fresh`` is accepted from older
    clients and has no effect. Hits scoring below ``min_score`` are left
    out; None is the daemon's ``index.min_score``. A search names a
    ``scope`` or a ``session``, or says ``everywhere`` (every scope of the
    daemon, the operator's view); one that does neither is refused.
    """

    query: str
    scope: str | None = None
    session: str | None = None
    kinds: list[str] | None = None
    k: Annotated[int, msgspec.Meta(ge=1, le=MAX_K)] = 10
    since: float | None = None
    until: float | None = None
    mode: Mode = "hybrid"
    fresh: bool = True
    min_score: float | None = None
    everywhere: bool = False


class Reindex(Frame, tag="reindex"):
    """Rebuild the index from the message log and the memory tree, then swap it in."""


class SearchReply(Frame, tag="search"):
    """The hits, best first (the reply reads as their list), and the vector signal's gap.

    ``unembedded`` counts the messages matching the search's filters that
    the vector index has not embedded yet: they were ranked by their words
    alone. Scores lie in [0, 1] in every mode and mean the same from one
    search to the next.
    """

    hits: list[SearchHitView]
    unembedded: int = 0

    def __iter__(self) -> Iterator[SearchHitView]:
        return iter(self.hits)

    def __len__(self) -> int:
        return len(self.hits)

    def __getitem__(self, index: int) -> SearchHitView:
        return self.hits[index]


class ReindexReply(Frame, tag="reindex"):
    """``started`` is False when a rebuild was already running."""

    started: bool


class Embed(Frame, tag="embed"):
    """Each text's vector from the embedder the search index uses (``embeddings``), so a
    host ranks values the index does not hold (a LangGraph store's items) by the same
    meaning, with no model of its own."""

    texts: Annotated[list[str], msgspec.Meta(max_length=MAX_EMBED_TEXTS)]


class EmbedReply(Frame, tag="embed"):
    """One unit-length vector per text, in order; ``model`` names the embedder."""

    vectors: list[list[float]]
    dims: int
    model: str


SearchRequest = Search | Reindex | Embed
SearchReplyFrame = SearchReply | ReindexReply | EmbedReply
SEARCH_REQUESTS = (Search, Reindex, Embed)
