"""Search client methods, mixed into ``Client`` and ``AsyncClient`` via ``api.Api``.

Each method builds one ``Call`` (``calls.op``), typed with the reply
Struct. Both calls are safe to repeat after a lost connection (a search reads; a
second ``reindex`` while one runs only answers ``False``), so both are
retried after a daemon restart.

This module imports neither the actors nor the store.
"""

from __future__ import annotations

from collections.abc import Iterable

from ..protocol import search as s
from .calls import Call, op

__all__ = ["SearchApi"]


class SearchApi:
    """Hybrid (vector + BM25) search over messages, history episodes and memory facts."""

    def _rid(self) -> int:
        raise NotImplementedError

    @op
    def search(
        self,
        query: str,
        *,
        scope: str | None = None,
        session: str | None = None,
        kinds: Iterable[str] | None = None,
        k: int = 10,
        since: float | None = None,
        until: float | None = None,
        mode: s.Mode = "hybrid",
        min_score: float | None = None,
        everywhere: bool = False,
    ) -> Call[s.SearchReply]:
        """A ``SearchReply``: the ``k`` best hits (``SearchHitView``), best first.

        The reply reads as the list of its hits; ``unembedded`` says how many
        searched messages were ranked by their words alone (the vector index
        has not embedded them yet). A message is found by its words as soon
        as its append was acknowledged. ``kinds`` picks among ``message``,
        ``episode`` and ``fact``; ``mode`` is ``hybrid``, ``vector`` or
        ``text``. Scores lie in [0, 1] and mean the same in every search:
        hits below ``min_score`` are left out (None: the daemon's
        ``index.min_score``), so nothing comes back when nothing is relevant.
        A search names a ``scope`` or a ``session``; one that names neither
        is refused (``InvalidArgument``) unless ``everywhere=True`` asks for
        every scope of the daemon: a host serving several users cannot leak
        one user's memory into another's prompt by forgetting an argument.
        """
        request = s.Search(
            rid=self._rid(),
            query=query,
            scope=scope,
            session=session,
            kinds=None if kinds is None else list(kinds),
            k=k,
            since=since,
            until=until,
            mode=mode,
            min_score=min_score,
            everywhere=everywhere,
        )
        return Call(request, lambda r: r, True)

    @op
    def embed(self, texts: list[str]) -> Call[s.EmbedReply]:
        """The vectors of ``texts`` (at most ``MAX_EMBED_TEXTS``) from the embedder the
        daemon's search index uses: ``EmbedReply`` (``vectors``, ``dims``, ``model``)."""
        return Call(s.Embed(rid=self._rid(), texts=list(texts)), lambda r: r, True)

    @op
    def reindex(self) -> Call[bool]:
        """Start rebuilding the index (progress in ``status().index.reindex``).

        Returns False when a rebuild is already running.
        """
        return Call(s.Reindex(rid=self._rid()), lambda r: r.started, True)
