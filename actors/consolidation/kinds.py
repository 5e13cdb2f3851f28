"""Values of a closed kind, which a change may name without saying what changed: a month
(with its day), a weekday, a time, an amount and what it counts ("3,900 euros", "1,450 head",
"three grandchildren", "12,000 pesos a month"). A new value of the same kind replaces the old
one in the line holding it (issue 59, item 3: the slot's type); see docs/design.md, "Facts
that stay true", step 4.
"""

from __future__ import annotations

import re
from collections.abc import Collection

from .renaming import SMALL_WORDS, new_name
from .words import MONTHS, PARTS_OF_DAY, UPPER, WEEKDAYS, WHEN

__all__ = [
    "EVENT_DAY",
    "KINDS",
    "PRICE",
    "RECORD",
    "RECORD_TIME",
    "SCALED_AMOUNT",
    "TIME",
    "TOPICAL_AMOUNT",
    "TOPICAL_DAY",
    "TOPICAL_TIME",
    "WEEKDAY",
    "amount_moved",
    "amounts_apart",
    "counted",
    "far_apart",
    "faster",
    "of_a_scale",
    "of_the_kind",
    "on_topic",
    "other_quantity",
    "per",
    "rate_periods",
    "record_time",
    "recurs",
    "root",
    "stated_amount",
    "stated_values",
    "the_one",
    "topic_of",
    "unit",
    "unit_of",
]

