"""Amounts and what they count: "3,900 euros", "1,450 head", "three grandchildren",
"12,000 pesos a month". A new amount of the same thing replaces the old one (issue 59, item 3:
the slot's type is the unit); see docs/design.md, "Facts that stay true", step 4.
"""

from __future__ import annotations

import re

__all__ = ["AMOUNT", "counted", "of_the_same", "unit"]

AMOUNT = r"\b(?:\d{1,3}(?:,\d{3})+|\d+)"
#: The word after an amount, and the words that name no unit ("3,900 a month", "4,400 now").
_UNIT = re.compile(r" (?P<unit>[^\W\d_]+)")
_NOT_UNIT = re.compile(r"now|an?|the|per|from|on|in|at|to|and|or|this|next|last|if|so|but")
#: An amount of a period: "a month", "per week".
_PERIOD = r"(?P<period>(?:a|per) (?:month|week|year|night|hour))"
#: A count said in words ("three grandchildren", "Three apprentices now"; not "two weeks").
_IN_WORDS = (
    r"\b(?i:two|three|four|five|six|seven|eight|nine|ten|eleven|twelve)"
    r"(?= (?!(?:times|days|weeks|months|years|hours|minutes)\b))"
)
#: An amount of a named thing ("1,450 head", "3 kids", "2,800 złoty") or of a period.
_COUNTED = re.compile(rf"({AMOUNT}|{_IN_WORDS})(?: {_PERIOD}| (?P<unit>[^\W\d_]{{2,}}))\b")


def unit(text: str, at: int) -> str | None:
    """The unit of the amount that ends at ``at`` ("3,900 euros"), if one follows it."""
    found = _UNIT.match(text, at)
    return found["unit"] if found and not _NOT_UNIT.fullmatch(found["unit"]) else None


def of_the_same(text: str, at: int) -> re.Pattern[str]:
    """The amounts of what the amount ending at ``at`` counts: "76 kg" is no age ("Greta is
    57"), "4,400 now" (no unit) is "3,900 a month" (none either)."""
    counts = unit(text, at)
    after = (
        rf"(?= {re.escape(counts)}\b)"
        if counts
        else r"(?! (?!(?:" + _NOT_UNIT.pattern + r")\b)[a-z])"
    )
    return re.compile(rf"{AMOUNT}{after}")


def counted(text: str) -> tuple[re.Pattern[str], str] | None:
    """The first amount of a named thing or a period in ``text``, as the pattern of that
    thing's amounts and the value: "agreed to 11,000 a month" is "12,000 pesos a month"."""
    found = _COUNTED.search(text)
    if found is None:
        return None
    period = found["period"]
    counts = f"(?:[a-z]+ )?{period}" if period else found["unit"]
    return re.compile(rf"(?:{AMOUNT}|{_IN_WORDS})(?= {counts}\b)"), found[1]
