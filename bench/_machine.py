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
from dataclasses import dataclass
from importlib import metadata
from pathlib import Path

__all__ = [
    "INDEX_THREADS",
    "SYSCALLS_COUNTED",
    "Cost",
    "Usage",
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


def _stat(path: Path) -> list[str]:
    """The fields of a /proc stat file after the command name (which may hold spaces)."""
    return path.read_text().rsplit(")", 1)[1].split()


def _cpu(fields: list[str]) -> float:
    """utime + stime, in seconds, of a /proc stat file's fields."""
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


def cpu_seconds(pid: int | str = "self") -> float:
    """utime + stime of a process, from /proc/<pid>/stat."""
    return _cpu(_stat(Path(f"/proc/{pid}/stat")))


#: What :attr:`Usage.syscalls` counts, in the words the bench prints beside the figure.
SYSCALLS_COUNTED = (
    "read/write-family system calls of all the process's threads (read, pread64, readv,"
    " preadv, write, pwrite64, writev, pwritev: the kernel's `syscr` + `syscw` in"
    " /proc/<pid>/io); Linux does not count socket send/recv (sendto, recvfrom, sendmsg,"
    " recvmsg), epoll, fsync or futex calls there, so on the daemon this is mostly SQLite's"
    " file I/O"
)


def io_syscalls(pid: int | str = "self") -> int:
    """``syscr + syscw`` of a process, from /proc/<pid>/io (raises OSError if unreadable)."""
    fields = dict(line.split(": ", 1) for line in Path(f"/proc/{pid}/io").read_text().splitlines())
    try:
        return int(fields["syscr"]) + int(fields["syscw"])
    except (KeyError, ValueError) as exc:
        raise OSError(f"/proc/{pid}/io has no syscr/syscw: {exc}") from exc


#: Threads whose CPU is the search index's, not the request path's (see :func:`index_threads`).
INDEX_THREADS = (
    "the search index's threads: those at a lowered priority (nice > 0: the embedding pool)"
    " and LanceDB's own runtime threads (named `lance*`)"
)


def index_cpu_seconds(pid: int | str = "self") -> dict[int, float]:
    """CPU seconds so far of each of the process's index threads, by thread id.

    They are told apart by what the kernel shows of them (/proc/<pid>/task):
    a positive nice value or a name starting with "lance".
    """
    seconds: dict[int, float] = {}
    for task in Path(f"/proc/{pid}/task").iterdir():
        try:
            fields = _stat(task / "stat")
            name = (task / "comm").read_text().strip()
        except OSError:
            continue  # the thread ended meanwhile
        if int(fields[16]) > 0 or name.startswith("lance"):
            seconds[int(task.name)] = _cpu(fields)
    return seconds


@dataclass(frozen=True, slots=True)
class Usage:
    """A process's CPU time (user + sys, all threads) and read/write syscalls, at one moment.

    ``syscalls`` is None when /proc/<pid>/io cannot be read (another user's
    process, a hardened /proc); ``why_not`` then says why, so the figure is
    printed as "n/a" with its reason instead of stopping the run.
    """

    cpu: float
    syscalls: int | None
    why_not: str = ""
    index: dict[int, float] | None = None  # CPU of each index thread (index_cpu_seconds)

    @classmethod
    def of(cls, pid: int | str = "self") -> Usage:
        index = index_cpu_seconds(pid)
        try:
            return cls(cpu_seconds(pid), io_syscalls(pid), index=index)
        except OSError as exc:
            why = f"/proc/{pid}/io unreadable: {exc.strerror or exc}"
            return cls(cpu_seconds(pid), None, why, index=index)


@dataclass(frozen=True, slots=True)
class Cost:
    """What a process spent per request between two :class:`Usage` readings."""

    cpu_us: float  # CPU µs per request, all threads
    syscalls: float | None  # read/write syscalls per request (see SYSCALLS_COUNTED)
    why_not: str = ""
    index_us: float = 0.0  # of cpu_us, the index threads' (INDEX_THREADS)

    @property
    def request_path_us(self) -> float:
        """CPU µs per request outside the index threads: event loop, SQLite threads, the rest."""
        return self.cpu_us - self.index_us

    @classmethod
    def between(cls, before: Usage, after: Usage, requests: int) -> Cost:
        n = max(1, requests)
        cpu_us = (after.cpu - before.cpu) / n * 1e6
        index_us = _index_seconds(before, after) / n * 1e6
        if before.syscalls is None or after.syscalls is None:
            return cls(cpu_us, None, before.why_not or after.why_not, index_us)
        return cls(cpu_us, (after.syscalls - before.syscalls) / n, index_us=index_us)

    def syscalls_text(self) -> str:
        """The syscalls per request, or ``n/a (why)``."""
        return f"{self.syscalls:.2f}" if self.syscalls is not None else f"n/a ({self.why_not})"


def _index_seconds(before: Usage, after: Usage) -> float:
    """The index threads' CPU between two readings (a thread born meanwhile counts from 0)."""
    start, end = before.index or {}, after.index or {}
    return sum(cpu - start.get(tid, 0.0) for tid, cpu in end.items())


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
