"""Helpers the fault tests (and bench.unread) share: a config, turns, RSS, slow clients."""

from __future__ import annotations

import fcntl
import socket
import struct
import termios
from pathlib import Path

from reverie.daemon import Client
from reverie.daemon import protocol as p
from reverie.daemon.protocol.framing import frame
from tests.daemon_process import DaemonProcess
from tests.fakellm import FakeLLM

WORDS = ["the", "quick", "brown", "fox", "jumps", "over", "the", "lazy", "dog", "near", "today"]


def turns(client: Client, session: str, n: int, prefix: str = "") -> list[str]:
    """Append ``n`` user/assistant turns (about 20 tokens each); the acked ids."""
    ids = []
    for i in range(n):
        text = " ".join(WORDS)
        ids.append(client.append(session, "user", f"{prefix}Question {i}: {text}").id)
        ids.append(client.append(session, "assistant", f"{prefix}Answer {i}: {text}").id)
    return ids


def _status_kib(pid: int, field: str) -> int:
    for line in Path(f"/proc/{pid}/status").read_text().splitlines():
        if line.startswith(f"{field}:"):
            return int(line.split()[1])
    raise AssertionError(f"no {field} for pid {pid}")


def rss_kib(pid: int) -> int:
    """The process's resident set size, from /proc (kernel accounting, no sampling)."""
    return _status_kib(pid, "VmRSS")


def peak_rss_kib(pid: int) -> int:
    """The process's resident high-water mark (VmHWM): no peak between two reads is missed."""
    return _status_kib(pid, "VmHWM")


def fault_config(llm: FakeLLM) -> str:
    """Extractive consolidation (no [llm]) and the fake server's embeddings (fast to start)."""
    return f"""
[consolidation]
idle_after = 3600.0
budget_tokens = 60
target_tokens = 20
retry_base = 0.2

[embeddings]
provider = "openai"
base_url = "{llm.base_url}"
model = "fake-embed"
"""


PAGE = 200  # messages per page of the big session's history
CONTENT = "x" * 20_000  # a page is about 4 MB


def big_session(daemon: DaemonProcess) -> None:
    """A session ``big`` whose ``history(limit=PAGE)`` is a reply of about 4 MB."""
    with daemon.client() as client:
        for _ in range(PAGE // 40):  # 40 messages of 20 KB: under the 1 MiB frame limit
            client.append_many("big", [{"role": "user", "content": CONTENT}] * 40)
        assert len(client.history("big", limit=PAGE)) == PAGE


def hog(daemon: DaemonProcess, requests: int, page: int = PAGE) -> socket.socket:
    """A connection that asks for ``requests`` pages of ``big`` at once and never reads.

    A page is ``page`` messages of 20 KB: about 4 MB at ``PAGE``.
    """
    sock = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
    sock.connect(str(daemon.socket))
    pages = (p.History(rid=rid, session="big", limit=page) for rid in range(1, requests + 1))
    sock.sendall(b"".join(frame(p.encode(r)) for r in pages))
    return sock


def unread_by_peer(sock: socket.socket) -> int:
    """Bytes this socket sent that its peer has not read yet (SIOCOUTQ)."""
    buf = fcntl.ioctl(sock.fileno(), termios.TIOCOUTQ, struct.pack("i", 0))
    return int(struct.unpack("i", buf)[0])
