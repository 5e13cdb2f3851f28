"""Run every benchmark module in ``bench/`` that defines ``main()``, one after another.

Usage: ``python -m bench`` (all), or ``python -m bench append`` (only the named ones).
"""

from __future__ import annotations

import importlib
import pkgutil
import sys
import time
from pathlib import Path

import bench


def benchmark_modules() -> list[str]:
    """Names of ``bench/*.py`` modules, sorted (``__init__``/``__main__`` excluded)."""
    folder = Path(bench.__file__).parent
    return sorted(m.name for m in pkgutil.iter_modules([str(folder)]) if not m.name.startswith("_"))


def main(argv: list[str]) -> int:
    names = argv or benchmark_modules()
    runnable = []
    for name in names:
        module = importlib.import_module(f"bench.{name}")
        if callable(getattr(module, "main", None)):
            runnable.append((name, module))
    for i, (name, module) in enumerate(runnable, 1):
        print(f"=== [{i}/{len(runnable)}] bench.{name} ===", flush=True)
        started = time.monotonic()
        module.main()
        print(f"=== bench.{name} done in {time.monotonic() - started:.1f} s ===\n", flush=True)
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
