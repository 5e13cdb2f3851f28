"""A place of theirs of one kind, named anew: "I'm at the Toowong depot from Monday" after
"drives buses out of the Carina depot", "they put me on the Headingley zone" after "mostly
the Roundhay zone".

The kind is the noun the names are said with ("depot", "zone", "ward", "branch"), so no
table of kinds is needed: a change that names another of the one kind a line of the speaker's
names is that line's, written with the new name, the rest of it still true. See
docs/design.md, "Facts that stay true".
"""

from __future__ import annotations

import re
from collections.abc import Sequence

from reverie.store import Fact

from .modifiers import is_modifier
from .ownership import by_name, theirs
from .revision import said_in_both
from .signals import hedged, signalled
from .words import UPPER, WHEN

__all__ = ["named_anew"]

#: A place named with its kind, where one is or goes: "at the Toowong depot", "to the
#: Headingley zone", "out of the Carina depot" (a name of one or two words before a noun).
_NAMED_KIND = re.compile(
    rf"\b(?:at|to|from|out of|on|in|into|onto) (?:the )?"
    rf"(?P<name>[{UPPER}][\w'-]+(?: [{UPPER}][\w'-]+)?) (?P<kind>[a-z]{{3,}})\b"
)
#: The words a new place is gone to with, besides a change's own: "from Monday", "my transfer".
_MOVED = re.compile(r"\b(?:from (?:next |this )?\w+day|transfer\w*|moved|moving|put|now)\b", re.I)
#: Words that say which one of its kind without naming it: no name ("the same team").
_UNNAMED = "(?:same|whole|other|new|old|next|only|main|first|last|right|wrong)"


def named_anew(
    older: Sequence[Fact], new: Fact, said: str, speaker: str
) -> tuple[Fact, Fact | None] | None:
    """The one line of the speaker's naming another of the kind ``new`` names anew ("the
    Carina depot" for "the Toowong depot"), and that line with the new name (None when the
    old one has no name); else None."""
    if not (signalled(said) or _MOVED.search(said)) or hedged(said):
        return None
    if not by_name(speaker).search(new.text):
        return None  # ("Ola is moving to the Android team": a workmate's move)
    # (the kind a noun the name qualifies: not "in Parc Maisonneuve now", "in Danang for now")
    found = [
        m
        for m in _NAMED_KIND.finditer(new.text)
        if not WHEN.match(m["name"]) and is_modifier(new.text, m.end("name"))
    ]
    if len(found) != 1:
        return None
    name, kind = found[0]["name"], found[0]["kind"]
    mine = theirs(older, new, said, speaker, cue=False) or []
    # (or by a word that says which, no name: "is on the payments team")
    other = re.compile(
        rf"\b(?!{re.escape(name)}\b)(?P<name>[{UPPER}][\w'-]+(?: [{UPPER}][\w'-]+)?|"
        rf"(?<=\bthe )(?!{_UNNAMED}\b)[a-z][\w-]+) {kind}\b"
    )
    held = [(f, m) for f in mine if (m := other.search(f.text)) and m["name"] != speaker]
    if len(held) != 1:
        return None
    line, was = held[0]
    if was["name"].islower():
        # (a word may say what kind it is, not which: "the ranger post on Rinca island" is not
        # "the Padar post on Rinca island"; the line goes whole)
        return line, None
    text = f"{line.text[: was.start('name')]}{name}{line.text[was.end('name') :]}"
    return line, Fact(text=text, date=new.date, sources=said_in_both(line, new))
