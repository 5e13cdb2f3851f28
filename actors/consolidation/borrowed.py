"""A thing the speaker borrowed, theirs no more once they have their own: "my friend lends
me his Corsa some days" ends with "bought a Nissan Micra, no more borrowing", "got my own
car finally, so Younes has his back", "gave my friend her car back".

The borrowed thing is named by its make or by its lender, which the news of the new one
does not repeat; what ties the two is the turn saying the borrowing is over. See
docs/design.md, "Facts that stay true".
"""

from __future__ import annotations

import re
from collections.abc import Sequence

from reverie.store import Fact

from .acquiring import acquired
from .ownership import by_name

__all__ = ["borrowing_over"]

#: The words that say the borrowing is over: "no more borrowing", "no more depending on a
#: ride", "gave my friend her car back", "so Younes has his back", "bought my own car".
_OVER = re.compile(
    r"\bno more (?:borrowing|depending on|begging for)\b|"
    r"\b(?:gave|give|given|handed|took) (?:[\w']+ ){0,3}back\b|"
    r"\b(?:has|have|got|gets) (?:his|her|their) (?:[\w-]+ )?back\b|"
    r"\b(?:my|our) (?:very )?own (?:car|bike|motorbike|moto|scooter|van|truck|wheels|ride)\b",
    re.IGNORECASE,
)
#: A line of a thing lent to the speaker or borrowed by them: "lends them his Corsa", "is
#: borrowing her Civic", "uses Younes's Corolla", "gives them a ride every day".
_LENT = re.compile(
    r"\b(?:lends?|lent|lending) them\b|\bborrow(?:s|ed|ing)?\b|"
    r"\bus(?:es|ing) [A-Z][\w-]*'s\b|\bgives? them a (?:ride|lift)\b"
)


def borrowing_over(older: Sequence[Fact], said: str, turn: str, speaker: str) -> Fact | None:
    """The one line of ``older`` naming ``speaker`` (the lender's too: "Obinna's friend lends
    them his Corsa") of a thing lent to them, when ``said`` says the borrowing is over, or
    tells of a thing got in ``turn`` that says so; else None (none, or two: which one,
    nothing says)."""
    if not (_OVER.search(said) or (acquired(said) and _OVER.search(turn))):
        return None
    named = by_name(speaker)
    lent = [f for f in older if named.search(f.text) and _LENT.search(f.text)]
    return lent[0] if len(lent) == 1 else None
