"""Search operations: ``search`` and ``reindex``, answered by the indexer.

Each runs as a task of the connection (never in a session's mailbox), and
the indexer does its LanceDB and embedding work in worker threads, so a
search never blocks the event loop nor waits for an LLM.
"""

from __future__ import annotations

import math
from typing import Any

import msgspec
import trio

from reverie.actors import validate_name
from reverie.actors.search import Indexer, SearchQuery, SearchResult
from reverie.config import InvalidArgument, NotFound

from .. import protocol as p
from ..protocol import search as s
from .calls import Replier, run

__all__ = ["SearchHandlers"]


class SearchHandlers:
    """``indexer`` is None when ``index.enabled`` is false: every op then says so.

    ``min_score`` is the threshold of a search that names none (``index.min_score``).
    """

    def __init__(self, indexer: Indexer | None, *, min_score: float = 0.0) -> None:
        self.indexer = indexer
        self.min_score = min_score

    async def dispatch(self, request: p.Request, replier: Replier, nursery: trio.Nursery) -> None:
        rid = request.rid
        match request:
            case s.Search():
                reply = replier(rid, lambda found: _search_reply(rid, found))
                nursery.start_soon(run, reply, self._search, request)
            case s.Reindex():
                reply = replier(rid, lambda started: s.ReindexReply(rid=rid, started=started))
                nursery.start_soon(run, reply, self._reindex)
            case s.Embed():
                nursery.start_soon(
                    run, replier(rid, lambda embedded: embedded), self._embed, request
                )

    def _indexer(self) -> Indexer:
        if self.indexer is None:
            raise NotFound("search is disabled on this daemon (index.enabled = false)")
        return self.indexer

    async def _search(self, request: s.Search) -> SearchResult:
        indexer = self._indexer()
        if request.scope is None and request.session is None and not request.everywhere:
            raise InvalidArgument(
                "a search names a scope or a session; to search every scope of the daemon"
                " (every user's memory), say so: everywhere=True (reverie search --everywhere)"
            )
        if request.scope is not None:
            validate_name("scope", request.scope)
        if request.session is not None:
            validate_name("session", request.session)
        for bound in (request.since, request.until):
            if bound is not None and not math.isfinite(bound):
                raise InvalidArgument("since and until must be finite timestamps")
        if request.min_score is None:
            request = msgspec.structs.replace(request, min_score=self.min_score)
        return await indexer.search(msgspec.convert(request, SearchQuery, from_attributes=True))

    async def _embed(self, request: s.Embed) -> s.EmbedReply:
        indexer = self._indexer()
        vectors = await indexer.embed(request.texts)
        embedder = indexer.embedder
        return s.EmbedReply(
            rid=request.rid, vectors=vectors, dims=embedder.dimension, model=embedder.model_id
        )

    async def _reindex(self) -> bool:
        return await self._indexer().start_reindex()

    async def status(self) -> dict[str, Any]:
        if self.indexer is None:
            return {"enabled": False}
        return await self.indexer.status()


def _search_reply(rid: int, found: SearchResult) -> s.SearchReply:
    hits = [msgspec.convert(h, s.SearchHitView, from_attributes=True) for h in found.hits]
    return s.SearchReply(rid=rid, hits=hits, unembedded=found.unembedded)
