"""A thing ended, said by what it is rather than by a noun a line holds: "quit the game in
the piazza with the old men" ends "plays bocce in the piazza", "stopped going to the
Wednesday fight class" ends "… and kickboxing on Wednesday", and someone's own, "Dami left
the martial arts", ends "Dami does taekwondo after school".

The speaker's ending finds the one line of theirs holding a word of its own (a day, a
place, whom with); someone else's finds, of the items said of them, the one nearest it in
meaning (a kind for its instance). When a line lists several ("has handball training Mon and
Thu and kickboxing on Wednesday", "Rent 1400, …, Helena's ballet 180, …"), only the item
that ended goes, and the others stay. See docs/design.md, "Facts that stay true".
"""

from __future__ import annotations

import re
from collections.abc import Sequence

from reverie.store import Fact

from .meaning import Embed
from .modifiers import modifiers
from .nearness import long_words
from .signals import CLAUSE
from .words import UPPER, WEEKDAYS

__all__ = ["ended_as_described", "ended_their_own", "their_own_ended"]

#: Where what ended starts, past its verb: "stopped going to the| Wednesday fight class".
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
    else:  # (whose it is says nothing of what it is: "Maya's headphones broke")
        what = re.sub(r"^[\w-]+'s ", "", said[ended.start() : ended.end(ended.lastindex or 0)])
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
    # (the doing the line says first, with its verb: the line is that doing)
    return _less(line, items, hit[0])


#: Someone who ended a thing of their own: "Dami left the martial arts", "Helena quit her
#: dance class", "Lilou announced she's done with the martial arts".
_THEIRS_ENDED = re.compile(
    rf"\b(?P<who>[{UPPER}][\w-]*) (?:[a-z']+ ){{0,3}}?"
    r"(?:quit|dropped|stopped|left|gave up|(?:is |'s )?done with) (?:the|her|his|their) "
    r"(?P<what>[^,.;!?]+)"
)
#: How near in meaning what ended must be to the item said of them, and how much nearer than
#: the next ("the martial arts" of "does taekwondo after school").
NEAR_ITEM, MARGIN = 0.4, 0.1


def ended_their_own(text: str) -> bool:
    """``text`` tells someone ended a thing of their own ("Lilou announced she's done with the
    martial arts"): a change, however little else it says."""
    return bool(_THEIRS_ENDED.search(text))


def their_own_ended(
    lines: Sequence[Fact], said: str, speaker: str, embed: Embed
) -> tuple[Fact, Fact | None] | None:
    """The line of ``lines`` with the item said of the one ``said`` tells ended a thing of
    their own ("Helena quit her dance class" of "…, Helena's ballet 180, …") nearest in
    meaning, and that line less the item; None when it is the speaker, or no item is clearly
    nearest."""
    found = _THEIRS_ENDED.search(said)
    if found is None or found["who"] in (speaker, "I"):
        return None
    said_of = re.compile(rf"\b{re.escape(found['who'])}(?:'s)?\b")
    theirs = [
        (line, listed, at)
        for line in lines
        for listed in [_items(line.text.rstrip(".!"))]
        for at, item in enumerate(listed)
        if said_of.search(item)
    ]
    if not theirs:
        return None
    vectors = embed([found["what"], *(listed[at] for _, listed, at in theirs)])
    near = sorted(((float(vectors[0] @ v), i) for i, v in enumerate(vectors[1:])), reverse=True)
    best, i = near[0]
    if best < NEAR_ITEM or (len(near) > 1 and best - near[1][0] < MARGIN):
        return None
    return _less(*theirs[i])


def _less(line: Fact, items: list[str], at: int) -> tuple[Fact, Fact | None]:
    """``line`` and ``line`` less its item ``at`` (not its first, which holds its verb)."""
    if at == 0:
        return line, None
    kept = [item for i, item in enumerate(items) if i != at]
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
