"""Idle consolidation with a real model: 20 sessions of the development conversations.

A real daemon consolidates 20 idle sessions, each one day of a LoCoMo
development conversation (both speakers as named users), with a real
``llama-server`` serving SmolLM2-135M-Instruct (``make llm-build``), and
``llm.max_job_tokens`` at its default. Printed in one run:

- jobs, model calls by outcome, the slowest call and the wall time until
  every session is under budget;
- what the grounding check made of the model's facts (kept, dropped as not
  found in the turns, extractive stand-ins when none was kept);
- facts in ``MEMORY.md`` whose names or numbers are absent from their source
  turns (the target is none);
- against the extractive path on the same turns, in the same process: facts
  per job.

Needs ``../shared/evaldata/`` (skipped with a message where it is absent).
"""

from __future__ import annotations

import re
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT))

from bench._machine import say  # noqa: E402
from bench.kvcache import _binaries  # noqa: E402
from bench.report import Section  # noqa: E402
from evals.locomo.data import Conversation, load  # noqa: E402
from reverie.actors.consolidation.extractive import extractive_consolidation  # noqa: E402
from reverie.daemon import Client  # noqa: E402
from reverie.store import MessageRecord, TokenCounter, parse_memory  # noqa: E402
from tests.daemon_process import DaemonProcess  # noqa: E402
from tests.llm.llama_server import LlamaServer  # noqa: E402

SESSIONS = 20
DATA = ROOT.parent / "shared" / "evaldata" / "locomo-dev.json"
BUDGET, TARGET = 300, 100
_CALL = re.compile(r"consolidated \d+ turns in ([\d.]+)s")
_WORD = re.compile(r"[^\W_][\w'-]*")


def sessions(conversations: list[Conversation]) -> list[tuple[str, list[tuple[str, str, float]]]]:
    """The first days of each conversation, round robin: (name, [(speaker, text, ts)])."""
    days: list[list[tuple[str, list[tuple[str, str, float]]]]] = []
    for conv in conversations:
        by_day: dict[str, list[tuple[str, str, float]]] = {}
        for turn in conv.turns:
            day = turn.dia_id.split(":")[0]
            text = turn.text.split(": ", 1)[1]
            by_day.setdefault(f"{conv.session}:{day}", []).append((turn.speaker, text, turn.ts))
        days.append(list(by_day.items()))
    mixed = [day for group in zip(*days, strict=False) for day in group]
    return mixed[:SESSIONS]


def _names_and_numbers(text: str) -> set[str]:
    words = _WORD.findall(text)
    return {w.casefold() for w in words[1:] if w[0].isupper() or any(c.isdigit() for c in w)}


def absent(client: Client, scope: str, texts: dict[str, str], speakers: set[str]) -> list[str]:
    """Facts of ``scope`` naming a name or number that none of their source turns holds."""
    facts, _ = parse_memory(client.memory(scope, limit=1).memory)
    bad = []
    for fact in facts:
        source = " ".join(texts.get(i, "") for ids in fact.sources.values() for i in ids)
        known = _names_and_numbers("X " + source + " " + " ".join(speakers))
        if _names_and_numbers(fact.text) - known:
            bad.append(fact.text)
    return bad


def extractive_facts(said: dict[str, tuple[str, str, float]], ids: list[str], session: str) -> int:
    """Facts the extractive path finds in the same turns as one job."""
    count = TokenCounter().count
    records = []
    for n, i in enumerate(ids):
        speaker, text, ts = said[i]
        records.append(
            MessageRecord(
                seq=n + 1, id=i, role="user", content=text, ts=ts, tokens=count(text), name=speaker
            )
        )
    return len(
        extractive_consolidation(
            "", records, max_tokens=4000, count_tokens=count, session=session
        ).facts
    )


