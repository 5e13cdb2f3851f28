"""A new role of the speaker: the trade line it replaces, with no table of trades.

"Maya works as a junior developer" and then "Maya got promoted to senior
developer", "they made Maya head coach", "Maya is lead programmer now": a
role said of its speaker replaces their trade when the turn says it was a
promotion, when the role keeps the trade's field (a word of the old trade
other than its rank: "senior accountant" for "junior accountant", "orchard
supervisor" for "orchard hand"), or when a rank is given ("made Maya head
of design"). "Maya is a dad now" shares no field, says no promotion and
gives no rank: it replaces nothing. See docs/design.md, "Memory that stays
true", step 3.
"""

from __future__ import annotations

import re
from collections.abc import Sequence

from reverie.store import Fact

from .attributes import PATRONS
from .sentences import EMOJI
from .third_person import word_set

__all__ = ["promoted"]

#: A role said of someone: "X got promoted to senior developer", "X is now the team lead",
#: "they made X head coach", "X became deputy head", "As of this month X is a senior …".
_ROLE = re.compile(
    r"^(?:(?P<since>(?:As of|From|Since|Starting) [\w ]+?),? )?"
    r"(?:(?P<who>[A-Z][\w-]*) (?:(?:(?:got|was|has been|'s been) (?:promoted to|made)|(?P<became>became)) |"
    r"(?:is|'s) (?P<now>now )?)|(?:[\w' ]+ )?(?:made|promoted|elected|appointed|voted) "
    r"(?P<whom>[A-Z][\w-]*) (?:to |as )?)"
    r"(?:an? |the |our |their )?(?P<role>(?:(?!now\b)[a-z][\w-]* ){0,3}(?!now\b)[a-z][\w-]*)(?P<later> now)?"
    # (and how they feel about it: "I'm bosun now 💪")
    rf"(?: (?:at|on|of|for|in|from|starting|as of) [^.!]*)?[.!]*(?: ?{EMOJI}+)?[.!]*$"
)
#: A trade line of someone's: "X works as a junior developer."; or a post held in a group, said
#: without an article: "X is treasurer of the producers' co-op".
_TRADE = re.compile(
    r"^(?P<who>[A-Z][\w-]*) (?:works as (?:an? )?(?P<trade>[^,.;]+)|is "
    # (or with an article, at a workplace of a kind: "X is the concierge at a beach hotel"; not
    # one who goes there, "a regular at the Crown")
    rf"(?:(?:the|an?) (?!(?:{PATRONS})\b))?"
    # (or on a ship: "a deckhand on the Agios Nektarios")
    r"(?!(?:the|an?) )(?P<post>(?:(?!\w+ing\b|to\b)[a-z]+ ){0,2}?(?!\w+ing\b)[a-z]+) (?:of|at|for|on) (?:the|a|an|their|our|[A-Z])[^,.;]*"
    # (and what the workplace is, or its route: "at Claddagh Court, a care home in Galway",
    # "…, Piraeus to Aegina")
    r"(?:, (?:an? )?[^,.;]+)?)[.!]?$"
)
#: Words of rank, not of a field: "senior", "head", "assistant".
_RANK = word_set(
    "junior senior head lead chief deputy assistant associate trainee apprentice principal "
    "first-year second-year new acting interim staff"
)
_PROMOTED = re.compile(
    r"\b(?:promot(?:ed|ion)|elected|appointed|(?:been|got|was) made)\b", re.IGNORECASE
)


def promoted(older: Sequence[Fact], new: Fact, turn: str, speaker: str) -> Fact | None:
    """The speaker's trade line of ``older`` that the role ``new`` states replaces (said in
    ``turn``): the one such line, when the turn says a promotion or the role keeps its
    field; else None."""
    found = _ROLE.match(new.text)
    if found is None or (found["who"] or found["whom"]) != speaker:
        return None
    role = found["role"].split()
    if role[0].endswith(("ed", "ing")):
        return None  # "is based in Leeds now", "is moving": no role
    trades = [
        (f, (m["trade"] or m["post"]).split())
        for f in older
        if (m := _TRADE.match(f.text)) and m["who"] == speaker
    ]
    if len(trades) != 1 or trades[0][1] == role:
        return None
    line, trade = trades[0]
    field = (set(trade) & set(role)) - _RANK
    # (a rank given is a promotion too: "made Maya head of design", "is the team lead now")
    given = found["whom"] or found["became"] or found["now"] or found["later"] or found["since"]
    ranked = bool(_RANK & set(role)) and bool(given)
    return line if field or ranked or _PROMOTED.search(turn) else None
