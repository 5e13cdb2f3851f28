"""The local MiniLM embedder (real model, no mocks) and the OpenAI-compatible client."""

from __future__ import annotations

import json
import logging
from concurrent.futures import ThreadPoolExecutor

import httpx
import numpy as np
import pytest

from reverie.config import ConfigError, EmbeddingsConfig
from reverie.store import (
    LOCAL_MODEL_ID,
    EmbeddingError,
    LocalEmbedder,
    OpenAIEmbedder,
    StoreError,
    make_embedder,
)


def test_local_vectors_are_unit_float32_rows(embedder: LocalEmbedder) -> None:
    vectors = embedder.embed(["The cat sits on the mat.", "", "Tax forms are due in April."])
    assert vectors.shape == (3, 384)
    assert vectors.dtype == np.float32
    np.testing.assert_allclose(np.linalg.norm(vectors, axis=1), 1.0, atol=1e-5)


def test_paraphrase_is_closer_than_unrelated_sentence(embedder: LocalEmbedder) -> None:
    anchor, paraphrase, unrelated = embedder.embed(
        [
            "The kitten naps on the couch after lunch.",
            "A young cat is sleeping on the sofa in the afternoon.",
            "Quarterly revenue grew by twelve percent.",
        ]
    )
    assert anchor @ paraphrase > 0.5
    assert anchor @ paraphrase > anchor @ unrelated + 0.3


def test_batching_and_padding_do_not_change_vectors(embedder: LocalEmbedder) -> None:
    texts = [
        "short",
        "a much longer sentence with many more tokens in it than the first",
        "mid length text",
    ]
    together = embedder.embed(texts)
    one_by_one = np.stack([embedder.embed([t])[0] for t in texts])
    small_batches = LocalEmbedder(batch_size=2).embed(texts)
    np.testing.assert_allclose(together, one_by_one, atol=1e-5)
    np.testing.assert_allclose(together, small_batches, atol=1e-5)


def test_empty_input_gives_empty_matrix(embedder: LocalEmbedder) -> None:
    assert embedder.embed([]).shape == (0, 384)


def test_megabyte_text_is_truncated_not_rejected(embedder: LocalEmbedder) -> None:
    huge = "alpha beta gamma " * 62_000  # ~1 MB
    (vector,) = embedder.embed([huge])
    (prefix,) = embedder.embed([huge[:4000]])
    # Both read only the first 256 tokens, so they are the same vector.
    np.testing.assert_allclose(vector, prefix, atol=1e-5)


def test_load_time_is_recorded_after_first_embed() -> None:
    fresh = LocalEmbedder()
    assert fresh.load_seconds is None
    fresh.embed(["hello"])
    assert fresh.load_seconds is not None
    assert fresh.load_seconds > 0


def test_make_embedder_defaults_to_the_local_model() -> None:
    made = make_embedder(EmbeddingsConfig())
    assert isinstance(made, LocalEmbedder)
    assert (made.model_id, made.dimension) == (LOCAL_MODEL_ID, 384)


def test_make_embedder_refuses_another_local_model() -> None:
    with pytest.raises(ConfigError, match="runs only"):
        make_embedder(EmbeddingsConfig(model="bge-large", dimension=1024))


def test_make_embedder_openai_requires_base_url() -> None:
    with pytest.raises(ConfigError, match="base_url"):
        make_embedder(EmbeddingsConfig(provider="openai", model="m"))


def _openai(
    handler: httpx.MockTransport, dimension: int = 3, batch_size: int = 2
) -> OpenAIEmbedder:
    return OpenAIEmbedder(
        base_url="http://embed.test/",
        model="text-embed",
        dimension=dimension,
        batch_size=batch_size,
        api_key="sk-test",
        transport=handler,
    )


