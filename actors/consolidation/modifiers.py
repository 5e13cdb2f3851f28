"""A noun that qualifies the noun after it ("phone wallpaper", "car park", "coffee
machine"): another thing than the one the first noun names, so no change of that one."""

from __future__ import annotations

import re

from .third_person import PAST, word_set

__all__ = ["is_modifier", "modifiers"]

#: Words that may follow a thing's noun when it is the thing itself ("my phone died", "the
#: car is", "a car last week", "lessons twice a month", "coworking downtown", "a generator
#: most days"); any other
#: small word makes it a
#: modifier of the noun after it ("phone wallpaper", "car park", "coffee machine"), which is
#: another thing.
_AFTER_A_THING = word_set(
    "once twice thrice downtown uptown nearby online abroad upstairs downstairs "
    "is was are were has had have 's will would can could won't can't doesn't didn't isn't "
    "wasn't wouldn't couldn't shouldn't hasn't haven't aren't weren't "
    "needs keeps got went broke just finally still now again too though instead anymore "
    "today yesterday tonight tomorrow last this these those next every a an the my his her their "
    "our its "
    "to for from at in on of with by into onto about after before since until and or but so "
    "during through throughout without within across around near under between per "
    "because while when that which who as than if like back up down out off over away here there "
    "most all some each both daily weekly monthly always usually often sometimes never"
)


def modifiers(text: str) -> set[str]:
    """The nouns of ``text`` that qualify the noun after them ("phone" of "phone wallpaper")."""
    return {m[0] for m in re.finditer(r"\b[a-z][\w-]*", text) if is_modifier(text, m.end())}


def is_modifier(fact: str, at: int) -> bool:
    """The noun ending at ``at`` qualifies the word after it ("phone wallpaper")."""
    after = re.match(r" ([a-z][\w'-]*)", fact[at:])
    word = after[1] if after else ""
    return bool(word) and not (
        word in _AFTER_A_THING or word.endswith(("ed", "s", "ly")) or word in PAST
    )
