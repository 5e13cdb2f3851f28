"""Merging new facts into a scope's older lines, as a test states it: one fact through
``truth.merge``, or turns through the whole extractive path a day apart."""

from __future__ import annotations

from reverie.actors.consolidation.extractive import extractive_consolidation
from reverie.actors.consolidation.truth import Merged, merge
from reverie.store import Fact, MessageRecord, TokenCounter, render_memory

COUNT = TokenCounter().count


def merged(speaker: str, older: list[str], new: str) -> Merged:
    facts = [Fact(text=t, date="2026-01-01", sources={"s": [f"m{i}"]}) for i, t in enumerate(older)]
    # (said the day after the older lines, as the new fact is dated)
    turn = MessageRecord(
        seq=9, id="m9", role="user", content=new, ts=1767312000.0, tokens=9, name=speaker
    )
    fact = Fact(text=new, date="2026-01-02", sources={"s": ["m9"]})
    return merge(render_memory(facts), [fact], 2000, lambda t: len(t.split()), turns=[turn])


def merge_retired(speaker: str, older: list[str], new: str) -> list[str]:
    return [f.text for f in merged(speaker, older, new).retired]


def memory_after(*said: tuple[str, str | None, str]) -> str:
    """MEMORY.md after one extractive job per (text, speaker name, session), a day apart."""
    memory = ""
    for day, (text, name, source) in enumerate(said):
        turn = MessageRecord(
            seq=day + 1,
            id=f"m{day}",
            role="user",
            content=text,
            ts=day * 86400.0,
            tokens=1,
            name=name,
        )
        memory = extractive_consolidation(
            memory, [turn], max_tokens=2000, count_tokens=COUNT, session=source
        ).memory
    return memory


def lines_after(speaker: str, *turns: str) -> list[str]:
    """The memory's lines after one job per turn of ``speaker``, a day apart, in one scope."""
    return facts_of(memory_after(*((turn, speaker, "s") for turn in turns)))


def lines_of_one_job(speaker: str, *turns: str) -> list[str]:
    """The memory's lines after one job over every turn of ``speaker`` (a day told at once)."""
    records = [
        MessageRecord(seq=i + 1, id=f"m{i}", role="user", content=t, ts=i, tokens=1, name=speaker)
        for i, t in enumerate(turns)
    ]
    return facts_of(
        extractive_consolidation(
            "", records, max_tokens=2000, count_tokens=COUNT, session="s"
        ).memory
    )


def lines_of_days(speaker: str, *days: list[str]) -> list[str]:
    """The memory's lines after one job per day of turns, a day apart; a turn written
    "A: …" is the assistant's, any other ``speaker``'s."""
    memory, seq = "", 0
    for day, turns in enumerate(days):
        records = []
        for text in turns:
            seq += 1
            mine = not text.startswith("A: ")
            records.append(
                MessageRecord(
                    seq=seq,
                    id=f"m{seq}",
                    role="user" if mine else "assistant",
                    content=text if mine else text[3:],
                    ts=day * 86400.0 + seq,
                    tokens=1,
                    name=speaker if mine else None,
                )
            )
        memory = extractive_consolidation(
            memory, records, max_tokens=2000, count_tokens=COUNT, session="s"
        ).memory
    return facts_of(memory)


def facts_of(memory: str) -> list[str]:
    """The lines of ``memory`` as written, without their dates and sources."""
    return [line.split("] ", 1)[1].split(" <!--")[0] for line in memory.splitlines()[2:]]
