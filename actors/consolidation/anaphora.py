"""A sentence that opens with "he" or "she", said of the person the turn just named.

"My older brother Bold moved to Darkhan. He keeps sending me photos" is two
facts, and the second is Bold's: written "He keeps sending Temuulen photos",
it says nobody's, and a reader of ``MEMORY.md`` (or the merge, which keys a
fact by whom it names) cannot tell. The person is the last one the same
turn named by a relation of the speaker's ("my brother Bold", "my son",
"Mum"), by a name given ("a kitten called Kasza", "his name is Wei-lun") or
by a name opening a sentence ("Tevita is turning seven"), of the pronoun's
gender where the relation says one. With nobody named, or two of whom
neither is nearer, the sentence is left as it was. See docs/design.md,
"Facts that stay true".
"""

from __future__ import annotations

import re

from .attributes import RELATIVES, UPPER
from .third_person import would_or_had

__all__ = ["named_pronoun"]

_HIS = re.compile(
    r"brother|son|husband|boyfriend|dad|father|uncle|grandpa|grandfather|nephew|fiancé"
)
_HERS = re.compile(
    r"sister|daughter|wife|girlfriend|mum|mom|mother|aunt|grandma|grandmother|niece|fiancée"
)
_NAME = rf"[{UPPER}][\w-]*"
#: Someone a turn names: "my (older) brother (Bold)", "Mum", "called Kasza", "Tevita is".
_PERSON = re.compile(
    rf"\b(?:(?P<my>[Mm]y|[Oo]ur) (?:[a-z]+ )?(?P<rel>{RELATIVES})\b(?:,? (?P<rname>{_NAME})\b(?!'s))?"
    rf"|(?:^|(?<=[.!?] ))(?P<bare>Mum|Mom|Dad)\b"
    rf"|\b(?:called|named|name is) (?P<called>{_NAME})"
    rf"|(?:^|(?<=[.!?] ))(?P<opens>{_NAME}) (?:is|was|has|had|just|turned|got)\b)"
)
_PRONOUN = re.compile(r"^(?P<pronoun>He|She)(?P<verb>'s|'d|'ll)?\b")
_HAS = re.compile(r" (?:been|got|[a-z]+ed)\b")


def _people(before: str, who: str) -> list[tuple[str, str]]:
    """Who ``before`` names, in order: how to write each, and "he", "she" or "" (either)."""
    found = []
    for match in _PERSON.finditer(before):
        relation = (match["rel"] or match["bare"] or "").lower()
        gender = "he" if _HIS.fullmatch(relation) else "she" if _HERS.fullmatch(relation) else ""
        name = match["rname"] or match["called"] or match["opens"]
        if name is None:
            name = f"{who}'s {relation}"
        found.append((name, gender))
    return found


def named_pronoun(sentence: str, before: str, who: str) -> str:
    """``sentence`` with its opening "he" or "she" written as the person ``before`` (what the
    same turn said before it) last named, ``who`` being the speaker; else as it was."""
    opening = _PRONOUN.match(sentence)
    if opening is None:
        return sentence
    pronoun = opening["pronoun"].lower()
    people = [(name, g) for name, g in _people(before, who) if g in ("", pronoun)]
    if not people or (len(people) > 1 and people[-1] != people[-2] and not people[-1][1]):
        return sentence  # nobody, or two people and no telling which
    name = people[-1][0]
    verb = {
        None: "",
        "'s": " has" if _HAS.match(sentence, opening.end()) else " is",
        "'d": " " + would_or_had(sentence, opening.end()),
        "'ll": " will",
    }[opening["verb"]]
    return f"{name}{verb}{sentence[opening.end() :]}"
