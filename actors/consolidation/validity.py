"""How long a fact says it holds ("lent us a tiny Panda for the week", "staying with Zanele
in Parkhurst for two weeks"), and whether a job's turns have gone past it.

A stay, a loan or a stand-in said with its length is true for that length: no later turn
has to say it ended for the memory to stop calling it current. ``truth.merge`` retires a
line once the newest turn of a job is past its end, whether the line is old or new in the
job; see docs/design.md, "Facts that stay true" (a line's own span).
"""

from __future__ import annotations

import re
from datetime import UTC, date, datetime, timedelta

from reverie.store import Fact

from .change import Displaced, apart
from .signals import hedged, over

#: How many, in words or figures: "two weeks", "a few days", "10 days".
_COUNTS = {"a": 1, "an": 1, "one": 1, "two": 2, "three": 3, "four": 4, "five": 5, "six": 6}
_COUNTS |= {"a few": 3, "few": 3, "a couple of": 2, "couple of": 2, "a couple": 2}
_COUNT = "|".join(sorted(_COUNTS, key=len, reverse=True)) + r"|\d{1,2}"
#: Each unit in days, at its longest ("for the month" holds at most 31).
_DAYS = {"day": 1, "night": 1, "weekend": 3, "week": 7, "fortnight": 14, "month": 31}

#: A length said for a state: "for the week", "for two weeks", "for another month", "one
#: more week"; not how often ("for three days a week", "just for weekends"), nor a time that
#: led to now ("for the past two weeks", "been vegan for a month": ``_UP_TO_NOW``).
_SPAN = re.compile(
    rf"\b(?:for (?:the (?:next |whole |coming )?|another )|another |one more |for (?=(?:{_COUNT}) ))"
    rf"(?:(?P<count>{_COUNT}) )?(?:more )?(?P<unit>day|night|weekend|week|fortnight|month)s?(?![\w-])"
    r"(?! (?:a|per|each|every)\b)",
    re.IGNORECASE,
)
#: A length that ran up to when it was said: the state goes on past it.
_UP_TO_NOW = re.compile(r"\b(?:been|have|has|had|since)\b|'ve\b", re.IGNORECASE)


def span(text: str) -> timedelta | None:
    """How long ``text`` says its state holds from the day it was said, if it says so of a
    state now (not a plan, a past one, nor one that has already lasted that long)."""
    found = _SPAN.search(text)
    if not found or _UP_TO_NOW.search(text) or hedged(text) or over(text):
        return None
    count = (found["count"] or "one").casefold()
    return timedelta(days=(_COUNTS.get(count) or int(count)) * _DAYS[found["unit"].casefold()])


def ended(fact: Fact, now: float) -> Displaced | None:
    """``fact`` retired, when it said its state holds for a span that ended before the day of
    ``now``; its other clauses stay ("… lives in Bergen, in Rome for a week")."""
    length = span(fact.text)
    if length is None or not fact.date:
        return None
    try:
        said = date.fromisoformat(fact.date)
    except ValueError:
        return None  # (a hand-written date the store keeps as written)
    if said + length >= datetime.fromtimestamp(now, UTC).date():
        return None
    return apart(fact, lambda clause: bool(_SPAN.search(clause)))
