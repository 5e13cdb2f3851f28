"""Semantic search for ``ReverieStore(index=...)``: LangGraph's ``IndexConfig``, by meaning.

As LangGraph's own stores do, an item's indexed fields (``fields``, default
``["$"]``: the whole value as JSON; a ``put``'s ``index`` overrides them,
``index=False`` indexes nothing) are embedded when it is put, and a search's
``query`` ranks items by the cosine of its vector and their nearest field's
(max pooling); items with no vector come after the ranked ones, unscored.

The vectors come from ``embed`` when the configuration names one (LangChain
``Embeddings``, a function, or a provider string, as LangGraph accepts), else
from the daemon's own embedder over its ``embed`` op (the one its search index
uses; docs/search.md), so no model runs on the host. They are kept beside the
value in its working-memory key, each as the base64 of its float32s (2 KiB
for 384 dimensions, under two thirds of the numbers' msgpack, as a scope holds
``working_memory.max_scope_bytes``); an item written without them (before the
index was configured, or by another client) is embedded when a search needs it.
"""

from __future__ import annotations

import array
import base64
import math
import sys
from collections.abc import Callable, Mapping, Sequence
from typing import Any

from langgraph.store.base import IndexConfig
from langgraph.store.base.embed import ensure_embeddings, get_text_at_path, tokenize_path

from reverie.config.errors import InvalidArgument
from reverie.daemon.client import Client
from reverie.daemon.protocol.search import MAX_EMBED_TEXTS

__all__ = ["Meaning", "cosine", "pack", "unpack"]

Vectors = list[list[float]]


class Meaning:
    """An ``IndexConfig`` put to work: which texts of a value to embed, and embedding them."""

    def __init__(self, config: IndexConfig) -> None:
        if not isinstance(config, Mapping):
            raise InvalidArgument(
                "index is LangGraph's IndexConfig: a dict with dims, embed, fields"
            )
        unknown = set(config) - {"dims", "embed", "fields"}
        if unknown:
            raise InvalidArgument(
                f"index has unknown keys {sorted(unknown)}; use dims, embed, fields"
            )
        self.dims: int | None = config.get("dims")
        self.fields: list[str] = list(config.get("fields") or ["$"])
        for path in self.fields:
            tokenize_path(path)  # a malformed path fails here, not at the first put
        embed = config.get("embed")
        self._own = None if embed in (None, "reverie") else ensure_embeddings(embed)

    def texts(self, value: Mapping[str, Any], fields: Sequence[str] | None = None) -> list[str]:
        """The texts of ``value`` to embed: those at ``fields`` (None: the configured ones)."""
        return [
            text
            for path in (self.fields if fields is None else fields)
            for text in get_text_at_path(value, path)
            if text
        ]

    def embed(self, client: Client, texts: list[str], *, query: bool = False) -> Vectors:
        """The vectors of ``texts``, from the configured embedder or the daemon's."""
        if not texts:
            return []
        if self._own is not None:
            made = [self._own.embed_query(texts[0])] if query else self._own.embed_documents(texts)
            vectors = [[float(x) for x in row] for row in made]
            where = "the index's embed"
        else:
            vectors = []
            for start in range(0, len(texts), MAX_EMBED_TEXTS):
                reply = client.embed(texts[start : start + MAX_EMBED_TEXTS])
                vectors.extend(reply.vectors)
            where = "reverie's embedder (the daemon's `embeddings`)"
        if self.dims is not None and any(len(v) != self.dims for v in vectors):
            raise InvalidArgument(
                f"index dims is {self.dims}, but {where} gives vectors of"
                f" {len(vectors[0])} dimensions; set dims to {len(vectors[0])}"
            )
        return vectors

    def rank(
        self,
        client: Client,
        query: str,
        vectors: Sequence[Vectors | None],
        texts_of: Callable[[int], list[str]],
    ) -> list[float | None]:
        """Each candidate's score against ``query`` (None: nothing of it to embed).
        ``vectors[i]`` are candidate ``i``'s kept vectors, None when it has none
        (then ``texts_of(i)`` is embedded now, all such candidates in one go)."""
        missing = [i for i, kept in enumerate(vectors) if kept is None]
        texts = [texts_of(i) for i in missing]
        made = self.embed(client, [t for group in texts for t in group])
        filled = list(vectors)
        start = 0
        for i, group in zip(missing, texts, strict=True):
            filled[i] = made[start : start + len(group)]
            start += len(group)
        wanted = self.embed(client, [query], query=True)[0]
        return [max((cosine(wanted, v) for v in kept or ()), default=None) for kept in filled]


def pack(vectors: Vectors) -> list[str]:
    """Vectors as kept in a key: each the base64 of its float32s, little-endian."""
    out = []
    for vector in vectors:
        floats = array.array("f", vector)
        if sys.byteorder == "big":
            floats.byteswap()
        out.append(base64.b64encode(floats.tobytes()).decode("ascii"))
    return out


def unpack(kept: Any) -> Vectors | None:
    """The vectors ``pack`` kept; None when ``kept`` is not that (then the item's texts
    are embedded again)."""
    if not isinstance(kept, list) or not all(isinstance(k, str) for k in kept):
        return None
    vectors = []
    for text in kept:
        try:
            raw = base64.b64decode(text, validate=True)
        except ValueError:
            return None
        if len(raw) % 4:
            return None
        floats = array.array("f", raw)
        if sys.byteorder == "big":
            floats.byteswap()
        vectors.append(list(floats))
    return vectors


def cosine(a: Sequence[float], b: Sequence[float]) -> float:
    """The cosine of two vectors (0 when either is zero)."""
    dot = sum(x * y for x, y in zip(a, b, strict=True))
    norms = math.sqrt(sum(x * x for x in a)) * math.sqrt(sum(y * y for y in b))
    return dot / norms if norms else 0.0
