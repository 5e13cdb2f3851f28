"""The shift someone works, moved: "the home moved me to days" after "does nights mostly",
"I'm on earlies now" after "a cashier at Lidl, late shifts".

A shift is one of a few times of day work is done in (nights, days, mornings,
evenings, earlies, lates, graveyards), so a new one said as a change replaces the
one line of the speaker's holding another; of a line that says more, only the clause
on the shift goes (``change.apart``). See docs/design.md, "Facts that stay true".
"""

from __future__ import annotations

import re
from collections.abc import Sequence

from reverie.store import Fact

from .change import Displaced, apart
from .ownership import theirs
from .signals import hedged

__all__ = ["shift_moved"]

#: A shift said of someone: "on nights", "moved me to days", "does nights", "night shift",
#: "late shifts", "the graveyard shift" (not "three days a week", "these days", "days off").
_SHIFT = re.compile(
    r"\b(?:on|to|onto|doing|does|do|works?|working) (?:the )?"
    r"(?P<plural>nights|days|mornings|evenings|earlies|lates)\b(?! (?:a|per|off|ago)\b)"
    r"|\b(?P<named>night|day|morning|evening|early|late|graveyard|overnight) shifts?\b",
    re.IGNORECASE,
)
#: The words a shift is moved with: "moved me to days", "switched to nights", "now".
_MOVED = re.compile(r"\b(?:moved|put|switched|changed|transferred|now)\b", re.IGNORECASE)
#: One shift, however it is said: "nights" and "night shift" are one.
_ONE = {"overnight": "night", "graveyard": "night", "earlie": "early"}


def shift_moved(older: Sequence[Fact], new: Fact, said: str, speaker: str) -> Displaced | None:
    """The one line of the speaker's holding a shift other than the one ``new`` (``said``
    with its opener) says they were moved to; else None."""
    shift = _shift(new.text)
    if not shift or not _MOVED.search(said) or hedged(said):
        return None
    mine = theirs(older, new, said, speaker, cue=False) or []
    other = [f for f in mine if (was := _shift(f.text)) and was != shift]
    if len(other) != 1:
        return None
    return apart(other[0], lambda part: bool(_shift(part)))


def _shift(text: str) -> str:
    """The one shift ``text`` says ("night" of "does nights"), or "" for none or two."""
    found = {
        _ONE.get(word := (m["plural"] or m["named"]).lower().removesuffix("s"), word)
        for m in _SHIFT.finditer(text)
    }
    return found.pop() if len(found) == 1 else ""
