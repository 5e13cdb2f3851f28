"""What the benchmarks read about the machine and about processes, in one place.

Figures are only comparable within one run on one machine, so the report
names the machine (cores, CPU model, memory, kernel) and the library
versions it ran with; and several modules read a process's RSS and CPU time
from ``/proc``. Linux only, as the daemon itself.
"""

from __future__ import annotations

import os
import platform
import resource
from importlib import metadata
from pathlib import Path

__all__ = [
    "cpu_seconds",
    "library_versions",
    "machine_facts",
    "machine_info",
    "mark",
    "open_fds",
    "percentile",
    "raise_nofile",
    "rss_bytes",
    "say",
]

#: Distributions whose versions the report prints (apsw also gets SQLite's).
_LIBRARIES = ("trio", "lancedb", "pyarrow", "onnxruntime", "msgspec", "nanobot-ai")


def say(line: str = "") -> None:
    print(line, flush=True)


def mark(ok: bool) -> str:
    """The verdict printed beside a target."""
    return "ok " if ok else "MISS"


def rss_bytes(pid: int | str = "self") -> int:
    """VmRSS of a process, from /proc/<pid>/status."""
    for line in Path(f"/proc/{pid}/status").read_text().splitlines():
        if line.startswith("VmRSS:"):
            return int(line.split()[1]) * 1024
    return 0


def open_fds(pid: int | str = "self") -> int:
    """How many file descriptors a process holds, from /proc/<pid>/fd."""
    return len(os.listdir(f"/proc/{pid}/fd"))


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


def cpu_seconds(pid: int | str = "self") -> float:
    """utime + stime of a process, from /proc/<pid>/stat."""
    fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


def percentile(values: list[float], q: float) -> float:
    """The ``q`` quantile (nearest rank) of ``values``; 0.0 for none."""
    if not values:
        return 0.0
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(q * len(ordered)))]


def _cpu_model() -> str:
    try:
        for line in Path("/proc/cpuinfo").read_text().splitlines():
            if line.startswith("model name"):
                return line.split(":", 1)[1].strip()
    except OSError:
        pass
    return platform.processor() or "unknown"


def _memory() -> str:
    try:
        for line in Path("/proc/meminfo").read_text().splitlines():
            if line.startswith("MemTotal:"):
                return f"{int(line.split()[1]) / 1024**2:.1f} GiB"
    except OSError:
        pass
    return "unknown"


def machine_facts() -> dict[str, str]:
    """Cores, CPU model, memory, kernel, Python: the figures' context."""
    return {
        "cores (nproc)": str(len(os.sched_getaffinity(0))),
        "CPU": _cpu_model(),
        "memory": _memory(),
        "kernel": f"{platform.system()} {platform.release()}",
        "Python": f"{platform.python_implementation()} {platform.python_version()}",
    }


def library_versions() -> dict[str, str]:
    """Installed versions of the libraries on the measured paths ("not installed" if absent)."""
    versions = {}
    try:
        import apsw

        versions["apsw / SQLite"] = f"{apsw.apsw_version()} / {apsw.sqlite_lib_version()}"
    except ImportError:
        versions["apsw / SQLite"] = "not installed"
    for name in _LIBRARIES:
        try:
            versions[name] = metadata.version(name)
        except metadata.PackageNotFoundError:
            versions[name] = "not installed"
    return versions


def machine_info() -> None:
    """Print the machine and the library versions, for a module run on its own."""
    facts = {**machine_facts(), **library_versions()}
    say("; ".join(f"{k}: {v}" for k, v in facts.items()))
