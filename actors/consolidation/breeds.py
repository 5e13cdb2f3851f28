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
from .words import RELATIVE, UPPER

__all__ = ["BREED", "of_breed"]

#: A named being of the speaker's by its kind: "Dolores's dachshund Pepper", "lives with a
#: stubborn beagle called Pancho"; or named first, "Pepper, Dolores's dachshund".
_NAMED_BEING = re.compile(
    rf"(?:'s|\b(?:an?|my|our|their)(?= (?:[a-z]+ )?[a-z]+ (?:called|named) ))"
    rf" (?:[a-z]+ )?(?P<noun>(?!(?:called|named)\b)[a-z]+) (?:(?:called|named) )?[{UPPER}][\w-]*\b|"
    rf"\b[{UPPER}][\w-]*, [{UPPER}][\w-]*'s (?P<after>[a-z]+)\b"
)
#: How near a breed must be to its kind ("dachshund" is 0.61 from "dog"; a boss is 0.43).
BREED = 0.5


def of_breed(lines: Sequence[Fact], speaker: str, kind: set[str], embed: Embed) -> list[Fact]:
    """The lines naming a being of the speaker's whose noun is a breed of ``kind``."""
    named = [
        (f, m["noun"] or m["after"])
        for f in lines
        if (m := _NAMED_BEING.search(f.text))
        # (the speaker's answer too: "Dolores, asked …, answered …"; or theirs wherever the
        # line names it: "How to handle Sofía's beagle Churro …")
        and (
            f.text.startswith((f"{speaker}'s ", f"{speaker} ", f"{speaker}, asked "))
            or f.text[: m.start() + 3].endswith(f"{speaker}'s ")
        )
        and not RELATIVE.fullmatch(m["noun"] or m["after"])
    ]
    if not named:
        return []
    vectors = embed([*sorted(kind), *(noun for _, noun in named)])
    near = vectors[len(kind) :] @ vectors[: len(kind)].T
    return [f for (f, _), x in zip(named, near.max(axis=1), strict=True) if x >= BREED]
