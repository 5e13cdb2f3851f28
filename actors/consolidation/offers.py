"""A job offered and taken in the same turn: "Namib Lithium offered me senior geologist.
… I said yes." is the new job, said as one ("I'm now a senior geologist at Namib
Lithium."); an offer with no yes in its turn stays an offer. See docs/design.md, "Facts
that stay true", the extractive path.
"""

from __future__ import annotations

import re

from .third_person import article
from .words import UPPER

__all__ = ["offer_taken"]

#: The offer said yes to, anywhere in the turn: "I said yes!!", "I accepted", "I GOT IT!!",
#: "taking it.".
_TAKEN = re.compile(
    r"\bI (?:said yes|(?:have |'ve )?accepted\b(?! (?:that|whether|it might))|took it\b|got it!)|"
    r"(?:^|[.!] )(?:I'm |am )?taking it\b",
    re.IGNORECASE,
)
#: "Nourish Clinic offered me a role", "they offered me the roaster job at Moana", "I got
#: offered sous chef at Caleta, …" (after an opener: "so... ", "huge: ").
_OFFER = re.compile(
    r"^(?P<lead>(?:[^.!?]*?(?:\.\.\.|[:,!]| [—–-]) )?)"
    # (and where it is: "Gumleaf Theatre in Melbourne offered me …")
    rf"(?:(?P<by>[{UPPER}][\w'&-]*(?: [{UPPER}][\w'&-]*)*(?: in [{UPPER}][\w'-]*)?|they) "
    r"(?:just |have |has )?offered me|"
    r"I (?:just )?(?:got|was|have been|'ve been) offered) "
    r"(?P<what>[^.!?]+?)(?: this morning| today| yesterday)?(?P<end>[.!]*)$"
)
#: The job said by its noun: "the roaster job at Moana", "a role".
_JOB = re.compile(
    r"(?:the|an?) (?:(?P<role>[a-z][\w-]*(?: [a-z][\w-]*){0,2}) )?(?:job|position|role|post|spot)\b"
    r"(?P<rest>.*)"
)


def offer_taken(sentence: str, turn: str) -> str:
    """``sentence`` as the job it offered where its ``turn`` says yes to it; else as it is."""
    if not _TAKEN.search(turn) or (offer := _OFFER.match(sentence)) is None:
        return sentence
    by = offer["by"] if offer["by"] and offer["by"] != "I" else ""
    what, end = offer["what"], offer["end"] or "."
    # (and the pay: "head greenkeeper at 365000" is on 365000)
    paid = _PAY.search(what)
    what, on = (what[: paid.start()], f", on {paid[1]}") if paid else (what, "")
    if job := _JOB.fullmatch(what):
        role, rest = job["role"] or "", job["rest"]
    else:
        role, *place = re.split(r" at (?=[A-Z])", what, maxsplit=1)
        rest = f" at {place[0]}" if place else ""
    at = rest if rest.startswith(" at ") else (f" at {by}{rest}" if by else "")
    if not at:
        return sentence  # ("they offered me a role": where, nothing says)
    if not role:
        return f"{offer['lead']}I now work{at}{on}{end}"
    return f"{offer['lead']}I'm now {article(role)} {role}{at}{on}{end}"


#: The pay offered, after the job: "at 365000", "for 47,500".
_PAY = re.compile(r",? (?:at|for|on) ([^\w\s]?\d[\d,.]*k?)$")