def main() -> Section:
    say(__doc__.strip().splitlines()[0])
    section = Section(
        title="Consolidation with a real model (`evals/llm_consolidate.py`, issue 24)"
    )
    found = _binaries()
    if found is None or not DATA.exists():
        why = "no llama-server (`make llm-build`)" if found is None else f"no {DATA}"
        say(f"  skipped: {why}")
        section.notes = f"Not run: {why}."
        return section
    days = sessions(load(DATA))
    with tempfile.TemporaryDirectory() as tmp:
        server = LlamaServer(*found, Path(tmp) / "server.log").start()
        config = (
            f"[consolidation]\nidle_after = 1.0\nbudget_tokens = {BUDGET}\ntarget_tokens = {TARGET}\n"
            f'[llm]\nbase_url = "{server.base_url}"\nmodel = "smollm2"\nslot_id = 0\n'
            "[index]\nenabled = false\n"
        )
        (Path(tmp) / "d").mkdir()
        daemon = DaemonProcess(Path(tmp) / "d", config=config).start()
        try:
            return _measure(daemon, days, section)
        finally:
            daemon.stop()
            server.stop()


def _measure(
    daemon: DaemonProcess, days: list[tuple[str, list[tuple[str, str, float]]]], section: Section
) -> Section:
    said: dict[str, tuple[str, str, float]] = {}  # message id -> speaker, text, ts
    speakers: set[str] = set()
    with daemon.client() as client:
        for name, turns in days:
            messages = [{"role": "user", "content": t, "name": s, "ts": ts} for s, t, ts in turns]
            acks = client.append_many(name, messages)
            said |= {a.id: turn for a, turn in zip(acks, turns, strict=True)}
            speakers |= {s for s, _, _ in turns}
        say(f"  .. {len(days)} sessions appended; waiting until every one is under budget")
        started = time.monotonic()
        while True:
            backend = client.status().consolidation["default"]
            over = [n for n, _ in days if client.context(n, max_tokens=0).tokens > BUDGET]
            if not over and backend.queued == 0 and backend.running == 0:
                break
            time.sleep(2)
        elapsed = time.monotonic() - started
        texts = {i: text for i, (_, text, _) in said.items()}
        bad = [f for name, _ in days for f in absent(client, f"session/{name}", texts, speakers)]
        jobs = [
            (name, e.message_ids)
            for name, _ in days
            for e in client.memory(f"session/{name}", limit=1000).entries
        ]
    extractive = sum(extractive_facts(said, ids, name) for name, ids in jobs)
    calls = [float(s) for s in _CALL.findall(daemon.log())]
    facts = backend.facts
    offered = facts["kept"] + facts["dropped"]
    t = section.table("figure", "measured")
    t.row("sessions consolidated (under budget)", f"{len(days)} of {len(days)}")
    t.row(
        "jobs done / retried / extractive",
        f"{backend.outcomes['done']} / {backend.outcomes['retried']} / {backend.outcomes['extractive']}",
    )
    t.row(
        "model calls by outcome",
        ", ".join(f"{k} {v}" for k, v in sorted(backend.llm["calls"].items())),
    )
    t.row("slowest successful call / mean", f"{max(calls):.1f} s / {sum(calls) / len(calls):.1f} s")
    t.row("wall time until all under budget", f"{elapsed:.0f} s")
    t.row(
        "prompt / cached / completion tokens",
        f"{backend.llm['prompt_tokens']} / {backend.llm['cached_tokens']} / {backend.llm['completion_tokens']}",
    )
    t.row(
        "model facts kept (grounded)",
        f"{facts['kept']} of {offered} ({facts['kept'] / max(offered, 1):.0%})",
    )
    t.row("extractive stand-ins (no model fact kept)", facts["extractive"])
    t.row("summary sentences dropped", facts["summary_dropped"])
    t.row("facts in MEMORY.md with a name or number absent from their turns", len(bad))
    t.row(
        "facts per job: model (kept + stand-ins) vs the extractive path on the same turns",
        f"{(facts['kept'] + facts['extractive']) / len(jobs):.1f} vs {extractive / len(jobs):.1f} ({len(jobs)} jobs)",
    )
    slowest = max(calls, default=0.0)
    section.target(
        "llm.jobs",
        f"{len(days) - len(over)} of {len(days)} consolidated; slowest call {slowest:.1f} s",
        not over and slowest <= 30 and backend.outcomes["retried"] == 0,
    )
    section.target("llm.grounded", f"{len(bad)} facts", not bad)
    for row in t.rows:
        say(f"  {row[0]}: {row[1]}")
    for fact in bad[:5]:
        say(f"  ungrounded: {fact}")
    return section
