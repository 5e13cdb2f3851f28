"""Merging one new fact into a scope's older lines, as a test states it (``truth.merge``)."""

from __future__ import annotations

from reverie.actors.consolidation.truth import Merged, merge
from reverie.store import Fact, MessageRecord, render_memory


def merged(speaker: str, older: list[str], new: str) -> Merged:
    facts = [Fact(text=t, date="2026-01-01", sources={"s": [f"m{i}"]}) for i, t in enumerate(older)]
    turn = MessageRecord(seq=9, id="m9", role="user", content=new, ts=1.8e9, tokens=9, name=speaker)
    fact = Fact(text=new, date="2026-01-02", sources={"s": ["m9"]})
    return merge(render_memory(facts), [fact], 2000, lambda t: len(t.split()), turns=[turn])


def merge_retired(speaker: str, older: list[str], new: str) -> list[str]:
    return [f.text for f in merged(speaker, older, new).retired]
