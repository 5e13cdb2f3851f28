"""A weekly thing replaced by a new one of its kind, said with a day of its own; a when
said alone, the new when of the thing the sentence before it says moved.

"Joined the Sandy Bay cricket club, indoor nets Thursday nights" after "plays
cricket for Magnetic Island CC on Saturdays", or "found a futsal group: Monday
evenings" after "futsal every Wednesday night with Ribeira FC": the slot is the
thing done each week (issue 59, item 3), its values the day and the group, and
the new one is what they do now, with no word of change. Not one done besides
("hot yoga on Thursdays too"), nor one on a day the old one already has. See
docs/design.md, "Facts that stay true".
"""

from __future__ import annotations

import re
from collections.abc import Sequence

from reverie.store import Fact

from .change import Displaced, apart
from .chatter import is_chatter
from .kinds import EVENT_DAY, WEEKDAY, root
from .nearness import content
from .ownership import same_turn, theirs
from .signals import CLAUSE, hedged, over
from .words import ANY_WEEKLY, PARTS_OF_DAY, WEEKDAYS

__all__ = ["WHEN_ALONE", "routine_replaced", "when_of"]

#: A day said as a week's: "every Thursday", "Tuesdays", "Monday evenings".
_WEEKLY = re.compile(
    rf"\b(?:every|each) (?:{WEEKDAYS})\b|\b(?:{WEEKDAYS})s\b|"
    rf"\b(?:{WEEKDAYS}) {PARTS_OF_DAY}s?\b",
    re.IGNORECASE,
)
#: A weekday naming a thing as its modifier, itself weekly: "Wednesday five-a-side
#: football", "Thursday Skat night", "Monday fencing" (not "Monday at 9", "Friday the 13th").
_DAY_OF_THING = re.compile(
    rf"\b(?:{WEEKDAYS}) (?!(?:the|a|an|and|or|at|in|on|to|of|for|is|was|will|i|we|it)\b)"
    r"[a-z][\w-]+",
    re.IGNORECASE,
)
#: A when said alone: "Thursdays 20:00 now.", "Sunday afternoons at 2pm."
WHEN_ALONE = re.compile(
    rf"(?:(?:every|each|on) )?(?:{WEEKDAYS})s?(?: {PARTS_OF_DAY}s?)?(?:,? (?:at |from )?\d"
    r"[\d:.]*(?:am|pm)?)?(?:,? (?:once|twice) a (?:week|month))?(?: now)?[.!]*$",
    re.IGNORECASE,
)
#: What the sentence before it says moved: "ok so futsal moved, …", "The book club changed".
_MOVED_BEFORE = re.compile(
    r"(?:^|\bso |, )(?P<thing>(?:the |our |my )?[a-z][\w-]*(?: [a-z][\w-]*)?) (?:has |have |just "
    r"|also )*(?:moved|changed|shifted)\b(?! to\b)",
    re.IGNORECASE,
)
#: A clause that says more of the thing before it: "which they never miss", "that I love",
#: "the only thing keeping them sane".
_OF_IT = re.compile(r"(?:which|that|who|the|an?) ")
#: One more besides the old: "another", "a second"; "too", "also" in the clause of its day
#: ("hot yoga on Thursdays too", not "found a table tennis club too, they play Saturdays":
#: found one, besides the flat).
_BESIDES = re.compile(r"\b(?:another|second|extra|besides|plus)\b", re.I)
_TOO = re.compile(r"\b(?:too|also|as well)\b", re.I)


def routine_replaced(
    older: Sequence[Fact], new: Fact, said: str, speaker: str, turn: str = ""
) -> Displaced | None:
    """The one weekly line of the speaker's (or of whom ``new`` is about) that ``new``, a
    weekly thing of the same kind on other days, replaces; else None. Of a line that says
    more, only its clause on that thing goes (``change.apart``). A weekly thing whose own
    words name no line's kind ("our game is Wednesday night") is of the kind its ``turn``
    names ("futsal court has a new owner, our game is …")."""
    # (an "Also" opening the sentence adds news, not one more weekly thing)
    said = re.sub(r"^(?i:also)\b:?,?", "", said.strip())
    day = next((c for c in CLAUSE.split(said) if _WEEKLY.search(c)), said)
    besides = _BESIDES.search(said) or _TOO.search(day)
    if not _WEEKLY.search(new.text) or besides or hedged(said) or over(new.text):
        return None
    done = [m.span("day") for m in EVENT_DAY.finditer(new.text)]
    if done and all(any(a <= m.start() < b for a, b in done) for m in WEEKDAY.finditer(new.text)):
        return None  # ("our dear old spaniel died on Sunday night": a day, no weekly thing)
    days = {root(m[0]) for m in WEEKDAY.finditer(new.text)}
    mine = [f for f in theirs(older, new, said, speaker, cue=False) or [] if not same_turn(f, new)]
    for words in (new.text, turn):
        kind = _kind(words, speaker) - ANY_WEEKLY - {d.casefold() for d in days}

        def same(text: str, kind: set[str] = kind) -> bool:
            held = {root(m[0]) for m in WEEKDAY.finditer(text)}
            weekly = _WEEKLY.search(text) or _DAY_OF_THING.search(text)
            return bool(weekly and kind & _kind(text, speaker)) and not days & held

        lines = [f for f in mine if same(f.text)]
        if lines:
            break
    if len(lines) != 1:
        return None
    found = apart(lines[0], same)
    # (not a line whose first clause it is, that says more: "Tuesdays Declan is at the mart,
    # and Wednesday evenings they coach hurling" keeps its subject only in that clause; what
    # else it says may be no claim, "Futsal on Mondays with the Umeda Raccoons, that's fixed")
    # (nor is a clause that says more of it: "…, which they never miss")
    others = CLAUSE.split(lines[0].text.rstrip(".!"))[1:]
    said_of_it = [c for c in others if not _OF_IT.match(c)]
    return found if found.rest or all(is_chatter(c) for c in said_of_it) else None


def _kind(text: str, speaker: str) -> set[str]:
    """The words of what ``text`` does, its first and names too ("Futsal on Mondays …",
    "Thursday Skat night"), less whose."""
    return content(text.casefold()) - content(speaker.casefold())


def when_of(text: str, said: str) -> str:
    """``text``, a when said alone ("Thursdays 20:00 now."), as the new when of the thing
    ``said``, the sentence before it, says moved ("ok so futsal moved, …"); else as it is."""
    if WHEN_ALONE.match(text) and (moved := _MOVED_BEFORE.search(said)):
        return f"{moved['thing'][0].upper()}{moved['thing'][1:]} is {text}"
    return text