#: Where an amount starts: at a word's start, or after a currency of two letters
#: ("RM180" ringgit, "Rs450" rupees).
_START = r"(?:\b|(?<=\b[A-Z][A-Za-z]))"
#: Where an amount in thousands starts: there, or after a currency's one letter too ("R2,800"
#: rand, "N45,000" naira, "K1,200" kwacha, "RM1,200" ringgit).
_MONEY = rf"(?:{_START}|(?<=\b[RNKP]))"
#: A weekday, or the part of one, as a schedule says it ("Tuesday mornings").
#: (days said together are one value: "Tuesdays and Fridays" → "Mondays and Thursdays",
#: "tuesday thursday saturday" → "friday and sunday", whole)
_DAY = rf"{WEEKDAYS}s?(?:(?:,? (?:and|&)|,)? {WEEKDAYS}s?)*(?: {PARTS_OF_DAY}s?)?"
#: Not by how much an amount changed: "put the rent up by 50, so it's 950 now".
_NOT_BY = r"(?<!\bby )(?<!\bby [^\w\s])"
#: The kinds, in the order a change is read for them.
KINDS = [
    # (with its day: "March 31" → "November 30", not "November 31")
    re.compile(
        rf"\b(?:\d{{1,2}}(?:st|nd|rd|th)? (?:of )?)?{MONTHS}\b(?: \d{{1,2}}(?:st|nd|rd|th)?\b)?",
        re.IGNORECASE,
    ),
    # (a day things start or end on, "from Monday I'm on my own", "Marc starts Monday", is
    # a date, not a schedule; "the last Thursday of the month" is one)
    re.compile(
        "".join(
            rf"(?<!{w} )" for w in ("from", "since", "until", "starting", "next", "starts", "start")
        )
        + rf"(?<!\blast )\b{_DAY}\b"
        + rf"|(?<=\blast ){WEEKDAYS}(?= of (?:the|every|each) month\b)",
        re.IGNORECASE,
    ),
    re.compile(
        r"\b\d{1,2}(?::\d\d)?\s?(?:am|pm)\b|\b\d{1,2}:\d\d\b|(?<=\bat )\d{1,2}\b(?!:)",
        re.IGNORECASE,
    ),
    # (a decimal whole: "58.2 seconds" is no 58; nor is a time a number, "6:15" no 6)
    # (and thousands said with a k: "rent is 180k"; or after a currency's letter: "R2,800"; or
    # with a unit joined to it: "5mg", "10km")
    # (not by how much it changed: ``_NOT_BY``)
    re.compile(
        rf"{_NOT_BY}(?:{_MONEY}\d{{1,3}}(?:,\d{{3}})+\b"
        rf"|(?<!:){_START}\d+(?:\.\d+\b|(?:st|nd|rd|th|k|mg|ml|kg|km)?\b(?![.:]\d)))"
    ),
]
#: A weekday, as a schedule says it ("Tuesday mornings").
WEEKDAY = KINDS[1]
#: The day a thing was done on, in the past: "moved into the flat on Saturday", "lost our
#: old boy on Thursday", "started monday actually" (not a routine's: "is on Thursday now",
#: "moved to Saturday"), or at a part of it ("died on Sunday night").
EVENT_DAY = re.compile(
    rf"\b[A-Za-z][a-z]+ed\b(?:[^,;.!?]*?\bon | )(?P<day>(?i:{WEEKDAYS}))\b(?!s)"
    r"(?![^,;.!?]*\b(?:now|instead|onwards|from now|every|each)\b)"
)
#: A time of day ("7am", "6:40", "at 9").
TIME = KINDS[2]
#: (whole: not the "4" of "4,500", nor the 6 of "6:15"; nor a time, the 7 of "7am")
_AMOUNT = (
    rf"(?<!:){_NOT_BY}(?:{_MONEY}\d{{1,3}}(?:,\d{{3}})+|{_START}\d+(?:\.\d+)?(?:k(?![a-z]))?)(?![,.:]?\d)"
    r"(?!\s?[ap]\.?m\b)"
)
#: The word after an amount, and the words that name no unit ("3,900 a month", "4,400 now").
_UNIT = re.compile(r" (?P<unit>[^\W\d_]+)")
_NOT_UNIT = re.compile(
    r"now|an?|the|per|from|on|in|at|to|and|or|this|next|last|if|so|but|these|those|with|for|"
    r"since|instead|again|too|though|already|as|until|each|every|once|plus|after|before|when|"
    r"because|cos|coz|cuz|bc|while|which|by|off|max|tops|or so|ish|then|yet|still"
)
#: No unit after an amount: no word follows it, or one that names no unit ("4,400 now").
_NO_UNIT_AFTER = rf"(?! (?!(?:{_NOT_UNIT.pattern})\b)[a-z])"
#: The periods an amount recurs by.
_PERIODS = "month|week|year|night|day|hour"
#: An amount of a period: "a month", "per week".
_PERIOD = rf"(?P<period>(?:an?|per|every) (?:{_PERIODS}))"
#: An amount by the period it recurs, with its unit between: "780 lari a month".
_RATE = re.compile(rf"\d\s?(?:[^\W\d]+\s)?(?:a|an|per|each|every)\s(?P<period>{_PERIODS})\b")
#: A count said in words ("three grandchildren", "Three apprentices now"; not "two weeks").
_IN_WORDS = (
    r"\b(?i:two|three|four|five|six|seven|eight|nine|ten|eleven|twelve)"
    r"(?= (?!(?:times|days|weeks|months|years|hours|minutes)\b))"
)
#: An amount of a named thing ("1,450 head", "3 kids", "2,800 złoty"; not "7 and 19") or of
#: a period; not one said to be as it was ("same time, same 10 euros").
_COUNTED = re.compile(
    rf"(?<!\bsame )({_AMOUNT}|{_IN_WORDS})(?: {_PERIOD}| (?P<unit>(?!(?:{_NOT_UNIT.pattern})\b)[^\W\d_]{{2,}}))\b"
)


def unit(text: str, at: int) -> str | None:
    """The unit of the amount that ends at ``at`` ("3,900 euros"), if one follows it."""
    found = _UNIT.match(text, at)
    return found["unit"] if found and not _NOT_UNIT.fullmatch(found["unit"]) else None


def unit_of(text: str, amount: str) -> str:
    """The unit ``amount`` is counted in, in ``text`` ("euros" of "10 euros"), or the period
    it recurs by ("month" of "300 a month for the hall": no topic shared with "earns 42000 a
    month"), or ""."""
    at = text.find(amount)
    if at < 0:
        return ""
    period = re.match(rf" {_PERIOD}\b", text[at + len(amount) :])
    return period["period"].split()[-1] if period else unit(text, at + len(amount)) or ""


def _of_the_same(text: str, at: int) -> re.Pattern[str]:
    """The amounts of what the amount ending at ``at`` counts: "76 kg" is no age ("Greta is
    57"), "4,400 now" (no unit) is "3,900 a month" (none either)."""
    counts = unit(text, at)
    after = rf"(?= {re.escape(counts)}\b)" if counts else _NO_UNIT_AFTER
    return re.compile(rf"{_AMOUNT}{after}")


