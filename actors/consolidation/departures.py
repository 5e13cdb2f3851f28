"""Someone the speaker has by a tie that is no family, gone: "the lodger's given notice",
"the flatmate moved out", "my technician resigned".

A line names them by that tie and their name ("Bronwyn's lodger Shane has the
granny flat …"); the news of their leaving names the tie alone, so no key, value
or name of the line is said again, and the line stays true in memory. The tie is
whatever word the line names them by, not a list of ties: a lodger, a tenant, an
apprentice, a neighbour. News that describes them instead ("the night carer quit",
"the nurse who came in the mornings had to leave") finds the one person named in
the speaker's lines by a word of the description ("a man named Reda stays with him
at night"). Family and partners are not: a son who moves out is still a son, and a
partner's leaving is a break-up, said in its own words. See docs/design.md, "Facts
that stay true".
"""

from __future__ import annotations

import re
from collections.abc import Callable, Sequence

from reverie.store import Fact

from .words import RELATIVES

__all__ = ["member_left", "someone_left"]

#: Someone by a tie, gone: "the lodger's given notice", "Our flatmate moved out", "my
#: technician resigned", "The lodger has gone back to Poland" (not "is moving out in May":
#: a plan; nor "gone to Spain for a week").
_LEFT = re.compile(
    r"^(?:(?i:well|so|and|also|oh|but),? )*(?:[Tt]he|[Oo]ur|[Mm]y|(?P<whose>[A-Z][\w-]*)'s) "
    # (described, maybe: "the night carer", "the nurse who came in the mornings")
    r"(?:(?P<mod>[a-z]+) )?(?P<tie>[a-z][\w-]+)(?: (?:who|that) (?P<who>[a-z][a-z ']*?))?"
    r"(?:'s| has| have)? (?:just |finally |now )?"
    r"(?:given (?:(?:his|her|their|in (?:his|her|their)) )?notice|handed in (?:his|her|their) notice|"
    r"moved out|moved away|quit|resigned|retired|(?:went|gone|moved) back (?:to|home)\b|"
    # (for long, not for a day: "went off on maternity leave", "had to leave, her mother is sick")
    r"(?:went|gone) (?:off )?on (?:[a-z]+ )?leave\b|"
    r"(?:had to leave|(?:went|gone|go|goes) away|stopped(?: coming| working)?)"
    r"(?=[,.!;]|$| (?:last|this|on|in|yesterday|today|to)\b)|"
    # (gone for good, not for a week or a while: "gone to Spain for a week", "left his bike";
    # or for what keeps them away: "left for a job in Warsaw")
    r"(?:left|gone)(?= for good|[,.!;]|$| (?:last|this|on|in|yesterday|today|us|me)\b|"
    r" for (?:a |an |the |her |his |their )?(?:new )?(?:job|work|uni|university|college|studies)\b))"
)
#: Ties that outlive a move or a job: family, partners, friends (of the relations people are
#: named by, all but those of a home or a workplace shared).
_LASTING = re.compile(rf"(?:{RELATIVES})", re.IGNORECASE)
_SHARED = re.compile(
    r"boss|colleague|co-?worker|neighbou?r|(?:room|flat|house|class|team|band|work)?mate"
)


def someone_left(text: str) -> bool:
    """``text`` tells that someone the speaker has by a tie left: a change, however little
    else it says ("the nurse who came in the mornings had to leave")."""
    return bool(_LEFT.match(text))


def member_left(
    older: Sequence[Fact], new: Fact, speaker: str, words: Callable[[str], set[str]]
) -> list[Fact]:
    """The lines of ``older`` naming the one the speaker's ``tie`` in ``new`` is, who left:
    the one line naming their tie by name ("Bronwyn's lodger Shane …"), else those naming
    the one person whom the description's ``words`` (``nearness.content``) are said of;
    none when it is no one, or two."""
    found = _LEFT.match(new.text)
    if not found or found["whose"] not in (None, speaker):
        return []
    tie = found["tie"]
    if _LASTING.fullmatch(tie) and not _SHARED.fullmatch(tie):
        return []
    named = re.compile(rf"(?:\b{re.escape(speaker)}'s|\btheir) {re.escape(tie)} [A-Z][\w-]*\b")
    lines = [f for f in older if named.search(f.text)]
    if lines:
        return lines[:1] if len(lines) == 1 else []
    described = _stems(words(" ".join(filter(None, (found["mod"], tie, found["who"])))))
    # (someone named inside a line, not the speaker, nor anyone by a family tie: "a man named
    # Reda stays with him at night", not "their husband Hesham works nights"; the lines
    # holding most of the description: "the night driver" is who "drives it at night")
    fit = [(f, len(described & _stems(words(f.text)))) for f in older if _others(f.text, speaker)]
    most = max((n for _, n in fit), default=0)
    lines = [f for f, n in fit if n == most > 0]
    # (two lines, if both name one person: "… a man named Sayed drives it at night", "nights
    # are still for Sayed")
    return lines if lines and set.intersection(*(_others(f.text, speaker) for f in lines)) else []


def _stems(words: set[str]) -> set[str]:
    """``words`` by their first five letters: "driver" and "drives", "night" and "nights"."""
    return {w[:5] for w in words}


#: A name inside a line, past its first word.
_NAMED = re.compile(r"(?<=\S )([A-Z][a-z][\w-]*)\b")


def _others(text: str, speaker: str) -> set[str]:
    """The names inside ``text`` but the speaker's and those given by a family tie ("their
    husband Hesham")."""
    family = {m[1] for m in re.finditer(rf"\b(?i:{RELATIVES})s? ([A-Z][\w-]*)", text)}
    return {m[1] for m in _NAMED.finditer(text)} - family - {speaker}