def test_openai_request_shape_batches_order_and_normalisation() -> None:
    seen: list[httpx.Request] = []

    def handle(request: httpx.Request) -> httpx.Response:
        seen.append(request)
        body = json.loads(request.content)
        # Reply out of order and unnormalised: the client must fix both.
        data = [
            {"index": i, "embedding": [float(len(text)), 0.0, 0.0] if i % 2 else [0.0, 2.0, 0.0]}
            for i, text in enumerate(body["input"])
        ]
        return httpx.Response(200, json={"data": list(reversed(data))})

    client = _openai(httpx.MockTransport(handle))
    vectors = client.embed(["a", "bb", "ccc"])
    assert [r.url for r in seen] == ["http://embed.test/v1/embeddings"] * 2
    assert [json.loads(r.content) for r in seen] == [
        {"model": "text-embed", "input": ["a", "bb"]},
        {"model": "text-embed", "input": ["ccc"]},
    ]
    assert seen[0].headers["authorization"] == "Bearer sk-test"
    np.testing.assert_allclose(vectors, [[0, 1, 0], [1, 0, 0], [0, 1, 0]])
    assert client.model_id == "openai:text-embed"


@pytest.mark.parametrize(
    ("response", "match"),
    [
        (httpx.Response(500, text="overloaded"), "answered 500"),
        (httpx.Response(200, text="not json"), "malformed"),
        (httpx.Response(200, json={"data": [{"index": 0, "embedding": [1.0, 0.0]}]}), "dimensions"),
        (httpx.Response(200, json={"data": []}), "0 vectors"),
    ],
)
def test_openai_bad_replies_are_embedding_errors(response: httpx.Response, match: str) -> None:
    client = _openai(httpx.MockTransport(lambda _: response))
    with pytest.raises(EmbeddingError, match=match) as caught:
        client.embed(["x"])
    assert caught.value.code == "embeddings.error"
    assert isinstance(caught.value, StoreError)


def test_openai_connection_failure_is_embedding_error() -> None:
    def refuse(request: httpx.Request) -> httpx.Response:
        raise httpx.ConnectError("connection refused", request=request)

    with pytest.raises(EmbeddingError, match="ConnectError"):
        _openai(httpx.MockTransport(refuse)).embed(["x"])


def test_concurrent_first_embeds_load_the_model_once(caplog: pytest.LogCaptureFixture) -> None:
    fresh = LocalEmbedder()
    texts = [f"sentence number {n} about concurrency" for n in range(8)]
    with (
        caplog.at_level(logging.INFO, logger="reverie.store.embed.embeddings"),
        ThreadPoolExecutor(max_workers=4) as pool,
    ):
        results = list(pool.map(lambda t: fresh.embed([t])[0], texts))
    loads = [r for r in caplog.records if r.getMessage().startswith("loaded embedding model")]
    assert len(loads) == 1
    np.testing.assert_allclose(np.stack(results), fresh.embed(texts), atol=1e-5)


def test_openai_errors_carry_no_credentials() -> None:
    echo = "bad request; got header Authorization: Bearer sk-test and key sk-live-0123456789"
    client = OpenAIEmbedder(
        base_url="http://alice:hunter2@embed.test/",
        model="text-embed",
        dimension=3,
        api_key="sk-test",
        transport=httpx.MockTransport(lambda _: httpx.Response(401, text=echo)),
    )
    with pytest.raises(EmbeddingError, match="answered 401") as caught:
        client.embed(["x"])
    message = caught.value.message
    assert "hunter2" not in message and "sk-test" not in message and "0123456789" not in message
    assert "embed.test" in message and "bad request" in message


def test_the_local_model_is_dropped_only_when_idle_and_loads_again_on_use() -> None:
    embedder = LocalEmbedder(threads=1)
    first = embedder.embed(["I went to the harbour yesterday."])
    assert not embedder.release_idle(3600)  # used a moment ago: kept
    assert embedder.loaded and embedder.loads == 1
    assert embedder.release_idle(0)
    assert not embedder.loaded and not embedder.release_idle(0)  # nothing left to drop
    again = embedder.embed(["I went to the harbour yesterday."])
    assert embedder.loaded and embedder.loads == 2
    assert float(np.dot(first[0], again[0])) > 0.9999  # the same model, loaded again
