"""Everyday sentences against one memory: what each retires (issue 59's red team, single scope).

``sentences.json`` (220 messages, written blind to the code by a helper for stop 67): 160
that must change none of Maya's 14 facts (trips, other people's news, plans,
suggestions, the past, states of the moment, idioms with change words in another
sense, additions, feelings) and 60 that change named ones, half of them implicitly
("handed the keys of the Panda to its new owner"). Each message is consolidated alone
on the extractive path, in-process, on the same 14-line memory; a fact is retired when
its line is gone from the new memory. Reported: messages that retired a fact they
should not have, and for the changes, those exactly right and those that missed one.

Run: ``python -m evals everyday``.
"""

from __future__ import annotations

import json
from pathlib import Path

from bench._machine import say
from bench.report import Section
from reverie.actors.consolidation.extractive import extractive_consolidation
from reverie.store import Fact, MessageRecord, TokenCounter, render_memory

SENTENCES = Path(__file__).with_name("sentences.json")
#: Maya's memory before each message: the ids ``sentences.json`` names.
FACTS = {
    "job": "Maya works as a graphic designer.",
    "employer": "Maya works at Pixelworks.",
    "city": "Maya lives in Manchester.",
    "partner": "Maya's boyfriend is Leo.",
    "pet": "Maya has a cat called Miso.",
    "car": "Maya drives a blue Fiat Panda.",
    "phone": "Maya's phone is an iPhone 12.",
    "diet": "Maya is vegetarian.",
    "drink": "Maya drinks green tea every morning.",
    "sport": "Maya plays volleyball on Thursday evenings.",
    "sister": "Maya's sister Ana lives in Porto.",
    "age": "Maya is 31.",
    "rent": "Maya's rent is 950 pounds a month.",
    "course": "Maya is learning Spanish on Duolingo.",
}
#: The day the memory was written, and the message's five days later.
WRITTEN, SAID = "2026-01-01", 1767571200.0 + 5 * 86400.0


def retired(text: str, count: TokenCounter) -> set[str]:
    """The ids of ``FACTS`` whose lines Maya's ``text``, consolidated alone, retired."""
    memory = render_memory(
        [Fact(text=t, date=WRITTEN, sources={"s": [f"m{i}"]}) for i, t in enumerate(FACTS.values())]
    )
    turn = MessageRecord(
        seq=99, id="m99", role="user", content=text, ts=SAID, tokens=1, name="Maya"
    )
    after = extractive_consolidation(
        memory, [turn], max_tokens=4000, count_tokens=count.count, session="maya"
    )
    return {key for key, line in FACTS.items() if f"] {line} " not in after.memory}


def main(argv: list[str] | None = None) -> Section:
    say(__doc__.strip().splitlines()[0])
    section = Section(title="Everyday sentences against one memory (`evals/everyday/`, issue 59)")
    section.intro = (
        "220 messages written blind to the code, each consolidated alone on Maya's 14 facts"
        " (extractive, in-process); a change is right when it retires exactly the facts it"
        " names."
    )
    count, wrong, right, missed, also = TokenCounter(), 0, 0, 0, 0
    messages = json.loads(SENTENCES.read_text())
    for message in messages:
        expected, gone = set(message["changes"]), retired(message["text"], count)
        if gone - expected:
            say(f"  retired {sorted(gone - expected)}: {message['text']}")
        if not expected:
            wrong += bool(gone)
            continue
        right += gone == expected
        missed += bool(expected - gone)
        also += bool(gone - expected)
    keep = sum(1 for m in messages if not m["changes"])
    changes = len(messages) - keep
    say(f"must change nothing: {wrong} of {keep} retired a fact")
    say(f"changes: {right} of {changes} exactly right, {missed} missed one, {also} retired another")
    table = section.table(
        "messages", "count", "retired a fact they should not", "exactly right", "missed a change"
    )
    table.row("must change nothing", keep, wrong, "–", "–")
    table.row("change named facts", changes, also, right, missed)
    return section
