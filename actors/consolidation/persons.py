"""Whether a sentence that opens with the speaker's name is about another person: "Femke's
teacher also plays at the Hooglandse Kerk" or "Markku, the other vet, is moving to Oulu"
are the teacher's and Markku's news, and retire none of Femke's or Aino's lines (issue 59,
items 5 and 8).

Who is a person is asked of the shipped embedder, not of a list of trades: "my teacher",
"my landlord", "my accountant" lie nearer "a person" than "a thing", "my phone", "my kiln",
"my practice" the other way. See docs/design.md, "Facts that stay true".
"""

from __future__ import annotations

import re
from collections.abc import Sequence

from reverie.store import Fact

from .meaning import Embed
from .words import RELATIVE, UPPER

__all__ = ["another_person", "of_person"]

#: What a person is, and what a thing is, as the embedder is asked (with "my").
_PERSON = ("a person", "someone who does a job")
_THING = ("a thing", "an object", "a place")
#: How much nearer a person than a thing a noun must be (measured on 22 trades and 28 things
#: a speaker has: "my physio" is the one person it misses, "my company" the nearest thing).
_MARGIN = -0.02

#: The speaker's someone by a noun, then what they do: "Femke's teacher also plays …".
_THEIR_NOUN = r"^{speaker}'s (?:[a-z-]+ )??(?P<noun>[a-z]{{3,}}) (?=(?:also |just |now )?[a-z]+s\b)"
#: A name, then who they are: "Markku, the other vet, is moving …".
_NAME_THEN_WHO = re.compile(
    rf"^(?P<name>[{UPPER}][\w'-]+), (?:the|an?|my|our|their|[{UPPER}][\w-]*'s) "
    r"(?:[a-z-]+ ){0,2}(?P<noun>[a-z]{3,}), "
)


def another_person(text: str, speaker: str, embed: Embed) -> str:
    """Whom ``text`` (a fact of ``speaker``'s job) is about when that is someone else named
    by a noun that is a person's ("Femke's teacher", "Markku"); else "". (Relatives are told
    apart elsewhere: ``ownership.owner``.)"""
    found = re.match(_THEIR_NOUN.format(speaker=re.escape(speaker)), text)
    if found is None:
        found = _NAME_THEN_WHO.match(text)
        if found is None or found["name"] == speaker:
            return ""
    noun = found["noun"]
    if RELATIVE.fullmatch(noun):
        return ""
    vectors = embed([f"my {noun}", *_PERSON, *_THING])
    near = vectors[1:] @ vectors[0]
    person = float(max(near[: len(_PERSON)]) - max(near[len(_PERSON) :])) > _MARGIN
    return (found.groupdict().get("name") or f"{speaker}'s {noun}") if person else ""


def of_person(lines: Sequence[Fact], who: str) -> list[Fact]:
    """The ``lines`` that name ``who`` ("Hiba's assistant Rawan does the afternoons")."""
    return [f for f in lines if re.search(rf"\b{re.escape(who)}\b", f.text)]
