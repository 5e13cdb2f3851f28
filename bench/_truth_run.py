"""``truth-dev.json`` through a real daemon, and the measures of ``../shared/evaldata/README.md``.

Each conversation is one session in its own scope; user turns carry the
speaker's name, each turn its day's timestamp, and the session is
consolidated at the end of each day, as an idle session would be. With a
handler, consolidation goes to the fake LLM answering with it; without
one, the extractive path runs.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from tests.daemon_process import DaemonProcess
from tests.fakellm import FakeLLM

START = 1_790_000_000.0  # a fixed day, so every run dates its facts alike
_FACT = re.compile(r"^- (?:\[\d{4}-\d{2}-\d{2}\] )?(.*)$")


@dataclass
class Figures:
    """One path's measures over all conversations."""

    current: int = 0
    found: int = 0
    stale: int = 0
    stale_found: int = 0
    chatter: int = 0
    facts: int = 0
    conversations: int = 0
    updated: int = 0
    deleted: int = 0
    misses: list[str] | None = None

    def row(self) -> list[str]:
        return [
            f"{self.found / max(self.current, 1):.3f} ({self.found}/{self.current})",
            f"{self.stale_found / max(self.stale, 1):.3f} ({self.stale_found}/{self.stale})",
            str(self.chatter),
            f"{self.facts / max(self.conversations, 1):.1f}",
        ]


def _config(llm: FakeLLM | None) -> str:
    text = (
        "[consolidation]\nidle_after = 600.0\nbudget_tokens = 10\ntarget_tokens = 0\n"
        "hard_tokens = 200000\n[index]\nenabled = false\n"
    )
    if llm is not None:
        text += f'[llm]\nbase_url = "{llm.base_url}"\nmodel = "scripted"\ntimeout = 10.0\n'
    return text


def _measure(conv: dict[str, Any], memory: str, figures: Figures) -> None:
    lines = [m.group(1).casefold() for line in memory.splitlines() if (m := _FACT.match(line))]
    figures.conversations += 1
    figures.facts += len(lines)
    for entry in conv["current"]:
        figures.current += 1
        if any(all(w.casefold() in line for w in entry) for line in lines):
            figures.found += 1
        else:
            figures.misses = [*(figures.misses or []), f"{conv['id']}: {entry}"]
    for value in conv["stale"]:
        figures.stale += 1
        if any(value.casefold() in line for line in lines):
            figures.stale_found += 1
            figures.misses = [*(figures.misses or []), f"{conv['id']}: stale {value}"]
    figures.chatter += sum(any(c.casefold() in line for line in lines) for c in conv["chatter"])


def run(
    conversations: list[dict[str, Any]],
    root: Path,
    handler: Callable[[dict[str, Any]], dict[str, Any]] | None,
) -> Figures:
    """Every conversation through one daemon; the figures of the path ``handler`` picks."""
    figures = Figures()
    with FakeLLM(default=handler) if handler else _Nothing() as llm:
        daemon = DaemonProcess(root, config=_config(llm)).start()
        try:
            with daemon.client() as client:
                for conv in conversations:
                    session, scope = f"truth:{conv['id']}", f"user/{conv['id']}"
                    days = sorted({t["day"] for t in conv["turns"]})
                    for day in days:
                        for i, turn in enumerate(t for t in conv["turns"] if t["day"] == day):
                            name = conv["speaker"] if turn["role"] == "user" else None
                            ts = START + day * 86400 + i * 60
                            client.append(
                                session, turn["role"], turn["text"], name=name, ts=ts, scope=scope
                            )
                        client.consolidate(session, wait=True)
                    _measure(conv, client.context(session).memory, figures)
                counts = client.status().consolidation["default"].facts
                figures.updated, figures.deleted = (
                    counts.get("updated", 0),
                    counts.get("deleted", 0),
                )
        finally:
            daemon.stop()
    return figures


class _Nothing:
    """No fake LLM: the extractive path."""

    def __enter__(self) -> None:
        return None

    def __exit__(self, *exc: object) -> None:
        return None
