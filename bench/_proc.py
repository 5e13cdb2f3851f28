"""Helpers the benchmark modules share: printing, machine info, and reading a process from /proc.

Figures about the daemon (RSS, CPU, open fds) are read from ``/proc/<pid>``
rather than asked for over the socket, so that measuring does not open a
connection or add a request to the load being measured.
"""

from __future__ import annotations

import os
import platform
import resource
import sys
from pathlib import Path

import apsw
import trio


def say(line: str = "") -> None:
    print(line, flush=True)


def machine_info() -> None:
    say(f"machine: nproc={os.cpu_count()}  {platform.platform()}")
    say(f"python {platform.python_version()} ({sys.executable})")
    say(f"apsw {apsw.apsw_version()}  sqlite {apsw.sqlite_lib_version()}  trio {trio.__version__}")


def _status_kib(pid: int | str, field: str) -> int:
    for line in Path(f"/proc/{pid}/status").read_text().splitlines():
        if line.startswith(field + ":"):
            return int(line.split()[1]) * 1024
    return 0


def rss_bytes(pid: int | str = "self") -> int:
    """VmRSS of a process, from /proc/<pid>/status."""
    return _status_kib(pid, "VmRSS")


def peak_rss_bytes(pid: int | str = "self") -> int:
    """VmHWM (the kernel's own high-water mark of RSS) of a process."""
    return _status_kib(pid, "VmHWM")


def open_fds(pid: int | str = "self") -> int:
    """How many file descriptors a process holds, from /proc/<pid>/fd."""
    return len(os.listdir(f"/proc/{pid}/fd"))


def cpu_seconds(pid: int) -> float:
    """utime + stime of a process, from /proc/<pid>/stat."""
    fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


def raise_nofile(wanted: int) -> int:
    """Raise this process's soft RLIMIT_NOFILE towards ``wanted`` (capped by the hard limit).

    Children started afterwards inherit it, which is how the daemon under test
    gets enough descriptors for a thousand connections. Returns the new soft limit.
    """
    soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    target = wanted if hard == resource.RLIM_INFINITY else min(wanted, hard)
    if soft != resource.RLIM_INFINITY and soft < target:
        resource.setrlimit(resource.RLIMIT_NOFILE, (target, hard))
        soft = target
    return soft


def percentile(values: list[float], q: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(q * len(ordered)))]
