"""The documents the search index tests add, the ``index`` fixture that holds them,
hostile names, an embedder of another vector space and hit helpers: shared by
``test_index``, ``test_index_lifecycle`` and the Postgres index tests.

A test module imports ``corpus_index`` to have pytest find the fixture, which
its tests then ask for by its name, ``index``.
"""

from __future__ import annotations

from pathlib import Path

import numpy as np
import numpy.typing as npt
import pytest

from reverie.store import IndexDoc, LocalEmbedder, SearchHit
from reverie.store.files.index_lifecycle import SearchIndex

NASTY = "o'brien\"; DROP TABLE docs; --"
INJECT = "a' OR '1'='1"

CORPUS = {
    "rare": "Vaszary handled 7Q93KX.",
    "t1": "Support ticket 7Q39KX was closed by the help desk.",
    "t2": "Ticket 7Q93XK was closed yesterday after the fix.",
    "t3": "The support ticket was closed once the bug was fixed.",
    "t4": "Closed tickets are archived after thirty days.",
    "t5": "Ticket 7Q93KZ was reopened by the customer.",
    "t6": "Ticket 7Q94KX is waiting for a reply.",
    "para": "The kitten naps on the couch after lunch.",
    "d1": "Quarterly revenue grew by twelve percent.",
    "d2": "Remember to water the tomato plants every morning.",
    "d3": "The train to Lyon leaves at nine.",
}


def index_doc(
    uid: str,
    text: str,
    *,
    scope: str = "a",
    session: str = "s1",
    ts: float = 0.0,
    kind: str = "episode",
) -> IndexDoc:
    return IndexDoc(
        uid=uid,
        kind=kind,
        text=text,
        scope=scope,
        session=session,
        ts=ts,
        message_ids=[uid],
        source="messages",
    )  # type: ignore[arg-type]


@pytest.fixture(name="index")
def corpus_index(tmp_path: Path, embedder: LocalEmbedder) -> SearchIndex:
    idx = SearchIndex(tmp_path / "index", embedder)
    idx.open()
    idx.add([index_doc(uid, text, ts=float(n)) for n, (uid, text) in enumerate(CORPUS.items())])
    return idx


def uids_of(hits: list[SearchHit]) -> list[str]:
    return [h.uid for h in hits]


class FakeEmbedder:
    """Another vector space (8 dims): stands in for a changed embedding configuration."""

    model_id = "fake-8"
    dimension = 8

    def embed(self, texts: list[str]) -> npt.NDArray[np.float32]:
        rows = np.ones((len(texts), self.dimension), dtype=np.float32)
        for i, text in enumerate(texts):
            rows[i, len(text) % self.dimension] += 1.0
        return rows / np.linalg.norm(rows, axis=1, keepdims=True)
