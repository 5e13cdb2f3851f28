"""FTS5's BM25 with the IDFs handed in: ``bm25()``'s score without its count of every word.

``bm25()`` counts, for each query phrase, the rows of the whole index that
hold it (a walk of the phrase's full list of rows) before it scores the
first match. With a session filter that is most of a search's time at 1M
messages: 145 ms for the counts against 0.3 ms for the match itself.
``reverie_bm25`` is the same formula as an auxiliary function (SQLite's
``fts5_aux.c``: k1 1.2, b 0.75, ``D`` the row's tokens over all columns,
``avgdl`` the index's tokens over its rows), fed the IDFs of counts the
caller already has (``TermCounts``); with counts of the same snapshot it
returns ``-bm25(...)`` to the last bits. Its arguments: the IDFs, one per
query phrase in the expression's order (``apsw.pyobject``), then one weight
per column.

It runs in Python once per matching row (about 12 µs against the C
function's fraction of one), so it only wins when few rows match: the
caller chooses (``message_text.search_message_text``).
"""

from __future__ import annotations

import threading
import weakref
from typing import Any

import apsw

from ..bm25 import _B, _K1

__all__ = ["FUNCTION", "registered"]

_lock = threading.Lock()
_registered: weakref.WeakSet[apsw.Connection] = weakref.WeakSet()


FUNCTION = "reverie_bm25"


def registered(conn: apsw.Connection) -> apsw.Connection:
    """``conn``, with ``reverie_bm25`` registered on it once (FTS5 keeps every
    registration, so registering per search would grow the connection's list)."""
    with _lock:
        if conn not in _registered:
            conn.register_fts5_function(FUNCTION, _score)
            _registered.add(conn)
    return conn


def _score(api: apsw.FTS5ExtensionApi, *args: Any) -> float:
    """The row's BM25, positive; the expression's order is ``fts5_aux.c``'s, bit for bit.

    ``args``: the IDFs (a tuple of floats, bound with ``apsw.pyobject``), then
    the columns' weights.
    """
    idfs, *weights = args
    avgdl = api.aux_data
    if avgdl is None:  # the first row of the query: the index's average once
        avgdl = api.aux_data = api.column_total_size(-1) / api.row_count
    norm = _K1 * (1 - _B + _B * api.column_size(-1) / avgdl)
    score = 0.0
    for phrase, phrase_idf in enumerate(idfs):
        freq = 0.0
        for weight, offsets in zip(weights, api.phrase_locations(phrase), strict=False):
            freq += weight * len(offsets)
        score += phrase_idf * ((freq * (_K1 + 1.0)) / (freq + norm))
    return score
