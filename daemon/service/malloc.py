"""Giving freed heap memory back to the system after a connection held a lot of it.

CPython allocates a bytes object over 512 bytes with the C library's
``malloc``. glibc serves a block over its mmap threshold (128 KiB at start)
with a mapping of its own, and gives it back on free, but it then raises the
threshold to that block's size (up to 32 MiB): from then on, MiB-sized
replies come from the heap, and the heap keeps its free pages. A client that
made the daemon hold a few hundred MiB of replies left its resident size
there long after it went (4.3 GB after the connections of issue 26 closed).
``malloc_trim(0)`` hands the free pages of every arena back. It is glibc's
alone: elsewhere (musl, macOS) there is nothing to call and ``release_free_memory``
does nothing.
"""

from __future__ import annotations

import ctypes
import ctypes.util
import logging
from collections.abc import Callable

__all__ = ["release_free_memory"]

log = logging.getLogger(__name__)


def _malloc_trim() -> Callable[[int], int] | None:
    """glibc's ``malloc_trim``, or None where the C library has none."""
    name = ctypes.util.find_library("c")
    if name is None:
        return None
    try:
        trim: Callable[[int], int] = ctypes.CDLL(name).malloc_trim
    except (OSError, AttributeError):
        return None
    return trim


_TRIM = _malloc_trim()


def release_free_memory() -> None:
    """Give the heap's free pages back to the system (where the C library can).

    It walks the heap: a few milliseconds for a large one, so it is called
    after a connection that held much, not after every reply.
    """
    if _TRIM is not None:
        released = _TRIM(0)
        log.debug("malloc_trim: %s", "memory released" if released else "nothing to release")
