"""Giving freed heap memory back to the system: a fixed mmap threshold, few arenas, trims.

CPython allocates a bytes object over 512 bytes with the C library's
``malloc``. glibc serves a block over its mmap threshold (128 KiB at start)
with a mapping of its own, and gives it back on free, but it then raises the
threshold to that block's size (up to 32 MiB): from then on, MiB-sized
replies come from the heap, and the heap keeps its free pages. A client that
made the daemon hold a few hundred MiB of replies left its resident size
there long after it went (4.3 GB after the connections of issue 26 closed).
``malloc_trim(0)`` hands the free pages of every arena back.

``tune_allocator`` keeps the heap from holding such memory in the first
place, for the daemon's whole life: setting ``M_MMAP_THRESHOLD`` fixes it at
128 KiB (glibc then stops raising it), so every large buffer (a reply, an
embedding batch's tensors, an Arrow column) is a mapping of its own and is
unmapped when freed; ``M_ARENA_MAX`` = 2 stops each of the threads LanceDB
and onnxruntime start from growing an arena of its own that keeps its free
pages. Measured on the embedder alone: 385 MiB without, 277 MiB with, for
the same throughput. The price: each such buffer costs a ``mmap``, its page
faults and a ``munmap``, so a path run per request allocates none (the
server reads into one buffer it keeps: a fresh 256 KiB one per read was
about 40 µs of the event loop's CPU per append).

``heap_usage`` says how the heap stands (``status``): what is in use, and
what is free between the blocks in use (resident where it was touched; a
trim hands back only its whole pages).

All of this is glibc's alone: elsewhere (musl, macOS) there is nothing to
call, the functions do nothing and the usage is zeros.
"""

from __future__ import annotations

import ctypes
import ctypes.util
import functools
import logging
import sys
from collections.abc import Callable

__all__ = ["heap_usage", "libc_function", "release_free_memory", "tune_allocator"]

log = logging.getLogger(__name__)


#: ``mallopt`` parameters (glibc's malloc.h) and the values the daemon sets.
_M_MMAP_THRESHOLD, _M_ARENA_MAX = -3, -8
MMAP_THRESHOLD = 128 * 1024
ARENA_MAX = 2


@functools.cache
def _c_library() -> ctypes.CDLL | None:
    """The C library, looked up once (``find_library`` may run ``ldconfig``)."""
    name = ctypes.util.find_library("c")
    if name is None:
        return None
    try:
        return ctypes.CDLL(name, use_errno=True)
    except OSError:
        return None


def libc_function(function: str) -> Callable[..., int] | None:
    """glibc's ``function``, or None where the C library has none."""
    found: Callable[..., int] | None = getattr(_c_library(), function, None)
    return found


_TRIM = libc_function("malloc_trim")


def tune_allocator() -> None:
    """Fix the mmap threshold and cap the arenas; call before the daemon starts threads."""
    mallopt = libc_function("mallopt")
    if mallopt is None:
        return
    for parameter, value in ((_M_MMAP_THRESHOLD, MMAP_THRESHOLD), (_M_ARENA_MAX, ARENA_MAX)):
        if not mallopt(parameter, value):
            log.debug("mallopt(%d, %d) refused", parameter, value)


def release_free_memory() -> None:
    """Give the heap's free pages back to the system (where the C library can).

    It walks the heap: a few milliseconds for a large one, so it is called
    after a connection that held much and once an idle index is closed, not
    after every reply.
    """
    if _TRIM is not None:
        released = _TRIM(0)
        log.debug("malloc_trim: %s", "memory released" if released else "nothing to release")


class _MallInfo2(ctypes.Structure):
    """glibc's ``struct mallinfo2`` (2.33+): ten ``size_t`` counters."""

    _fields_ = [
        (name, ctypes.c_size_t)
        for name in (
            "arena",  # bytes the arenas took from the system (sbrk and their mappings)
            "ordblks",
            "smblks",
            "hblks",
            "hblkhd",  # bytes of blocks served by a mapping of their own
            "usmblks",
            "fsmblks",
            "uordblks",  # bytes of the arenas in use
            "fordblks",  # bytes of the arenas free
            "keepcost",
        )
    ]


_MALLINFO2 = libc_function("mallinfo2")
if _MALLINFO2 is not None:
    _MALLINFO2.restype = _MallInfo2  # type: ignore[attr-defined]


def heap_usage() -> dict[str, int]:
    """The C heap now: ``heap_in_use_bytes`` (the arenas' blocks in use plus the large
    blocks mapped on their own) and ``heap_free_bytes`` (free in the arenas: resident
    where it was touched; a trim hands back only its whole pages). All C and Rust
    allocations of the process count (the interpreter's objects over 512 bytes,
    SQLite, onnxruntime, LanceDB),
    but not Python-side Arrow buffers: ``arrow_in_use_bytes`` is their own pool's
    (0 while Arrow is not loaded: it is LanceDB's, whose import is not waited
    for at start, docs/design.md "Start-up"). The two C figures are zeros
    without glibc 2.33+.

    It locks each arena and walks its free lists: under a millisecond for the
    daemon's two arenas, called by ``status``, not per request.
    """
    # Arrow may be half imported (on the index's thread): its function is there only
    # once its compiled library, which defines it, has loaded.
    arrow_bytes = getattr(sys.modules.get("pyarrow"), "total_allocated_bytes", None)
    arrow = {"arrow_in_use_bytes": 0 if arrow_bytes is None else int(arrow_bytes())}
    if _MALLINFO2 is None:
        return {"heap_in_use_bytes": 0, "heap_free_bytes": 0, **arrow}
    info = _MALLINFO2()
    return {
        "heap_in_use_bytes": int(info.uordblks + info.hblkhd),  # type: ignore[attr-defined]
        "heap_free_bytes": int(info.fordblks),  # type: ignore[attr-defined]
        **arrow,
    }
