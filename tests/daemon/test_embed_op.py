"""The ``embed`` op: the search index's embedder lent to a host (docs/protocol.md)."""

from __future__ import annotations

import math
from collections.abc import Callable

import pytest

from reverie import InvalidArgument, NotFound
from reverie.daemon.protocol.search import MAX_EMBED_TEXTS
from tests.daemon_process import DaemonProcess


def test_embed_gives_the_index_embedders_unit_vectors_in_order(daemon: DaemonProcess) -> None:
    texts = ["My manager is called Priya.", "Who is my boss?", "I like green tea."]
    with daemon.client() as client:
        reply = client.embed(texts)
        again = client.embed(texts[::-1])
        assert client.embed([]).vectors == []
        with pytest.raises(InvalidArgument):
            client.embed(["x"] * (MAX_EMBED_TEXTS + 1))
    assert reply.dims == 384 and reply.model == "all-MiniLM-L6-v2-int8"
    assert [len(v) for v in reply.vectors] == [384] * 3
    assert all(math.isclose(math.hypot(*v), 1.0, abs_tol=1e-4) for v in reply.vectors)
    for mine, theirs in zip(again.vectors[::-1], reply.vectors, strict=True):
        assert mine == pytest.approx(theirs, abs=1e-5)  # the same text, the same vector
    boss, tea = (
        sum(a * b for a, b in zip(reply.vectors[1], v, strict=True))
        for v in (reply.vectors[0], reply.vectors[2])
    )
    assert boss > tea  # by meaning: a manager is a boss


def test_embed_on_a_daemon_without_search_says_so(
    make_daemon: Callable[..., DaemonProcess],
) -> None:
    daemon = make_daemon(config="[index]\nenabled = false\n")
    with daemon.client() as client, pytest.raises(NotFound, match=r"index\.enabled = false"):
        client.embed(["hello"])
