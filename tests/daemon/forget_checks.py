"""Checks the forget tests share: a secret said, spread to every kind of file, and looked for."""

from __future__ import annotations

import uuid
from pathlib import Path

from reverie.daemon import Client
from tests.checks import poll
from tests.daemon_process import DaemonProcess


def holders(root: Path, needle: str) -> list[str]:
    """Every file under ``root`` whose bytes contain ``needle`` (binary-safe)."""
    raw = needle.encode()
    found = []
    for path in sorted(root.rglob("*")):
        try:
            if path.is_file() and raw in path.read_bytes():
                found.append(str(path.relative_to(root)))
        except FileNotFoundError:  # a temp file that went while we walked
            continue
    return found


def say_secret(client: Client, session: str, scope: str | None = None) -> str:
    """A user statement the extractive path keeps as a fact, with a unique token in it."""
    secret = f"Zq{uuid.uuid4().hex[:12]}x"
    client.append(session, "user", f"My locker code is {secret} and I live in Porto.", scope=scope)
    client.append(session, "assistant", "Noted, I will remember that.")
    return secret


def everywhere(daemon: DaemonProcess, client: Client, session: str, secret: str) -> None:
    """Consolidated into Markdown and indexed: the secret is in every kind of file."""
    assert client.consolidate(session, wait=True) is not None
    poll(
        lambda: (
            client.status().index.settled
            and any(
                secret in h.text
                for h in client.search(secret, kinds=["episode", "fact"], everywhere=True)
            )
        ),
        what="the secret indexed and the index settled",
    )
    held = holders(daemon.data_dir, secret)
    assert any(p.startswith("memory/") for p in held), held
    assert any(p.startswith("index") for p in held), held
