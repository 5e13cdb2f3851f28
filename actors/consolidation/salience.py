"""How worth keeping a sentence is, on the extractive path: a score from cheap signals.

A first-person statement of fact or preference, a change said (``signals``), a key of
memory (``attributes.keys``), a retraction, a thing of theirs by its make, someone of
theirs, dates, numbers and amounts, capitalised names; the user's sentences count in
full, the assistant's at half. A sentence scoring ``FACT_MIN_SCORE`` or more may become a
fact (``extractive``). See docs/design.md, "Consolidation, step by step".
"""

from __future__ import annotations

import re

from .acquiring import THE_MAKE
from .attributes import PET, keys
from .chatter import split_opener
from .departures import someone_left
from .described import ended_their_own
from .kinds import record_time, recurs
from .medicines import medicine_changed
from .offers import BEGUN_AT
from .ownership import of_theirs
from .renaming import renames
from .retraction import retraction_topics
from .signals import ending, signalled
from .subjects import done_to
from .words import MONTHS, UPPER, WEEKDAYS

__all__ = ["FACT_MIN_SCORE", "OWNED_WRONG", "VALUE_ALONE", "salience"]

FACT_MIN_SCORE = 3
#: A sentence that opens with what its speaker is doing, "I" left out: "Having paratha …".
_DOING = re.compile(r"^[A-Z][a-z]{2,}ing\b")
_FIRST_PERSON = re.compile(r"\b(i|i'm|i've|i'd|my|mine|we|we're|our)\b", re.IGNORECASE)
#: The speaker as what others did something to ("They made me operations manager"), said
#: not asked ("Can you help me …?" is a request).
_ME = re.compile(r"\bme\b(?!.*\?$)", re.IGNORECASE)
#: Someone by name doing a thing to the speaker still: "Linh helps me to pack orders in the
#: evening" (the others', ``subjects.done_to``).
_HELPS_ME = re.compile(
    r"^(?!(?:It|This|That|There|What|Which)\b)[A-Z][a-z]+ (?:also |still )?[a-z]+s (?:me|us)\b"
)
_STATEMENT = re.compile(
    r"\b(i'm|i've|am|is|are|was|have|has|prefer|prefers|like|likes|love|loves|hate|dislike|want|"
    r"need|use|work|works|live|lives|moved|relocated|always|never|usually|favou?rite|allergic|"
    r"name|called|born|birthday|plan|decided|remember|teach|teaches|study|studies|speak|speaks|"
    r"own|owns|bought|adopted|joined|started|play|plays|made|promoted|hired|gave|"
    # (a thing kept, decided: "I'll stay with Zotero", "sticking with the Pulsar")
    r"(?:stay|stick|staying|sticking) with|"
    r"(?:till?|until) i die|for life|through and through)\b",  # (a team: "Arsenal for life")
    re.IGNORECASE,
)
#: A sentence that changes or takes back a fact: always worth a look by the merge.
_CHANGE = re.compile(
    r"(?i)\b(?:correction|typo|actually|anymore|no longer|forget|scratch|scrap|cancelled|is off|not happening|"
    # (someone in a role replaced: "the replacement is M. Lefort")
    r"replacement is|replaced by)\b"
)
#: One more pet in the household: "a second cat has joined us", "found another dog".
_ONE_MORE_PET = re.compile(
    rf"\b(?:an?(?: [a-z]+)? (?:second|third|fourth)|another) (?:[a-z]+ )?(?:{PET.pattern})\b",
    re.IGNORECASE,
)
#: "We practise on Thursdays": the speaker doing something, whatever the verb.
_SUBJECT_VERB = re.compile(
    # (after when it holds from: "From next month we pay 750 leva")
    r"^(?:[^:]+: )?(?:(?:From|Since|Starting|As of|Until) (?:next |this |last )?\w+,? )?"
    r"(?:I|[Ww]e|[Mm]y [a-z]+(?: [A-Z][\w-]*)?|(?:[Mm]y [\w-]+ )?[A-Z][\w'-]* and I)"
    r"(?:'re|'ve)? "
    r"(?!(?:would|might|could|should|will|may)\b)[a-z]{2,}\b"
)
#: A speaker giving their name in two or three words ("I'm Maya.", "Call me Ines!"), or a
#: state of theirs in one ("I'm vegetarian.", "We're engaged!"; a feeling of the moment is
#: ``is_chatter``'s).
_INTRODUCTION = re.compile(
    r"^(?:(?:I'm|I am|Call me|My name's|Name's) [A-Z][\w'-]*|"
    r"(?:I'm|I am|We're|We are) (?:now |finally |officially )?[a-z][a-z-]{3,}|"
    # (an age: "I'm 29.")
    r"(?:I'm|I am) (?:now |just )?\d{1,3})[.!]*$"
)
_DATE = re.compile(
    r"(?i)\b(?:\d{4}-\d{2}-\d{2}|\d{1,2}/\d{1,2}(?:/\d{2,4})?|today|tomorrow|yesterday|"
    rf"(?:{WEEKDAYS})s?|{MONTHS})\b"
)
_NUMBER = re.compile(r"\d")
#: Money: a symbol or a currency's code on either side of an amount ("$900", "450 €",
#: "2,300,000 MNT", "KSh 54,000").
_CURRENCY = re.compile(r"[$€£¥₹₦₱]\s?\d|\d\s?(?:[€£¥₹₦₱]|[A-Z]{3}\b)|\b[A-Z]{2,3}\s?\d")
#: A value stated: "is 214 watts", "are now 40,000 a month", "is a scary 1,400 a month".
_VALUE_IS = re.compile(r"\b(?:is|are|go for|goes for|sells? for)\s+(?:[a-z]+\s+){0,2}[^\w\s]?\d")
_IS = re.compile(r"\b(?:is|are)\b")
_NAMED_OWN = re.compile(
    # (or named after a comma, alone: "Our rescue greyhound, Rocket.")
    rf"^(?i:my|our) (?:(?:[a-z-]+ ){{1,2}}[{UPPER}][\w'-]+ [a-z]|(?:[a-z-]+ )?[a-z-]+, "
    rf"[{UPPER}][\w'-]+[.!]*$)"
)
#: A thing of theirs said again with "the": "The mugs come from …" after "I sell ceramic mugs".
_THE_THING = re.compile(r"[Tt]he (?P<noun>[a-z]{3,})\b(?: (?P<then>[a-z]{3,})\b)?")
_NAME = re.compile(r"\b[A-Z][\w'-]+")
_SENTENCE = re.compile(r"(?<=[.!?])\s+")
#: Someone named as what they are: "a young man, Mostafa,", "a woman called Ludmila" (not a
#: thing's make: "a new phone, a Pixel").
_SOMEONE_NAMED = re.compile(
    rf"\b(?i:an?) (?:[a-z-]+ ){{0,2}}[a-z]+(?:, | called | named )[{UPPER}][a-z]+\b(?! [A-Z])"
)
#: A value said alone, in a turn that owns a mistake: "Sorry, I got the waitlist wrong. … It's
#: 11." puts the waitlist right.
VALUE_ALONE = re.compile(
    r"^(?:Correction: )?(?:It's|It is|That's|That is) (?:actually )?\S*\d[\d,.]*[.!]?$"
)
#: A mistake owned in a clause of its own, before the clauses that correct it.
OWNED_WRONG = re.compile(
    # (or the phone's mistake: "my phone autocorrected my wife's name")
    r"\b(?:wrong|mistakes?|typo|mis(?:read|typed|spoke|said|remembered|wrote)|mixed (?:\w+ )*up|"
    r"auto-?correct(?:ed|s)?)\b",
    re.IGNORECASE,
)


