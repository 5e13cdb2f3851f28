"""The speaker's family: the count of children a child born makes untrue, and who of
theirs a line another change retires still names.

"Tomás has two daughters" stops being true when "our son was born", "we had a
baby boy", "we've adopted a little girl" or "baby number three arrived": no key
names a count of children and no change word is said, but the news is of the
speaker's own family (their name, "we", "our", a child of theirs) and a count
of children is the one line it can change (or, with none, the line saying the
baby was on its way: "is 7 months pregnant"). A relative's or a friend's baby ("my
sister had a baby boy") changes nothing of the speaker's. See docs/design.md,
"Memory that stays true", step 3.
"""

from __future__ import annotations

import re
from collections.abc import Sequence

from reverie.store import Fact

from .modifiers import is_modifier

__all__ = ["family_grew", "fewer_left", "kin_left"]

_CHILD = r"(?:baby|son|daughter|boy|girl|child|twins|triplets|little one)"
#: A child born or adopted ("were born", "gave birth", "had a baby boy", "adopted a son").
_BIRTH = re.compile(
    rf"\b(?:(?:was|were) born|gave birth|had (?:(?:a|our|the) (?:[\w-]+ )?{_CHILD}|twins)|"
    rf"adopted (?:an?|our|two|twins) (?:[\w-]+ )?{_CHILD}|"
    rf"{_CHILD}s? (?:number \w+ )?(?:has |have )?(?:arrived|came along))",
    re.IGNORECASE,
)
#: The speaker's own family: "we" (written "<speaker> and others"), "our", "number three".
_OURS = re.compile(r"\b(?:our|number (?:two|three|four|five|six|\d))\b", re.IGNORECASE)
#: A line counting the speaker's children: "has two daughters", "three kids".
_COUNT = re.compile(
    r"\b(?:\d+|two|three|four|five|six|seven|eight) (?:[a-z-]+ )?"
    r"(?:kids|children|daughters|sons|boys|girls)\b|\bhas an? (?:son|daughter)\b",
    re.IGNORECASE,
)


def family_grew(older: Sequence[Fact], new: Fact, speaker: str) -> Fact | None:
    """The speaker's one line of ``older`` counting their children, or else saying they (or
    their partner) are expecting ("is 7 months pregnant"), when ``new`` says a child of
    theirs was born or adopted; else None."""
    birth = _BIRTH.search(new.text)
    # (a child's noun qualifying another is no child: "had a baby shower", "a baby tooth")
    if not speaker or not birth or is_modifier(new.text, birth.end()):
        return None
    who = re.escape(speaker)
    # (a child of theirs, not a relative's: "Tomás's sister had a baby boy")
    theirs = re.match(rf"{who} |{who}'s (?:[\w-]+ )?{_CHILD}", new.text, re.IGNORECASE)
    if not (theirs or (_OURS.search(new.text) and not new.text.startswith(f"{speaker}'s "))):
        return None
    counts = [f for f in older if f.text.startswith(f"{speaker} ") and _COUNT.search(f.text)]
    expecting = [f for f in older if _EXPECTING.search(f.text) and _mine(f.text, speaker)]
    return counts[0] if len(counts) == 1 else expecting[0] if len(expecting) == 1 else None


#: A line saying a child is on the way: "is 7 months pregnant", "'s wife Dewi is expecting".
_EXPECTING = re.compile(r"\b(?:pregnant|expecting(?! (?:a call|to|that)\b))", re.IGNORECASE)


def _mine(line: str, speaker: str) -> bool:
    """``line`` is of the speaker or their partner ("Budi's wife Dewi is pregnant")."""
    return line.startswith(f"{speaker} ") or bool(
        re.match(rf"{re.escape(speaker)}'s (?:{_PARTNER})\b", line)
    )


#: Someone of the speaker's family by their relation and name, in a line about something
#: else: "their daughter Vesna" of "weekends are for their daughter Vesna and the river".
#: (Not a partner: a change of partner is what such a line is about: "I'm single now".)
_KIN = (
    r"sister|brother|mum|mom|mother|dad|father|son|daughter|cousin|aunt|uncle|niece|nephew|"
    r"grand(?:ma|pa|mother|father|son|daughter)"
)
#: A partner: a line of theirs retired by their own news ("Can moved here") is no break-up.
_PARTNER = r"boyfriend|girlfriend|husband|wife|partner|fianc[eé]e?"


def kin_left(
    old: Fact,
    new: Fact,
    facts: Sequence[Fact],
    speaker: str,
    partner: bool = False,
    moved: bool = False,
) -> Fact | None:
    """Who of ``speaker``'s family ``old`` names ("their daughter Vesna"), as a line of its
    own, when ``new`` retires ``old`` for another of its claims and names them nowhere, nor
    does any other line (issue 59, item 1: a change retires the claim it changes); a partner
    too when ``new`` is a move (they moved together)."""
    found = re.search(
        rf"(?:\b{re.escape(speaker)}'s|\btheir) (?P<kin>{_KIN}{f'|{_PARTNER}' if partner else ''}) "
        r"(?P<name>[A-Z][\w-]*)\b(?!'s)",
        old.text,
    )
    # (unless the new line says who they are too: not "Can moved here", which names Can only;
    # a partner stays so only by news of their own, not by a new partner's)
    if found is None or re.search(rf"\b{found['kin']} {found['name']}\b", new.text):
        return None
    if (
        re.fullmatch(_PARTNER, found["kin"])
        and not moved
        and not new.text.startswith(f"{found['name']} ")
    ):
        return None
    if any(f is not old and re.search(rf"\b{found['name']}\b", f.text) for f in facts):
        return None
    return Fact(
        text=f"{speaker}'s {found['kin']} is {found['name']}.", date=old.date, sources=old.sources
    )


#: Those named that are all that is left: "We've only got Dolly and Marge now", "just
#: Dolly left", "down to Dolly and Marge".
_ONLY_LEFT = re.compile(
    r"\b(?:only|just) (?:got|have|has|keep|keeps)\b|\bdown to\b|\b(?:only|just)\b.*\bleft\b",
    re.IGNORECASE,
)
_NAMED = re.compile(r"(?<=[\s,(])[A-Z][\w'-]+")


def fewer_left(older: Sequence[Fact], new: Fact, speaker: str) -> Fact | None:
    """The one line of ``older`` naming more of the speaker's than ``new`` says are left
    ("keeps three hens at home, Dolly, Marge and Bunty" for "We've only got Dolly and Marge
    now"): a group said again with fewer in it; else None."""
    if not _ONLY_LEFT.search(new.text):
        return None
    left = set(_NAMED.findall(new.text)) - {speaker}
    if not left:
        return None
    more = [
        f
        for f in older
        if f.text.startswith(speaker) and left < set(_NAMED.findall(f.text)) - {speaker}
    ]
    return more[0] if len(more) == 1 else None
