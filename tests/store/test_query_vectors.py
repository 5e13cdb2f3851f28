"""A search embeds its query once, even when its summaries' turns are ranked by it."""

from __future__ import annotations

from pathlib import Path

import numpy as np
import numpy.typing as npt

from reverie.store import IndexDoc, LocalEmbedder
from reverie.store.embed.query_vectors import QueryVectors
from reverie.store.files.index_lifecycle import SearchIndex


class CountingEmbedder:
    """The real model, with every text it is asked to embed written down."""

    def __init__(self, real: LocalEmbedder) -> None:
        self.real = real
        self.model_id = real.model_id
        self.dimension = real.dimension
        self.asked: list[str] = []

    def embed(self, texts: list[str]) -> npt.NDArray[np.float32]:
        self.asked.extend(texts)
        return self.real.embed(texts)


def _message(n: int, text: str) -> IndexDoc:
    return IndexDoc(
        uid=f"s:{n}",
        kind="message",
        text=text,
        scope="session/s",
        session="s",
        ts=float(n),
        message_ids=[str(n)],
        source="messages",
    )  # type: ignore[arg-type]


def test_a_search_and_its_summaries_turns_embed_the_query_once(
    tmp_path: Path, embedder: LocalEmbedder
) -> None:
    counting = CountingEmbedder(embedder)
    index = SearchIndex(tmp_path / "index", counting)
    index.open()
    texts = ["We booked the flights to Lisbon.", "The cat sleeps on the sofa.", "Tickets got!"]
    index.add([_message(n, t) for n, t in enumerate(texts)], new=True)
    counting.asked.clear()
    query = "when do they fly to Portugal"
    hits = index.search(query, session="s", k=3, mode="vector")
    ranked = index.meaning_among(query, [h.uid for h in hits], ["s"])
    assert counting.asked == [query]
    assert [h.uid for h in ranked] == [h.uid for h in hits]
    index.search("a different question", session="s", k=3, mode="vector")
    assert counting.asked == [query, "a different question"]


def test_only_the_most_recent_queries_are_kept(embedder: LocalEmbedder) -> None:
    counting = CountingEmbedder(embedder)
    kept = QueryVectors(counting, size=2)
    first = kept.of("one")
    kept.of("two")
    assert np.array_equal(kept.of("one"), first)  # kept: not embedded again
    kept.of("three")  # drops "two", the least recently used
    kept.of("two")
    assert counting.asked == ["one", "two", "three", "two"]
