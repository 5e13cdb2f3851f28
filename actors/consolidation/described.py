"""A thing of the speaker's ended, said by what it is rather than by a noun a line holds:
"quit the game in the piazza with the old men" ends "plays bocce in the piazza",
"stopped going to the Wednesday fight class" ends "… and kickboxing on Wednesday".

The ending's own words (a day, a place, whom with) find the one line of the speaker's
holding one of them; when that line lists several doings ("has handball training Mon and
Thu and kickboxing on Wednesday"), only the item holding it ends, and the others stay. See
docs/design.md, "Facts that stay true".
"""

from __future__ import annotations

import re
from collections.abc import Sequence

from reverie.store import Fact

from .modifiers import modifiers
from .nearness import long_words
from .signals import CLAUSE
from .words import WEEKDAYS

__all__ = ["ended_as_described"]

_DETERMINER = re.compile(r"\b(?i:my|the|our|their|that|this|those|these) ")
#: Where a list's items part: "yoga in the morning, swimming on tue/thu and badminton …".
_ITEMS = re.compile(r",\s+(?:and\s+)?|\s+and\s+")
#: An item that is only when the one before it holds ("Mon and Thu", "Tuesdays and Thursdays
#: at 6am"): part of that one.
_WHEN_ONLY = re.compile(
    rf"(?i:(?:{WEEKDAYS})s?|mon|tue|wed|thu|fri|sat|sun|weekends?|mornings?|evenings?|nights?)"
    r"(?: (?:at |from )?[\w:.-]+)?"
)


def ended_as_described(
    lines: Sequence[Fact], said: str, ended: re.Match[str]
) -> tuple[Fact, Fact | None] | None:
    """The one line of ``lines`` (the speaker's) that what ``ended`` (``endings.ENDED``,
    found in ``said``) says ended is said of by a word of its own ("quit the game in the
    piazza with the old men", to its clause's end; "the old brick", before its verb), and
    that line less the item that ended when it lists several after its first; None when no
    line or two are."""
    if ended["sold"]:
        what = re.split(rf"{CLAUSE.pattern}|[.!?]", said[ended.start() :], maxsplit=1)[0]
        the = _DETERMINER.search(what)
        what = what[the.end() if the else 0 :]
    else:
        what = said[ended.start() : ended.end(ended.lastindex or 0)]
    words = _folded(long_words(what))
    kind = what.split()[-1] if what.split() else ""
    held = [f for f in lines if words & _said_of(f.text, kind)]
    if len(held) != 1:
        return None
    line = held[0]
    items = _items(line.text.rstrip(".!"))
    hit = [i for i, item in enumerate(items) if words & _said_of(item, kind)]
    if len(hit) != 1:
        return None
    if hit[0] == 0:
        # (the doing the line says first, with its verb: the line is that doing)
        return line, None
    kept = [item for i, item in enumerate(items) if i != hit[0]]
    said = ", ".join(kept[:-1]) + (" and " if len(kept) > 1 else "") + kept[-1]
    return line, Fact(text=f"{said}.", date=line.date, sources=line.sources)


def _items(body: str) -> list[str]:
    """The items ``body`` lists, each with when it holds ("handball training Mon and Thu")."""
    items: list[str] = []
    for part in _ITEMS.split(body):
        if items and _WHEN_ONLY.fullmatch(part):
            items[-1] = f"{items[-1]} and {part}"
        else:
            items.append(part)
    return items


def _said_of(text: str, kind: str) -> set[str]:
    """The words ``text`` is said of, folded: not the ``kind`` that ended where it qualifies
    another noun ("a bike mechanic" is said of no bike; "a PLC ladder logic problem" is of
    the ladder logic one)."""
    return _folded(long_words(text) - (modifiers(text) & {kind}))


def _folded(words: set[str]) -> set[str]:
    """``words`` as one form each, plural or not ("saturdays" is "saturday")."""
    return {w.removesuffix("s") for w in words}
