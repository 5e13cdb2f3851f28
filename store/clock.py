"""The clock working memory decides expiry by: wall time, optionally shifted for tests.

TEST-ONLY: when ``REVERIE_TEST_CLOCK_FILE`` names a file, "now" is
``time.time()`` plus the float offset (seconds) written in that file, re-read
whenever the file's mtime or size changes. Tests move time forward by
rewriting the file instead of sleeping until a TTL runs out. Never set it in
production: anyone who can write the file can expire every key.
"""

from __future__ import annotations

import os
import time
from collections.abc import Mapping
from pathlib import Path

__all__ = ["TEST_CLOCK_ENV", "Clock"]

TEST_CLOCK_ENV = "REVERIE_TEST_CLOCK_FILE"


class Clock:
    """``now()`` in epoch seconds; ``adjustable`` says a test may jump it at any time."""

    __slots__ = ("_offset", "_path", "_seen")

    def __init__(self, offset_file: Path | None = None) -> None:
        self._path = offset_file
        self._seen: tuple[int, int] | None = None
        self._offset = 0.0

    @classmethod
    def from_env(cls, env: Mapping[str, str] | None = None) -> Clock:
        path = (os.environ if env is None else env).get(TEST_CLOCK_ENV)
        return cls(Path(path) if path else None)

    @property
    def adjustable(self) -> bool:
        return self._path is not None

    def now(self) -> float:
        if self._path is not None:
            self._refresh(self._path)
        return time.time() + self._offset

    def _refresh(self, path: Path) -> None:
        try:
            st = path.stat()
        except FileNotFoundError:
            self._seen, self._offset = None, 0.0
            return
        seen = (st.st_mtime_ns, st.st_size)
        if seen != self._seen:
            text = path.read_text().strip()
            self._offset = float(text) if text else 0.0
            self._seen = seen
