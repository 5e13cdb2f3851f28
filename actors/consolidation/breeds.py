"""A being of the speaker's named by its breed: which line a pet gone ends when the turn says
only its kind ("the dog went to live with my son" of "a stubborn beagle called Pancho").
No list names breeds: the shipped embedder puts a breed near its kind ("dachshund" is 0.61
from "dog", a boss 0.43). See docs/design.md, "Facts that stay true".
"""

from __future__ import annotations

import re
from collections.abc import Sequence

from reverie.store import Fact

from .meaning import Embed
from .ownership import owner
from .words import RELATIVE, UPPER

__all__ = ["BREED", "named_beings", "of_breed"]

#: A named being of the speaker's by its kind: "Dolores's dachshund Pepper", "lives with a
#: stubborn beagle called Pancho"; or named first, "Pepper, Dolores's dachshund".
_NAMED_BEING = re.compile(
    rf"(?:'s|\b(?:an?|my|our|their)(?= (?:[a-z]+ ){{0,2}}[a-z]+ (?:called|named) ))"
    rf" (?:[a-z]+ ){{0,2}}(?P<noun>(?!(?:called|named)\b)[a-z]+) (?:(?:called|named) )?[{UPPER}][\w-]*\b|"
    # (or its noun after its name: "Bryn, their elderly springer spaniel, along the prom")
    rf"\b[{UPPER}][\w-]*, (?:[{UPPER}][\w-]*'s|my|our|their) (?:[a-z]+ ){{0,2}}(?P<after>[a-z]+)\b(?=[,.;]|$)"
)
#: How near a breed must be to its kind ("dachshund" is 0.61 from "dog"; a boss is 0.43).
BREED = 0.5


def of_breed(lines: Sequence[Fact], speaker: str, kind: set[str], embed: Embed) -> list[Fact]:
    """The lines naming a being of the speaker's whose noun is a breed of ``kind``."""
    named = [(f, noun) for f in lines if (noun := _being_of(f, speaker))]
    if not named:
        return []
    vectors = embed([*sorted(kind), *(noun for _, noun in named)])
    near = vectors[len(kind) :] @ vectors[: len(kind)].T
    return [f for (f, _), x in zip(named, near.max(axis=1), strict=True) if x >= BREED]


def named_beings(lines: Sequence[Fact], speaker: str, persons: set[str]) -> list[Fact]:
    """The lines naming a being of ``speaker``'s who is no relative: as theirs ("Bo's kelpie
    Nugget"), or by its noun and name ("keep a small budgerigar named Piko"), whatever its
    kind (the embedder knows no budgerigar: which one a death ends is the one so named)."""
    return [
        f
        for f in lines
        if (
            (line := owner(f.text, persons)).startswith(f"{speaker}'s ")
            and not RELATIVE.search(line)
        )
        or (line in (speaker, "") and bool(_being_of(f, speaker)))
    ]


def _being_of(line: Fact, speaker: str) -> str:
    """The noun of the being of ``speaker``'s ``line`` names ("beagle"), or ""."""
    if (m := _NAMED_BEING.search(line.text)) is None or RELATIVE.fullmatch(
        noun := m["noun"] or m["after"]
    ):
        return ""
    # (the speaker's answer too: "Dolores, asked …, answered …"; or theirs wherever the line
    # names it: "How to handle Sofía's beagle Churro …")
    theirs = line.text.startswith((f"{speaker}'s ", f"{speaker} ", f"{speaker}, asked "))
    return noun if theirs or line.text[: m.start() + 3].endswith(f"{speaker}'s ") else ""
