"""Someone the speaker has by a tie that is no family, gone: "the lodger's given notice",
"the flatmate moved out", "my technician resigned".

A line names them by that tie and their name ("Bronwyn's lodger Shane has the
granny flat …"); the news of their leaving names the tie alone, so no key, value
or name of the line is said again, and the line stays true in memory. The tie is
whatever word the line names them by, not a list of ties: a lodger, a tenant, an
apprentice, a neighbour. Family and partners are not: a son who moves out is
still a son, and a partner's leaving is a break-up, said in its own words. See
docs/design.md, "Facts that stay true".
"""

from __future__ import annotations

import re
from collections.abc import Sequence

from reverie.store import Fact

from .words import RELATIVES

__all__ = ["member_left"]

#: Someone by a tie, gone: "the lodger's given notice", "Our flatmate moved out", "my
#: technician resigned", "The lodger has gone back to Poland" (not "is moving out in May":
#: a plan; nor "gone to Spain for a week").
_LEFT = re.compile(
    r"^(?:(?:Well|So|And|Also|Oh),? )*(?:[Tt]he|[Oo]ur|[Mm]y|(?P<whose>[A-Z][\w-]*)'s) "
    r"(?P<tie>[a-z][\w-]+)(?:'s| has| have)? (?:just |finally |now )?"
    r"(?:given (?:(?:his|her|their|in (?:his|her|their)) )?notice|handed in (?:his|her|their) notice|"
    r"moved out|moved away|quit|resigned|(?:went|gone|moved) back (?:to|home)\b|"
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


def member_left(older: Sequence[Fact], new: Fact, speaker: str) -> Fact | None:
    """The one line of ``older`` naming the speaker's ``tie`` by name ("Bronwyn's lodger
    Shane …"), when ``new`` says their ``tie`` left; else None."""
    found = _LEFT.match(new.text)
    if not found or found["whose"] not in (None, speaker):
        return None
    tie = found["tie"]
    if _LASTING.fullmatch(tie) and not _SHARED.fullmatch(tie):
        return None
    named = re.compile(rf"(?:\b{re.escape(speaker)}'s|\btheir) {re.escape(tie)} [A-Z][\w-]*\b")
    lines = [f for f in older if named.search(f.text)]
    return lines[0] if len(lines) == 1 else None
