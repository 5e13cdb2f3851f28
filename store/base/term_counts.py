"""How many messages hold a query word: the engine's document counts, cached with bounded staleness.

A word's document count is what its IDF is made of. FTS5 finds it by
walking the word's whole list of rows (``bm25()`` does so for every query
word, ``fts5vocab`` too): about 145 ms for a search's words at 1M messages,
even when a session filter leaves a few hundred rows to rank. A count moves
slowly as the log grows, so ``TermCounts`` keeps it and recounts only when
the index's row count (``indexed_rows``, constant time) has moved by more
than ``drift`` (1 %) of the rows it was counted at. Why 1 %: an IDF is
``log((N - n + 0.5) / (n + 0.5))``, so ``N`` off by 1 % moves it by about
0.01 (a common word's IDF is 1 to 3, a rare one's 10 or more) as long as the
word's share of the new rows matches its share of the old ones; and a store
small enough to count fast (under 100 rows) is recounted on every change.
What the bound does not see: a forget followed by as many appends leaves
``N`` where it was; the counts then wait for the next 1 % of growth.

Many threads read through one ``TermCounts`` (a database's reader threads):
its lock guards the cache alone, never a read of SQLite, so two threads may
count the same stale word at once and the later count stands (both are
right for their snapshot). At most ``capacity`` words are kept, the least
recently used dropped first.
"""

from __future__ import annotations

import threading
from collections import OrderedDict
from collections.abc import Callable, Iterable
from typing import Any

__all__ = [
    "TermCounts",
]

#: ``message_text``'s tokenizer, as its DDL (``message_text.MESSAGE_TEXT_DDL``) names it.
_TOKENIZER = ("porter", ["unicode61", "remove_diacritics", "2"])


class TermCounts:
    """Messages holding each query word, cached per word; what counts them is the
    engine's: ``rows(conn)`` (the log's rows, in constant time) and ``count(conn,
    words)`` (each word's rows, now)."""

    def __init__(
        self,
        rows: Callable[[Any], int],
        count: Callable[[Any, list[str]], dict[str, int]],
        *,
        capacity: int = 4096,
        drift: float = 0.01,
    ) -> None:
        self._rows = rows
        self._count = count
        self.capacity = capacity
        self.drift = drift
        self._lock = threading.Lock()
        #: word -> (indexed rows when counted, messages holding it then)
        self._counted: OrderedDict[str, tuple[int, int]] = OrderedDict()

    def counts(self, conn: Any, words: Iterable[str], *, fresh: bool = False) -> dict[str, int]:
        """Each word's document count, recounted if missing, stale, or ``fresh`` is asked.

        ``fresh`` is for a caller whose scores come from FTS5's own counts of
        the same snapshot (``bm25()``): the cache then holds what it used.
        """
        rows = self._rows(conn)
        wanted = list(dict.fromkeys(words))
        known = {} if fresh else self._cached(wanted, rows)
        missing = [w for w in wanted if w not in known]
        if missing:
            counted = self._count(conn, missing)
            self._store(counted, rows)
            known.update(counted)
        return known

    def _cached(self, words: list[str], rows: int) -> dict[str, int]:
        """The words' counts still within the drift bound at ``rows`` indexed rows."""
        found: dict[str, int] = {}
        with self._lock:
            for word in words:
                entry = self._counted.get(word)
                if entry is not None and abs(rows - entry[0]) <= self.drift * entry[0]:
                    self._counted.move_to_end(word)
                    found[word] = entry[1]
        return found

    def _store(self, counted: dict[str, int], rows: int) -> None:
        with self._lock:
            for word, docs in counted.items():
                self._counted[word] = (rows, docs)
                self._counted.move_to_end(word)
            while len(self._counted) > self.capacity:
                self._counted.popitem(last=False)