def counted(text: str) -> tuple[re.Pattern[str], str] | None:
    """The first amount of a named thing or a period in ``text``, as the pattern of that
    thing's amounts and the value: "agreed to 11,000 a month" is "12,000 pesos a month"."""
    found = _COUNTED.search(text)
    if found is None and (price := _PRICE_MOVED.search(text)):
        # (a price moved, said by its currency alone: "rates go up to £110 from June" is the
        # one line's amount in pounds, "£95 a night")
        return PRICE, price["value"]
    if found is None:
        # (what they weigh, said without its unit: "Weighed in this morning: 81.9!")
        weighs = _WEIGHS.search(text)
        return (_WEIGHT, weighs["value"]) if weighs else None
    period = found["period"]
    counts = f"(?:[a-z]+ )?{period}" if period else found["unit"]
    return re.compile(rf"(?:{_AMOUNT}|{_IN_WORDS})(?= {counts}\b)"), found[1]


#: An amount after a currency's sign, and a price moved to one: "go up to £110", "raised my
#: lesson rate to $75".
PRICE = re.compile(rf"(?<=[£$€¥₹₦₵₱₩₺₽₴₸฿₫]){_AMOUNT}")
_PRICE_MOVED = re.compile(
    r"\b(?:(?:up|down) |(?:rais|increas|lower|dropp|bump|hik)\w* (?:[\w'-]+ ){0,4}?)"
    rf"to [£$€¥₹₦₵₱₩₺₽₴₸฿₫](?P<value>{_AMOUNT})"
)
#: A weight of the speaker's said with no unit, and the amounts of a weight, by its units.
_WEIGHS = re.compile(
    rf"\bweigh(?:s|ed|ing)?\b[^.!?\d]*(?P<value>{_AMOUNT}){_NO_UNIT_AFTER}",
    re.I,
)
_WEIGHT = re.compile(rf"{_AMOUNT}(?= ?(?:kg|kgs|kilos?|kilograms?|lbs?|pounds)\b)")
#: Any amount, for a line on the same topic (``truth._changes``; a pattern of its own, not the
#: cached ``KINDS[-1]``, which it is told apart from by identity).
TOPICAL_AMOUNT = re.compile(f"(?:{KINDS[-1].pattern})")
#: Any amount, for the one line of the speaker's holding an amount of the same scale ("I'm on
#: 31,500 now" of "a salary of 29,000 SEK"): a pattern of its own, told apart by identity.
SCALED_AMOUNT = re.compile(f"(?:(?:{KINDS[-1].pattern}))")  # (not the cached TOPICAL_AMOUNT)
#: How far apart two amounts of one thing may be: a raise, a rent put up, a new record.
SCALE = 1.5
#: How far apart two amounts said with the same unit may be and still be of one thing, off
#: its topic: a rent doubled is news, a hundredfold is another thing's price.
FAR = 3


def _number(amount: str) -> float | None:
    digits = amount.replace(",", "")
    thousands = digits.endswith("k")
    try:
        number = float(digits.removesuffix("k"))
    except ValueError:
        return None
    return number * 1000 if thousands else number


#: An amount said to move: "goes up to 42 cedis", "raising the rent to 950"; or to have risen
#: or fallen, by no figure: "the price went up again" (not a place gone up to, "went up to
#: Leeds").
_MOVED_TO = re.compile(
    r"\b(?:up|down|rais\w*|increas\w*|lower\w*|cut|dropp\w*|reduc\w*)\b[^.]*?\bto [^\w\s]?\d|"
    r"\b(?:went|gone|goes|going) (?:up|down)\b(?! to\b)",
    re.IGNORECASE,
)


def recurs(text: str) -> bool:
    """``text`` says an amount by the period it recurs ("780 lari a month", "$40 a night"):
    a value of its speaker's, with or without a subject."""
    return bool(_RATE.search(text))


#: What an amount is of, said after it: "4,200 each class", "£9 per head" (not a period).
_PER = re.compile(
    rf"\s?(?:[^\W\d]+\s)?(?:each|per|a|an|every)\s(?!(?:{_PERIODS})s?\b)(?P<unit>[a-z]{{3,}})\b"
)


def per(text: str, amount: str) -> str:
    """What ``amount`` in ``text`` is each of, as a word of its topic (" class" of "is 4,200
    each class"), or ""."""
    at = text.find(amount)
    found = _PER.match(text, at + len(amount)) if at >= 0 else None
    return f" {found['unit']}" if found else ""


