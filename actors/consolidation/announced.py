"""A change announced by what changed, before or without its new value: "rotation changed,
I'm in equine now", "my shift pattern changed again", "the schedule's changed".

The words name the thing, not its value, so the new value said after them has no key or
word in common with the old line; the line holding the thing's noun is the one that
changed. See docs/design.md, "Facts that stay true".
"""

from __future__ import annotations

import re
from collections.abc import Sequence

from reverie.store import Fact, MessageRecord

from .of_kind import holds
from .ownership import theirs_before

__all__ = ["announced"]

#: A sentence (or its first clause) saying a thing of theirs changed: "rotation changed",
#: "my thesis supervisor changed", "the schedule's changed again" (not "I changed", nor what
#: changed for someone else, "her job changed").
_CHANGED = re.compile(
    r"(?:^|[.!?;]\s+)(?:(?:so|ok|okay|and|also|oh|well|ugh),? )*(?:(?:my|the|our) )?"
    r"(?:[a-z]+ )?(?P<noun>[a-z]{4,})(?:'s| has| have| got| just)? changed"
    r"(?: again| last week| this week| today| yesterday)?(?=[,.!;:]|\s*$| so\b| and\b)",
    re.IGNORECASE,
)
#: Nouns whose change is no thing of a line's: a mood or the world.
_NO_THING = frozenset(
    [
        "everything",
        "things",
        "life",
        "mind",
        "plan",
        "plans",
        "weather",
        "world",
        "situation",
        "something",
        "nothing",
    ]
)


def announced(
    facts: Sequence[Fact], turns: Sequence[MessageRecord], speakers: dict[str, str]
) -> list[tuple[Fact, None]]:
    """Each line of ``facts``, said before its turn, holding the thing a turn of ``turns``
    says changed: the one line of the speaker's holding its noun."""
    changes: list[tuple[Fact, None]] = []
    for at, turn in enumerate(turns):
        if turn.role != "user":
            continue
        for found in _CHANGED.finditer(turn.content):
            if (noun := found["noun"].lower()) in _NO_THING:
                continue
            mine = theirs_before(facts, turns, at, speakers[turn.id])
            held = [f for f in mine if holds(noun, f.text)]
            if len(held) == 1 and all(held[0] is not old for old, _ in changes):
                changes.append((held[0], None))
    return changes
