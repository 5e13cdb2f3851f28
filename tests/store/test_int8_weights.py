"""The local model's int8 rewrite: made once into a models dir, the same vectors, and the
shipped graph whenever the rewrite cannot be made or run (real model, real files)."""

from __future__ import annotations

import logging
from pathlib import Path

import numpy as np
import onnx
import pytest

from reverie.store import LocalEmbedder

TEXTS = [
    "When did Caroline go to the LGBTQ support group?",
    "[1:56 pm on 8 May, 2023] Caroline: I went to a LGBTQ support group yesterday and it was so powerful.",
    "The kitten naps on the couch after lunch.",
    "Quarterly revenue grew by twelve percent.",
    "",
]


def _rewrites(models: Path) -> list[Path]:
    return sorted(models.glob("*.onnx"))


def test_the_rewrite_casts_no_weight_so_none_is_copied_to_float(tmp_path: Path) -> None:
    LocalEmbedder(models_dir=tmp_path).embed(["hello"])
    (rewrite,) = _rewrites(tmp_path)
    graph = onnx.load(rewrite).graph
    weights = {i.name for i in graph.initializer}
    # A Cast of a stored weight is what onnxruntime folds into a float32 copy at load.
    assert [n.name for n in graph.node if n.op_type == "Cast" and n.input[0] in weights] == []
    assert sum(n.op_type == "MatMulNBits" for n in graph.node) == 36  # 6 layers x 6


def test_the_rewrite_gives_the_shipped_graphs_vectors(
    tmp_path: Path, embedder: LocalEmbedder
) -> None:
    rewritten = LocalEmbedder(models_dir=tmp_path).embed(TEXTS)
    shipped = embedder.embed(TEXTS)
    cosines = (rewritten * shipped).sum(axis=1)
    assert cosines.min() > 0.998, cosines  # 0.9995 on chat turns, 0.9988 on ""
    np.testing.assert_allclose(np.linalg.norm(rewritten, axis=1), 1.0, atol=1e-5)
    question, answer, *others = rewritten
    assert question @ answer > max(question @ other for other in others) + 0.2


def test_the_rewrite_is_made_once_and_kept(
    tmp_path: Path, caplog: pytest.LogCaptureFixture
) -> None:
    caplog.set_level(logging.INFO, logger="reverie.store")
    LocalEmbedder(models_dir=tmp_path).embed(["first"])
    (made,) = _rewrites(tmp_path)
    written = made.stat().st_mtime_ns
    LocalEmbedder(models_dir=tmp_path).embed(["second"])
    assert _rewrites(tmp_path) == [made]
    assert made.stat().st_mtime_ns == written
    assert sum("made the int8 rewrite" in r.getMessage() for r in caplog.records) == 1
    loaded = [r.getMessage() for r in caplog.records if "loaded embedding model" in r.getMessage()]
    assert len(loaded) == 2 and all(made.name in line for line in loaded)


def test_an_older_rewrite_is_removed_once_the_new_one_exists(tmp_path: Path) -> None:
    older = tmp_path / "minilm-int8-0000000000000000.onnx"
    older.write_bytes(b"made by an older reverie")
    LocalEmbedder(models_dir=tmp_path).embed(["hello"])
    (kept,) = _rewrites(tmp_path)
    assert kept != older and not older.exists()


def test_a_rewrite_that_cannot_be_made_leaves_the_shipped_graph(
    tmp_path: Path, embedder: LocalEmbedder, caplog: pytest.LogCaptureFixture
) -> None:
    blocker = tmp_path / "not-a-dir"
    blocker.write_text("a file where the models dir would go")
    vectors = LocalEmbedder(models_dir=blocker / "models").embed(TEXTS)
    np.testing.assert_allclose(vectors, embedder.embed(TEXTS), atol=1e-5)
    (warning,) = [r for r in caplog.records if r.levelno == logging.WARNING]
    assert "could not be made" in warning.getMessage()
    assert "int8_weights = false" in warning.getMessage()


def test_a_damaged_rewrite_is_not_run_and_is_made_again(
    tmp_path: Path, embedder: LocalEmbedder, caplog: pytest.LogCaptureFixture
) -> None:
    LocalEmbedder(models_dir=tmp_path).embed(["hello"])
    (made,) = _rewrites(tmp_path)
    good = made.read_bytes()
    made.write_bytes(good[: len(good) // 2])  # a disk that lost the second half
    vectors = LocalEmbedder(models_dir=tmp_path).embed(TEXTS)
    np.testing.assert_allclose(vectors, embedder.embed(TEXTS), atol=1e-5)
    assert any("does not run here" in r.getMessage() for r in caplog.records)
    assert not made.exists()
    LocalEmbedder(models_dir=tmp_path).embed(["hello"])
    assert made.read_bytes() == good
