"""The daemon process's own resources, as the kernel counts them (Linux ``/proc``).

``status`` and the metrics report them so that growth is visible where it
happens (a daemon meant to run for months): resident memory and its peak,
threads (LanceDB and the embedder start their own), and open descriptors
(each connection holds one; the open-file limit bounds them). Elsewhere than
Linux every figure is 0.
"""

from __future__ import annotations

import os
from pathlib import Path

__all__ = ["process_stats"]

_PROC = Path("/proc/self")
_FIELDS = {
    "VmRSS": "rss_bytes",
    "VmHWM": "peak_rss_bytes",
    "RssAnon": "rss_anon_bytes",
    "RssFile": "rss_file_bytes",
    "Threads": "threads",
}


def process_stats() -> dict[str, int]:
    """``rss_bytes`` (of it ``rss_anon_bytes``, the process's own memory, and
    ``rss_file_bytes``, mostly the libraries' code, clean pages the kernel takes back
    under pressure), ``peak_rss_bytes``, ``threads`` and ``open_files`` of this process."""
    stats = dict.fromkeys((*_FIELDS.values(), "open_files"), 0)
    try:
        lines = (_PROC / "status").read_text().splitlines()
        stats["open_files"] = len(os.listdir(_PROC / "fd"))
    except OSError:
        return stats
    for line in lines:
        key, _, value = line.partition(":")
        if key in _FIELDS:
            number, *unit = value.split()
            stats[_FIELDS[key]] = int(number) * (1024 if unit == ["kB"] else 1)
    return stats
