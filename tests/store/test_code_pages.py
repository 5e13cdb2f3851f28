"""An idle daemon's read-only file pages go back to the kernel (a real process, a real file)."""

from __future__ import annotations

import subprocess
import sys
import textwrap
from pathlib import Path

from reverie.store import page_out_code

# A child maps a file no other process maps (the kernel leaves shared pages alone),
# reads every page of it, and reports its resident file pages around page_out_code.
_CHILD = textwrap.dedent(
    """
    import mmap, sys
    from reverie.store import page_out_code

    def rss_file_kib():
        for line in open("/proc/self/status"):
            if line.startswith("RssFile:"):
                return int(line.split()[1])

    with open(sys.argv[1], "rb") as f:
        mapped = mmap.mmap(f.fileno(), 0, prot=mmap.PROT_READ)
    total = sum(mapped[i + 1] for i in range(0, len(mapped), mmap.PAGESIZE))
    before = rss_file_kib()
    advised = page_out_code()
    print(before, rss_file_kib(), advised, total)
    """
)


def test_page_out_code_gives_a_mapped_files_pages_back(tmp_path: Path) -> None:
    data = tmp_path / "data.bin"
    data.write_bytes(bytes(range(256)) * (32 << 12))  # 32 MiB, every page non-zero
    done = subprocess.run(
        [sys.executable, "-c", _CHILD, str(data)], capture_output=True, text=True, check=True
    )
    before, after, advised, total = (int(x) for x in done.stdout.split())
    assert total > 0  # the pages were read, so they were resident
    assert advised > 0
    assert before - after > 24 << 10, done.stdout  # most of the 32 MiB left the process


def test_page_out_code_does_nothing_without_a_maps_file(tmp_path: Path) -> None:
    assert page_out_code(tmp_path / "no-such-maps") == 0