def rate_periods(text: str) -> set[str]:
    """The periods ``text``'s amounts recur by ("2.500 pesos an hour": hour): a rate's slot, what
    a new rate of the same period replaces ("it's 3.200 an hour now")."""
    return {m["period"] for m in _RATE.finditer(text)}


def amount_moved(text: str) -> bool:
    """``text`` says an amount moved to a new one ("jollof goes up to 42 cedis")."""
    return bool(_MOVED_TO.search(text))


def far_apart(was: str, value: str) -> bool:
    """``was`` and ``value`` are amounts too far apart to be one thing changed, off its topic
    ("10 euros" a match is no new "1,300 euros" of a mortgage)."""
    old, new = _number(was), _number(value)
    return old is not None and new is not None and max(old, new) > FAR * max(min(old, new), 1)


def other_quantity(was: str, value: str) -> bool:
    """``was`` and ``value`` are amounts of a hundred or more too far apart to be one
    quantity changed, whatever each is said of: "42k" a salary is no rent of "1350 a month"
    (a count, an age or a model's number, under a hundred, may move further: "3 hens" to 12)."""
    old, new = _number(was), _number(value)
    return old is not None and new is not None and min(old, new) >= 100 and far_apart(was, value)


def amounts_apart(text: str, line: str) -> bool:
    """``text`` states an amount and ``line`` holds one, of other quantities: every two of a
    hundred or more ``other_quantity``, or the one's all money and the other's all counted in
    a unit ("60 hour weeks" is no new rate of "$95 an hour"): a new figure of another thing
    than the line's."""
    said, held = (
        [m.group(0) for m in KINDS[-1].finditer(t) if (_number(m.group(0)) or 0) >= 100]
        for t in (text, line)
    )
    if said and held and all(other_quantity(w, v) for w in held for v in said):
        return True
    measures = [_measures(t) for t in (text, line)]
    return all(measures) and {"money"} in measures and any("money" not in m for m in measures)


def _measures(text: str) -> set[str]:
    """What the amounts of ``text`` measure: "money" after a currency's sign, the unit after
    one counted in a word ("hour" of "60 hour weeks"); empty if any says neither."""
    found = set()
    for amount in KINDS[-1].finditer(text):
        if PRICE.match(text, amount.start()):
            found.add("money")
        elif counts := unit(text, amount.end()):
            found.add(counts.lower())
        else:
            return set()
    return found


def of_a_scale(was: str, value: str) -> bool:
    """``was`` and ``value`` are amounts of the same scale, of a hundred or more, not years:
    a change of one thing, not another thing's number ("31,500" of "29,000", not of "12")."""
    old, new = _number(was), _number(value)
    if old is None or new is None or min(old, new) < 100:
        return False
    if all(re.fullmatch(r"(?:19|20)\d\d", v) for v in (was, value)):
        return False  # two years
    return old != new and max(old, new) / min(old, new) <= SCALE


def of_the_kind(kind: re.Pattern[str], text: str, value: re.Match[str]) -> re.Pattern[str] | None:
    """For an amount, the amounts of the same thing only (``_of_the_same``)."""
    if kind is not KINDS[-1] or value.group(0)[-2:] in ("st", "nd", "rd", "th"):
        return None
    return _of_the_same(text, value.end())


def root(value: str) -> str:
    """A value less its plural and part of day ("Tuesday mornings" is on a Tuesday); a name or
    a date whole ("Otahuhu Hawks" is not "Otahuhu Tigers", "March 15" not "March 14")."""
    if not value.strip():
        return ""
    day = WHEN.match(value) and not re.search(r"\d", value)
    return value.casefold().split()[0].removesuffix("s") if day else value.casefold()


