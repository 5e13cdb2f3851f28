"""Everyday sentences against one memory: what each retires (issue 59's red team, single scope).

Four sets, each written blind to the code by a helper: ``sentences.json`` (stop 67, 220
messages of Maya's, 160 that must change none of her 14 facts and 60 that change named
ones), ``tomas.json`` (stop 68, 240 of Tomás's, 160 and 80, on 14 facts of other kinds:
a bike, a laptop, a gym, a class, his children; measured before any rule read it) and
``team.json`` (stop 68, 200 of Bob's in a team's memory that also holds 11 of Alice's
facts, none of which his words may retire: 150 that must change nothing, tempting ones
with her words, and 50 that change his own), and ``team2.json`` (stop 91, 200 more of
Bob's on the same memory; of its 150 that must change nothing, 48 are news of others named
by a role or by a name with who they are: "My line manager just bought an Audi", "Kevin,
the new IT guy, lives in Bristol"; read that stop once measured, so no longer blind). The messages that must change nothing are trips, other people's news, plans,
suggestions, the past, states of the moment, idioms with change words in another sense,
additions, feelings and compound nouns; half the changes are implicit ("handed the keys
of the Panda to its new owner"). Each message is consolidated alone on the extractive
path, in-process, on its memory; a fact is retired when its line is gone from the new
memory. Reported: messages that retired a fact they should not have, and for the
changes, those exactly right and those that missed one.

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
#: Tomás's memory before each message: the ids ``tomas.json`` names.
TOMAS = {
    "job": "Tomás works as a paramedic.",
    "employer": "Tomás works at the West Midlands Ambulance Service.",
    "city": "Tomás lives in Birmingham.",
    "partner": "Tomás's wife is Hana.",
    "pet": "Tomás has a dog called Biscuit.",
    "bike": "Tomás rides a Brompton to work.",
    "laptop": "Tomás's laptop is a Dell XPS 13.",
    "diet": "Tomás doesn't eat pork.",
    "drink": "Tomás drinks a flat white every morning.",
    "sport": "Tomás runs with a club on Saturday mornings.",
    "brother": "Tomás's brother Diego lives in Valencia.",
    "kids": "Tomás has two daughters.",
    "gym": "Tomás has a membership at PureGym.",
    "class": "Tomás takes guitar lessons on Tuesday evenings.",
}
#: A team's memory, Alice's facts and Bob's: the ids ``team.json`` names (Bob's messages).
TEAM = {
    "a_job": "Alice works as a nurse.",
    "a_employer": "Alice works at St Mary's Hospital.",
    "a_city": "Alice lives in Bristol.",
    "a_partner": "Alice's husband is Pedro.",
    "a_pet": "Alice has a cat called Luna.",
    "a_car": "Alice drives a grey Honda Jazz.",
    "a_phone": "Alice's phone is a Pixel 7.",
    "a_diet": "Alice is vegan.",
    "a_sport": "Alice swims on Monday evenings.",
    "a_brother": "Alice's brother Carl lives in Oslo.",
    "a_kids": "Alice has a son called Theo.",
    "b_job": "Bob works as an accountant.",
    "b_employer": "Bob works at Globex.",
    "b_city": "Bob lives in Bath.",
    "b_partner": "Bob's girlfriend is Mia.",
    "b_pet": "Bob has a dog called Rex.",
    "b_car": "Bob drives a red Ford Fiesta.",
    "b_sport": "Bob plays five-a-side football on Thursdays.",
    "b_drink": "Bob drinks black coffee.",
}
#: Each set: its messages, whose they are, and the memory they are said against.
SETS = [
    (SENTENCES, "Maya", FACTS),
    (SENTENCES.with_name("tomas.json"), "Tomás", TOMAS),
    (SENTENCES.with_name("team.json"), "Bob", TEAM),
    (SENTENCES.with_name("team2.json"), "Bob", TEAM),
]
#: The day the memory was written, and the message's five days later.
WRITTEN, SAID = "2026-01-01", 1767571200.0 + 5 * 86400.0


def retired(
    text: str, count: TokenCounter, speaker: str = "Maya", facts: dict[str, str] = FACTS
) -> set[str]:
    """The ids of ``facts`` whose lines ``speaker``'s ``text``, consolidated alone, retired."""
    memory = render_memory(
        [Fact(text=t, date=WRITTEN, sources={"s": [f"m{i}"]}) for i, t in enumerate(facts.values())]
    )
    turn = MessageRecord(
        seq=99, id="m99", role="user", content=text, ts=SAID, tokens=1, name=speaker
    )
    after = extractive_consolidation(
        memory, [turn], max_tokens=4000, count_tokens=count.count, session=speaker.casefold()
    )
    return {key for key, line in facts.items() if f"] {line} " not in after.memory}


def main(argv: list[str] | None = None) -> Section:
    say(__doc__.strip().splitlines()[0])
    section = Section(title="Everyday sentences against one memory (`evals/everyday/`, issue 59)")
    section.intro = (
        "Messages written blind to the code, each consolidated alone on its memory (14 facts,"
        " or a team's 19: Bob's words never retire Alice's)"
        " (extractive, in-process); a change is right when it retires exactly the facts it"
        " names."
    )
    table = section.table(
        "memory",
        "messages",
        "count",
        "retired a fact they should not",
        "of another person's",
        "exactly right",
        "missed a change",
    )
    count = TokenCounter()
    for path, speaker, facts in SETS:
        label = f"{speaker} ({path.name})"
        wrong, right, missed, also, others = 0, 0, 0, 0, 0
        messages = json.loads(path.read_text())
        for message in messages:
            expected = set(message["changes"])
            gone = retired(message["text"], count, speaker, facts)
            if gone - expected:
                say(f"  {label}: retired {sorted(gone - expected)}: {message['text']}")
            # (a line not opening with the speaker's name is someone else's: Alice's, for Bob)
            others += any(not facts[key].startswith(speaker) for key in gone)
            if not expected:
                wrong += bool(gone)
                continue
            right += gone == expected
            missed += bool(expected - gone)
            also += bool(gone - expected)
        keep = sum(1 for m in messages if not m["changes"])
        changes = len(messages) - keep
        say(f"{label}: must change nothing: {wrong} of {keep} retired a fact")
        say(
            f"{label}: changes: {right} of {changes} exactly right, {missed} missed one,"
            f" {also} retired another"
        )
        say(f"{label}: {others} of {len(messages)} retired a fact of another person's")
        table.row(label, "must change nothing", keep, wrong, "–", "–", "–")
        table.row(label, "change named facts", changes, also, "–", right, missed)
        table.row(label, "all", len(messages), "–", others, "–", "–")
    return section