def salience(text: str, role: str, turn: str = "", theirs: frozenset[str] = frozenset()) -> int:
    """Salience of one sentence (of ``turn``, by one with ``theirs``); 0: never worth keeping."""
    if role == "user" and VALUE_ALONE.match(text) and OWNED_WRONG.search(turn):
        return FACT_MIN_SCORE  # "It's 11.", after "I got the waitlist wrong"
    if role == "user" and record_time(text, turn):
        return FACT_MIN_SCORE  # "7:38!!! sub 7:40 done": a new best time, however short
    words = text.split()
    if _INTRODUCTION.match(text):
        return FACT_MIN_SCORE if role == "user" else 0  # "I'm Maya.": short, but a name
    if len(words) < 3 and not (keys(text) and ending(text) and not _QUIT.search(text)):
        # (but a short end of a claim is one: "I resigned."; "I quit!" may be of a habit,
        # said after it: "I quit! …sugar, I mean")
        return 0
    # (or the first days at work somewhere, over: "First full week at Cholla done."; or one
    # more pet: "And Nerea found a second dog at the shelter, Boro.")
    changed = (
        _CHANGE.search(text)
        or signalled(text)
        or renames(text)
        or BEGUN_AT.match(text)
        or _ONE_MORE_PET.search(text)
        or someone_left(text)
        or ended_their_own(text)
        or medicine_changed(text)  # ("GP upped it to 100mcg": a dose is theirs, said of "it")
    )
    score = 3 if changed else 0
    if keys(text):  # about a home, a job, a partner, a pet…: what memory is for
        score += 2
    if retraction_topics(text) is not None:  # takes a fact back: the merge must see it
        score += 3
    if _FIRST_PERSON.search(text) or _ME.search(text):
        statement = _STATEMENT.search(text) or _SUBJECT_VERB.match(text)
        # (others doing a thing to the speaker or a thing of theirs, "they offered me a role",
        # "the club bumped my pay to …", is said of them as a statement is)
        done = done_to(text, "me|my [a-z]+") or _HELPS_ME.match(text)
        score += 3 if statement or done else 1
    elif _IS.search(text) or _DOING.match(text):
        # "the rent is 925 pounds", "Thursday mornings are pilates"; or the speaker's doing,
        # "I" left out: "Having paratha for breakfast again"
        score += 1
    # "Our husky Muki got …": who is in their life, said of them; "The Duster is a blessing
    # for port pickups", "The Vario handles the hill": a thing of theirs known by its make
    body = split_opener(text)[1]  # (after its opener: "ok so the Framework arrived")
    if _NAMED_OWN.match(body) or THE_MAKE.match(body) or _told_theirs(body, turn):
        score += 2
    score += 3 if of_theirs(text, theirs) else 0  # "Carla has dementia", of "my wife Carla"
    if _SOMEONE_NAMED.search(text) and any(map(someone_left, _SENTENCE.split(turn))):
        # "… the night carer quit. The agency sent a young man, Mostafa, …": who took their
        # place (not "put on an inhaler too, Ventolin", a thing by its name)
        score += 2
    if _DATE.search(text):
        score += 2
    if _NUMBER.search(text):
        # (a value stated as one more: "FTP is 214 watts", "deposit is €1,800"; not "at 6")
        # (or an amount by the period it recurs, a value of theirs: "780 lari a month")
        if recurs(text):
            score += 3
        else:
            score += 2 if _VALUE_IS.search(text) or _CURRENCY.search(text) else 1
    names = {w for w in _NAME.findall(" ".join(words[1:])) if w != "I" and not w.startswith("I'")}
    score += min(len(names), 2)
    return score if role == "user" else score // 2


_QUIT = re.compile(r"\bquit\b", re.IGNORECASE)


def _told_theirs(body: str, turn: str) -> bool:
    """``body`` opens with a thing its turn said before in the first person ("I sell
    handmade ceramic mugs. The mugs come from a family workshop in Bat Trang."): theirs, as
    "my mugs" would be."""
    thing = _THE_THING.match(body)
    before = turn[: turn.find(body[:20])] if thing and body[:20] in turn else ""
    # (its noun, or the word after a word before it: "the ceramic mugs")
    nouns = "|".join(filter(None, thing.group("noun", "then"))) if thing else ""
    return bool(before and re.search(rf"\b(?:I|my|our|we)\b[^.!?]*\b(?:{nouns})\b", before, re.I))
