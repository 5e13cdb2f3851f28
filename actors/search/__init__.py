"""reverie.actors.search: the search index kept following the store, and searched.

The ``Indexer`` is the index's only writer: a session hook that follows the
message log and the memory tree into the index, rebuilds it on ``reindex``,
and answers ``search`` (a ``SearchQuery``, the store's one shape of a
search) from the database's word and vector indexes (docs/design.md, "The store seam").
"""

from reverie.store import SearchQuery

from .indexer import Indexer
from .query import SearchResult

__all__ = ["Indexer", "SearchQuery", "SearchResult"]
