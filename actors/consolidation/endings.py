"""A thing of the speaker's said to end, by its kind: "the old laptop finally died", "sold
my bike", "someone nicked my scooter".

An ending names the thing's kind, not its make, so the line it ends is found
by the kind's noun or the speaker's one thing owned by name (``change``).
Here are the words of an ending, and what ended, as whose it is. See
docs/design.md, "Facts that stay true".
"""

from __future__ import annotations

import re
from collections.abc import Sequence

from reverie.store import Fact

from .signals import BROKE, CLAUSE, FELL_FOR_GOOD, FELL_TO, GONE
from .words import UPPER, WEEKDAYS

__all__ = ["ENDED", "done_without", "no_longer_on", "stolen", "thing_ended"]

#: The verbs a theft is told with.
_THEFT = "(?:stole|nicked|pinched|swiped)"
#: The verbs a wreck is told with, whoever did it: "someone … totaled my car".
_WRECK = "(?:totall?ed|wrote off)"
#: A thing of the speaker's said to end, by its kind ("the old laptop finally died", "sold
#: my bike", "the scooter's gone", "the fair's been cancelled").
ENDED = re.compile(
    rf"(?:(?:\b(?i:my|the|our|their)|[{UPPER}][\w-]*'s) (?:old |little |ancient )?"
    # (its noun may be hyphenated: "my e-bike got stolen")
    # (or a plural said with what they are of: "Kojo's weekend classes have stopped")
    r"(?:[a-z]+ (?=[a-z]{3,}s (?:have|had) stopped\b))?"
    r"(?P<head>(?:[a-z]+-)?[a-z]{3,})(?:'s| is| was| have| had)? (?:finally |just )?"
    # (or wrecked past repair: "the car is totaled", "written off")
    # (or burnt out: "the rework station burnt out this morning"; or packed up, as some say it:
    # "the generator packed up on Tuesday")
    rf"(?:died|{GONE}|gave (?:up|out)|(?:burnt|burned|blew) out|packed (?:up|in)|(?<=ve )stopped\b|{BROKE}|(?:was|got) (?:stolen|{_THEFT})|totall?ed|written off|"
    # (or a fall that finished it: "the phone fell on the tiles and finished")
    rf"{FELL_FOR_GOOD}|"
    r"for scrap|(?:been |got )?(?:cancell?ed|called off)|"
    # (a business that closed: "my restaurant closed for good", "the gym went bust"; not for
    # a while, "closed for the holidays", "closed on Mondays")
    r"(?:closed|shut) (?:down|for good|its doors)|went (?:bust|under|out of business)|"
    r"(?:up )?for sale|lives with|(?:is|'s) living with|"
    r"went to live|(?:was|got) rehomed)|"
    # ("the old laptop went to my cousin": an old thing given on)
    r"\b(?i:my|the|our|their) old (?P<given>[a-z]{3,}) went (?:back )?to|"
    # (or worn out: "the old shoes are dead"; not "my legs are dead", tired)
    r"\b(?i:my|the|our|their) old (?P<worn>[a-z]{3,}) (?:is|are|was|were) (?:finally )?(?:dead|finished)\b|"
    # (a thing retired is an old one: "my boss retired" is a person's news)
    r"\b(?i:my|the|our|their|that) old (?P<retired>[a-z]{3,}) (?:is|was|got|has been) retired\b(?! to)|"
    # ("the old car was too tired, so I sold it"; "gave the car to my grandson")
    r"\b(?i:my|the|our|their|that) old (?P<it>[a-z]{3,})\b[^.;!?]*\b(?:sold|scrapped|traded) it\b|"
    r"\b(?:gave|given|handed)(?: on| down)? (?:my|the|our|that) (?:old )?(?P<handed>[a-z]{3,}) to\b|"
    rf"\b(?:sold|scrapped|retired|traded(?: in)?|swapped|got rid of|(?:gone|went) off|binned|chucked(?: out)?|threw (?:out|away)|g[ai]ven? (?:up(?: on)?|away)|replaced|"
    # (or wrecked past repair, the verb first: "totaled my car", "wrote off the van")
    rf"{_WRECK}|"
    # (a being that died, said by its burial: "we buried the hamster on Sunday")
    r"buried|"
    # (a theft, as it is said: "someone nicked my bike")
    rf"{_THEFT}|cancell?ed|"
    # (a habit or a membership ended by its kind: "stopped the coffee" for the americano;
    # not a job, which is an employer's: "quit my job"; nor "dropped the girls off")
    r"(?:stopped|quit)(?: going to)?|left|leaving|dropped|ditched|cut out|"
    # (a job left by where it was: "handed in my notice at the hospital", "gave notice at the
    # bank", "resigned from the paper")
    r"(?:(?:handed|put) in|gave|given) (?:(?:my|their|his|her) )?notice (?:at|to)|resigned from) "
    rf"(?:my|the|our|their|that|this|[{UPPER}][\w-]*'s) (?:(?:old|little|big|small|first|trusty) )?"
    # (or when it was: "the Wednesday fight class", "the saturday racquet games")
    rf"(?:(?i:{WEEKDAYS})s? )?"
    # (not "old" itself: "traded in the old 12")
    # (nor a thing let fall or left somewhere: "dropped my keys down the drain", "left my
    # wallet in the car")
    r"(?P<sold>(?!(?:old|little|job|work|position|role)\b)[a-z]{3,}))\b"
    rf"(?! {FELL_TO})"
)


