"""SQLite: what the word-count cache counts with (FTS5's averages record and ``fts5vocab``)."""

from __future__ import annotations

import apsw

from ..base.term_counts import (
    _TOKENIZER,
    TermCounts,
)

__all__ = ["count_words", "fresh_counts", "indexed_rows"]


def indexed_rows(conn: apsw.Connection) -> int:
    """The rows of ``message_text``, as its BM25 counts them, in constant time.

    FTS5 keeps them in its averages record (``%_data`` id 1: a SQLite varint,
    then one per column); ``count(*)`` would read every row. The record is
    part of FTS5's file format, which SQLite keeps compatible.
    """
    found = conn.execute("SELECT block FROM message_text_data WHERE id = 1").fetchone()
    record: bytes = found[0] if found else b""
    value = 0
    for i, byte in enumerate(record):
        if i == 8:  # the ninth byte of a varint gives all its 8 bits
            return (value << 8) | byte
        value = (value << 7) | (byte & 0x7F)
        if byte < 0x80:
            break
    return value


def _word_tokens(conn: apsw.Connection, word: str) -> list[str]:
    """``word`` as the index stores it: its stems, as FTS5 cuts a quoted query phrase."""
    tokenize = conn.fts5_tokenizer(*_TOKENIZER)
    return [
        str(stem)  # one plain string per token: no offsets, no colocated forms asked for
        for stem in tokenize(
            word.encode(),
            apsw.FTS5_TOKENIZE_QUERY,
            None,
            include_offsets=False,
            include_colocated=False,
        )
    ]


def count_words(conn: apsw.Connection, words: list[str]) -> dict[str, int]:
    """Messages holding each word as a phrase, now: one ``fts5vocab`` read for the
    one-token words, a ``MATCH`` count for each word the tokenizer cuts in several
    (``snake_case``), none for a word with no token (it matches nothing)."""
    tokens = {word: _word_tokens(conn, word) for word in words}
    single = {word: stems[0] for word, stems in tokens.items() if len(stems) == 1}
    stems = sorted(set(single.values()))
    marks = ", ".join("?" * len(stems))
    docs: dict[str, int] = (
        dict(conn.execute(f"SELECT term, doc FROM message_terms WHERE term IN ({marks})", stems))
        if stems
        else {}
    )
    return {
        word: docs.get(single[word], 0) if word in single else _phrase_docs(conn, word, parts)
        for word, parts in tokens.items()
    }


def _phrase_docs(conn: apsw.Connection, word: str, parts: list[str]) -> int:
    if not parts:
        return 0
    quoted = '"' + word.replace('"', '""') + '"'
    found = conn.execute(
        "SELECT count(*) FROM message_text WHERE message_text MATCH ?", (quoted,)
    ).fetchone()
    return int(found[0]) if found else 0


def fresh_counts(*, capacity: int = 4096, drift: float = 0.01) -> TermCounts:
    """An empty cache of this engine's word counts (a database's, or a test's)."""
    return TermCounts(indexed_rows, count_words, capacity=capacity, drift=drift)