#: A best time, said with its word: "my 2k erg PB is 7:45", "New PR by a lot", "sub 7:40 done".
RECORD = re.compile(
    # (whole words: "practice", "recording" and "price" are none)
    r"\b(?:pb|pr|personal (?:best|record)|(?:new|my|their|'s)(?: [\w-]+)? best|record|sub[ -]?\d)\b",
    re.I,
)
#: A time a race took ("1:47", "3:29:12"): the value of the speaker's one line of a record.
RECORD_TIME = re.compile(
    # (not a time to beat: "sub 7:40", "under 1:50")
    # (with its tenths: "1:09.8")
    r"(?<![\d:])(?<!sub )(?<!sub-)(?<!under )\d{1,2}:\d\d(?::\d\d)?(?:\.\d+)?(?![\d:])"
    r"(?!\s?(?:am|pm)\b)",
    re.I,
)
#: A race done, whose time may beat the best: "I swam 1:09.8 in the 100 free", "Raced the
#: qualifier on Sunday: 37:12".
_RACED = re.compile(
    # (or a race said by its noun: "Did a time trial Sunday: 54:15")
    r"\b(?:raced|ran|swam|rode|rowed|finished|clocked|did (?:a|the|my) (?:[\w-]+ )?(?:time trial|race|parkrun|century|marathon))\b",
    re.I,
)


def record_time(text: str, turn: str) -> str:
    """The time ``text`` gives when its ``turn`` says it is a record ("RACE REPORT: 1:47:12!!!
    new PB") or a race was done (a best only if faster: ``faster``), or ""."""
    found = RECORD_TIME.search(text)
    return found[0] if found and (RECORD.search(turn) or _RACED.search(text)) else ""


def faster(time: str, than: str) -> bool:
    """``time`` ("1:09.8") is less than ``than`` ("1:12.4"), both said the same way."""
    if time.count(":") != than.count(":"):
        return False
    seconds = [
        sum(float(p) * 60.0**i for i, p in enumerate(reversed(t.split(":")))) for t in (time, than)
    ]
    return bool(seconds[0] < seconds[1])


#: A time, for a line on the same topic ("Start time is 7:15" of "Start at 6:30"): a pattern
#: of its own, told apart from the cached ``KINDS[2]`` by identity.
TOPICAL_TIME = re.compile(f"(?:{KINDS[2].pattern})", re.IGNORECASE)
#: A weekday on a topic ("the extra session is on Sunday mornings"): told apart by identity.
TOPICAL_DAY = re.compile(f"(?:{KINDS[1].pattern})", re.IGNORECASE)
#: A topic's amount, time or day stated: "The rent is R6,500", "My salary is 35,000 now",
#: "Start time is 7:15", "The extra session here is on Sunday mornings".
_VALUE_OF = re.compile(
    # (after a word that leads in: "Wait, fee is 14,750")
    # (or when it holds from: "From the next market the mugs go for 1,100")
    rf"^(?:(?:But|And|So|Also),? |[A-Z][a-z]*, |From (?:the next [a-z]+|now on|today),? )?"
    rf"(?:(?:The|My|Our|Their|[{UPPER}][\w-]*'s|the|my|our|their) )?"
    # (or its price: "Dorm beds go for 32 this summer", "A nata costs 1.30")
    # (or where it moves: "My salary goes to 51000", "the pay goes up to 1650")
    r"(?:[A-Za-z-]+ )?[A-Za-z-]+ (?:here |there )?(?:is|are|costs?|go(?:es)? for|sells? for|"
    r"(?:goes|went|is going) (?:up |down )?to) (?:now )?"
    # (after its currency: "GH₵1,350", "$900", "R6,500", "RM 3,600")
    rf"(?:(?:[A-Z]{{0,3}}[^\w\s]|[RNKP]|[A-Z]{{2,3}} )?(?P<value>{KINDS[-1].pattern})|(?:at )?(?P<time>{KINDS[2].pattern})"
    # (a day that recurs, not one occasion: "on Wednesday this week only")
    rf"|on (?P<day>(?i:{_DAY}))\b(?![^,.;]*\b(?:this|next|only|once|tomorrow)\b))"
)


def stated_amount(text: str) -> tuple[re.Pattern[str], str] | None:
    """The amount, time or day ``text`` states of its topic ("The rent is R6,500" → "6,500"),
    as the pattern of values of its kind on a topic, and the value; or None."""
    if (found := _VALUE_OF.match(text)) is None:
        return None
    if found["day"]:
        return TOPICAL_DAY, found["day"]
    return (TOPICAL_TIME, found["time"]) if found["time"] else (TOPICAL_AMOUNT, found["value"])


#: A thing of the speaker's somewhere else now: "The studio is in Lekki now".
_THING_IN = re.compile(
    r"^(?:The|Our|My|Their) (?P<thing>[a-z]{3,}) (?:is|are) (?:now )?in "
    r"(?P<place>[A-Z][\w'-]*(?: [A-Z][\w'-]*)*)(?: now)?\b"
)