def thing_ended(fact: Fact, said: str, ended: re.Match[str]) -> Fact:
    """What ``ended`` (found in ``said``, ``fact`` with its opener) says ended: the clause
    holding it, or, for a theft, the thing as whose it is."""
    if stolen(ended):
        return _stolen(fact, ended)
    return _clause_of(fact, said, ended.start())


def stolen(ended: re.Match[str]) -> bool:
    """``ended`` tells a theft or a wreck, which ends a thing whoever's it is ("someone stole
    Farhad's scooter" ends Farhad's, "someone … totaled my car" the speaker's): not the
    speaker's doing, as a sale or a gift is."""
    return bool(re.match(rf"(?:{_THEFT}|{_WRECK}) ", ended[0]))


def _stolen(fact: Fact, ended: re.Match[str]) -> Fact:
    """What was stolen, as whose it is: a thief is no owner ("Someone stole the moto" is the
    speaker's moto, "… stole Farhad's bike" Farhad's)."""
    whose = re.search(rf"([{UPPER}][\w-]*)'s", ended[0])
    text = f"{whose[1]}'s {ended['sold']}." if whose else f"The {ended['sold']} was stolen."
    return Fact(text=text, date=fact.date, sources=fact.sources)


def _clause_of(fact: Fact, said: str, at: int) -> Fact:
    """The clause of ``fact`` (``said`` with its opener) that holds ``said[at]``: whose thing
    ended is that clause's ("Luca is allergic, so the bird lives with their aunt now" is no
    bird of Luca's)."""
    start = max((m.end() for m in CLAUSE.finditer(said, 0, at)), default=0)
    end = m.start() if (m := CLAUSE.search(said, at)) else len(said)
    return Fact(text=said[start:end], date=fact.date, sources=fact.sources)


def done_without(line: Fact, names: list[str]) -> Fact | None:
    """What ``line`` says of the speaker less the thing that ended, when that thing (one of
    ``names``) is only what they did it with, said last: "drives Uber in Houston, full time,
    in their Toyota Prius" → "drives Uber in Houston, full time." (issue 59, item 1)."""
    for name in names:
        said = r",? (?:in|on|with) (?:my|their|his|her|our|the) (?:[\w-]+ ){0,2}"
        if found := re.search(rf"{said}{re.escape(name)}[.!]?$", line.text):
            return Fact(text=f"{line.text[: found.start()]}.", date=line.date, sources=line.sources)
    return None


#: What the speaker stopped, by what they were doing with it: "stop the sleep pills I was
#: taking", "took me off the tablets I was on", "dropped the app I was using".
_WAS_ON = re.compile(
    r"\b(?:stop|stopped|stopping|off|quit|dropped|ditched|no longer on) (?:the|my|their|those|these) "
    r"(?:[\w-]+ ){0,2}?[a-z]+ (?:I|they|we) (?:was|were|had been|'d been|have been|'ve been) "
    r"(?P<doing>on|taking|using)\b"
)
#: A line of what one is on, takes or uses: "is on naproxen", "takes melatonin".
_DOING = {
    "on": re.compile(r"\b(?:is|are|am|was|been) (?:still )?on (?!(?:the|a|an|my|their)\b)[\w-]+"),
    "taking": re.compile(r"\btak(?:e|es|ing)\b"),
    "using": re.compile(r"\bus(?:e|es|ing)\b"),
}


def no_longer_on(said: str, theirs: Sequence[Fact]) -> Fact | None:
    """The one line of ``theirs`` (the speaker's) of what ``said`` says they stopped by what
    they were doing with it ("the tablets I was on" is "is on naproxen", whatever naproxen
    is); None when none or two are."""
    if (found := _WAS_ON.search(said)) is None:
        return None
    doing = _DOING[found["doing"]]
    lines = [f for f in theirs if doing.search(f.text)]
    return lines[0] if len(lines) == 1 else None
