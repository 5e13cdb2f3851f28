"""Words said to the speaker, quoted: "the head of stage said, word for word, 'you start on
the fly floor next month, you're a rigger now Tariq, congrats'". What the quote says of
"you" is the speaker's news, and said so in the first person ("I start on the fly floor next
month, I'm a rigger now."); the rest of it (who said it, "the flying crew wants you",
"congrats") is the other's words, no fact of the speaker's. See docs/design.md, "Facts that
stay true"."""

from __future__ import annotations

import re

from .persons import names_a_person
from .third_person import article

__all__ = ["said_to_me"]

#: Someone's words quoted after their saying them: "… said, word for word, '…'", "my boss
#: goes 'you're …'". A quote mark between letters is an apostrophe ("you're"), no end.
_QUOTED = re.compile(
    r"\b(?:said|says|told me|tells me|goes|went|wrote|texted|emailed|messaged)\b"
    r"[^'\"‘“]{0,40}?[:,]?\s*(?<![A-Za-z])['\"‘“](?P<quote>.+?)['\"’”](?![A-Za-z])"
)
#: A part of the quote said of "you": "you're a rigger now", "you start on the fly floor".
_OF_YOU = re.compile(
    r"^(?:(?:and|so|from [^,]{1,40}?|as of [^,]{1,40}?|starting [^,]{1,40}?) )?"
    r"you(?:'re| are| start| will| get| begin| can)\b",
    re.IGNORECASE,
)
_FIRST_PERSON = {"you're": "I'm", "you are": "I am", "your": "my", "yourself": "myself"}


def said_to_me(text: str, name: str | None) -> str:
    """``text`` with a quote of words said to ``name`` (the speaker) as what it says of them,
    in the first person; ``text`` as it is when no quote says anything of "you"."""
    found = _QUOTED.search(text)
    if found is None or not name:
        return text
    mine = []
    for part in re.split(r"[,;.!?]\s+", found["quote"].strip(" .!")):
        # (the speaker named, as one calls them: "…, Radek, …", "you're a rigger now Tariq")
        part = re.sub(rf"(?:^|\s){re.escape(name)}$", "", part.strip(), flags=re.IGNORECASE)
        if _OF_YOU.match(part):
            mine.append(_as_trade(part) or _in_first_person(part))
    if not mine:
        return text
    said = ", ".join(mine)  # (one sentence still: its clauses are cut apart after)
    return f"{said[0].upper()}{said[1:]}.{text[found.end() :]}".replace("..", ".")


#: A post given from now on: "you're a rigger now", "from the 1st you're shift foreman".
_NEW_POST = re.compile(
    r"^(?P<when>(?:from|as of|starting) [^,]{1,40}? )?you(?:'re| are) (?:an? )?"
    r"(?P<post>(?:[a-z][\w-]* ){0,2}?(?P<head>[a-z][\w-]*))(?P<now> now)?$",
    re.IGNORECASE,
)


def _as_trade(part: str) -> str:
    """ "you're a rigger now" as the trade it gives ("I work as a rigger now"), when it is
    given from now on and names a person by what they do; "" for any other part ("you're a
    genius" is praise, not a post)."""
    found = _NEW_POST.match(part)
    if found is None or not (found["when"] or found["now"]):
        return ""
    if not names_a_person(found["head"].lower()):
        return ""
    when = found["when"] or ""
    return f"{when}I work as {article(found['post'])} {found['post']}{found['now'] or ''}"


def _in_first_person(part: str) -> str:
    """``part`` said by the one it was said to: "you're" is "I'm", "your" "my", the first
    "you" "I" and any after it "me"."""
    part = re.sub(
        r"\b(?:you're|you are|your|yourself)\b",
        lambda m: _FIRST_PERSON[m[0].lower()],
        part,
        flags=re.IGNORECASE,
    )
    part = re.sub(r"\byou\b", "I", part, count=1, flags=re.IGNORECASE)
    return re.sub(r"\byou\b", "me", part, flags=re.IGNORECASE)