def stated_values(text: str, turn: str, said: str) -> list[tuple[re.Pattern[str], str]]:
    """The values ``text`` (``said`` with its opener, in ``turn``) states, by kind: a name it
    is now called, a place a thing is in, a month, a number…"""
    found = []
    if renaming := new_name(text, turn, said):
        found.append(renaming)
    if moved := _THING_IN.match(text):
        # (where the line says the same thing is: "working from a tiny studio in Yaba")
        at = rf"\b{moved['thing']}s? in (?P<name>[A-Z][\w'-]*(?: [A-Z][\w'-]*)*)"
        found.append((re.compile(at), moved["place"]))
    for kind in KINDS:
        if value := kind.search(text):
            found.append((counted := of_the_kind(kind, text, value) or kind, value.group(0)))
            if counted is not kind and not unit(text, value.end()):
                # "put the rent up to 10,500": an amount said without its unit is the one
                # of a line on the same thing ("Rent is 9,000 crowns"), if no bare one is
                found.append((TOPICAL_AMOUNT, value.group(0)))
                found.append((SCALED_AMOUNT, value.group(0)))
    return found


def the_one(
    kind: re.Pattern[str], line: str, said: str, persons: Collection[str] = (), value: str = ""
) -> re.Match[str] | None:
    """The value of ``kind`` in ``line`` a change (``said``, to ``value``) changes: the only
    one, the one recurring by the same period ("$110 an hour now" of "$95 an hour plus
    callout $80"), or the one said just after a word of the change ("intervals go to
    Fridays": of "Intervals on Tuesdays, long ride Sunday", Tuesdays; "closes at 23:00" of
    "opens at 11 and close at 21:00", whoever of ``persons`` both name); else None."""
    found = list(kind.finditer(line))
    if len(found) < 2:
        return found[0] if found else None
    if value and (rate := re.search(rf"{re.escape(value)} {_PERIOD}", said)):
        by = [m for m in found if re.match(rf" {re.escape(rate['period'])}\b", line[m.end() :])]
        if len(by) == 1:
            return by[0]
    words = topic_of(said, subject=True) - {p.casefold() for p in persons}
    # (what it is an amount of, said right after it: "pay GH₵950 rent", not the next amount
    # "… rent …, and earn about GH₵6,800")
    of = [m for m in found if on_topic(words, " ".join(line[m.end() :].split()[:1]))]
    if len(of) == 1:
        return of[0]
    # (what is said between the value before it and it: "long ride" for Sunday)
    ends = [0, *(m.end() for m in found)]
    near = [m for m, at in zip(found, ends, strict=False) if on_topic(words, line[at : m.start()])]
    return near[0] if len(near) == 1 else None


def on_topic(topic: set[str], line: str) -> bool:
    """``line`` is about a word of ``topic`` (``topic_of``), a plural for its singular too
    ("Standups are at 10:15" of "Their daily standup is at 9:30")."""
    return bool(_stems(topic) & _stems(topic_of(line, subject=True)))


def _stems(words: set[str]) -> set[str]:
    """``words`` less a plural's or a verb's "s" ("closes" is "close", "standups" "standup"),
    and what one earns by one word ("the pay is 118,000" is of "Salary is 95,000")."""
    stems = {w.removesuffix("s") for w in words}
    return {"pay" if w in _EARNINGS else w for w in stems}


#: The words for what one earns, which the small embedder does not tell from rent.
_EARNINGS = frozenset(
    ["pay", "salary", "wage", "income", "take-home", "paycheck", "paycheque", "earn", "earning"]
)


def topic_of(text: str, subject: bool = False) -> set[str]:
    """The words a fact is about, less small words and (unless ``subject``: "Rent is 9,000
    crowns" is about rent) its subject, its first word; nor is the period an amount recurs by
    ("$110 an hour" is no topic of "60 hour weeks", nor "a month" of every rent and pay)."""
    text = re.sub(rf"\b{_PERIOD}\b", " ", text)
    words = {w.casefold() for w in re.findall(r"[A-Za-z][\w'-]+", text)[0 if subject else 1 :]}
    return {w.removesuffix("'s") for w in words if w not in SMALL_WORDS and len(w) > 2}
