"""What says a state changed, ended, or is not (yet) a state at all.

A change said in other words is found by meaning (``change.py``), but
*that* something changed is said in a small, closed set of English words:
"now", "instead", "switched", "no longer", "sold", "quit", a correction;
and what is not a state is said in another: a plan, a wish, a suggestion,
a question, a past already over. Both sets live here, in one place, so the
golden tables can show what each word does. See docs/design.md, "Memory
that stays true", step 5.
"""

from __future__ import annotations

import re

from .attributes import PET
from .words import CORRECT_WHAT, MONTHS, UPPER, WEEKDAYS

__all__ = [
    "ACTUALLY",
    "ACTUALLY_BESIDE",
    "BROKE",
    "CLAUSE",
    "FELL_FOR_GOOD",
    "FELL_TO",
    "GONE",
    "SWITCH",
    "THAN_THE_OLD",
    "added",
    "ended_at",
    "ended_clause",
    "ending",
    "gone",
    "hedged",
    "over",
    "signalled",
    "weakly",
    "without_cues",
    "wrecked",
]

#: The verbs of a switch: "switched", "changing", "swapped".
SWITCH = "(?:switch|chang|swapp?)"
#: Where a fact's clauses meet: a state is said in its first clause.
CLAUSE = re.compile(r",\s+(?:and\s+|but\s+|so\s+)?|;\s+|\s+and\s+(?!others\b)(?=[a-z])")

#: The old thing a new one is measured against: "than the old car", "like the old bike did",
#: "than the tuk-tuk before".
THAN_THE_OLD = re.compile(
    rf"\b(?:than|like) (?:the|my|our|[{UPPER}][\w-]*'s) (?:(?:old|previous|former) "
    r"(?P<head>[a-z]{3,}(?:-[a-z]+)?)\b(?! (?:one|ones)\b)|"
    r"(?P<was>[a-z]{3,}(?:-[a-z]+)?) before\b)"
)
#: "actually" beside the value it puts right: "is actually March 15", "I'm actually at
#: Chalmers", "Oops actually My birthday …", "rent is 41,000 actually, …"; not a word of
#: emphasis ("the heater actually works", "is actually decent").
ACTUALLY_BESIDE = (
    r"(?:\bactually(?= (?:(?:at|in|on|from|the|an?) )?(?-i:[A-Z0-9£$€]))|"
    r"(?-i:\b[A-Z0-9][\w,.:]*) actually(?=[,.;!?]|$))"
)
#: "actually" that corrects: opening the claim ("Actually, it's 9"), or beside its value.
ACTUALLY = rf"(?:(?:^|(?<=[.!?,:;] ))actually\b|{ACTUALLY_BESIDE})"
#: Where a thing let fall or left goes, or dropped off: "… down the drain", "… in the car" (not
#: "in the end"), "… the kids off at school".
FELL_TO = r"(?:into|onto|down|off|out of|in the (?!end\b))\b"
#: Not a thing let fall or left somewhere, nor dropped off: "dropped my keys down the drain",
#: "left my wallet in the car", "dropping the kids off at school".
_LET_FALL = rf"(?! (?:my|the|their|his|her|our|a|an) (?:[\w-]+ ){{0,2}}?{FELL_TO})"
#: A thing that broke for good: not a breakdown, nor a break-up or a break-in ("the car broke
#: down on the motorway" is towed and mended).
BROKE = r"broke(?! (?:up|in|down)\b)"
#: A fall that finished a thing: "fell on the tiles and finished", "fell from the table and
#: the screen broke" (not "fell in the toilet and I fished it out").
FELL_FOR_GOOD = rf"fell\b[^.;!?]*?\band (?:the [a-z]+ )?(?:{BROKE}|finished|smashed|cracked|died)\b"
#: A thing gone for good: not a part of it failing ("the strap's gone on mine"), nor a price or
#: a light ("rent's gone up", "the power's gone out").
GONE = r"gone(?! (?:on|up|down|out)\b)"
#: A thing got beside the one a person has, not in its place: "so now I carry two", "to go
#: with my acoustic" (not "as well", which is as often "also": "got a new phone as well" is
#: news besides other news; nor "a second", as often a moment as a second one).
_ADDED = re.compile(
    r"\b(?:an extra|a spare|to go with|alongside|in addition to|"
    r"(?:carry|have|own|run|use) (?:two|both))\b",
    re.IGNORECASE,
)
#: The words that say a state changed (not what it is about: that is the embedder's).
_CUE = re.compile(
    # ("not now": a suggestion declined, nothing changed; nor a word inside a compound,
    # "code-switching", "brand-new")
    # (nor "New" inside a name, mid-sentence: "started at New Flyer", "moved to New Plymouth")
    # (nor changes as a noun, after its article: "a mess with all the changes")
    r"(?<![\w-])(?:(?<!\bnot )now|(?:(?<![\w,] )|(?!(?-i:New [A-Z])))new|newly|instead|switch(?:ed|ing)?|"
    r"chang(?:ed|ing)|(?<!\bthe )(?<!\bsome )(?<!\bfew )(?<!\bmany )(?<!\bthese )changes|replac(?:ed|ing)|"
    r"no longer|any ?more|from now on|these days|nowadays|moved|(?:moves?|moving|transferred)(?= to\b)|"
    # (a date it holds from: "800 pesos an hour as of this month", "$7.25 a dozen from today")
    # (or from the next occasion of it: "from the next market the mugs go for 1,100")
    r"as of (?:today|now|(?:this|next) \w+)|from (?:today|(?:this|next) (?:week|month|year))|"
    r"^from the next [a-z]+\b|"
    # (a state that started a moment ago: "on a Galaxy Tab S9 since this morning")
    rf"since (?:yesterday|this (?:morning|week)|last (?:night|week)|{WEEKDAYS})|"
    # (a change said in the present, of a thing to a new value: "we change football to
    # Thursday", "move the workshop to Pylaia", "raises the latte to 28k")
    # (signed up with a new one: "registered with Dr. Aydin", "enrolled at Hanze")
    r"(?:registered|enrolled|signed up) (?:with|at)(?= (?:the )?(?-i:[A-Z]))|"
    # (a transfer taken: "accepted the transfer and have been reporting in the District Court")
    r"(?:accepted|got|took) (?:the|a|my) transfer|"
    # (a first time with a new group or place: "first rehearsal with the Inntal Kantorei")
    r"first (?:rehearsal|class|session|training|practice|lesson|game|match|shift|day|week)s? "
    r"(?:with|at)(?= (?:the )?(?-i:[A-Z]))|"
    r"(?:change|changes|move|moves|shift|shifts|raise|raises)"
    r"(?= (?:(?:the|my|our|their|his|her|it|them) )?(?:[\w-]+ ){0,2}?(?:to|up to)\b)|"
    r"moving(?= (?:(?:the|my|our|their|his|her) )?(?!(?:back|out|away|over|home|abroad|house|down|up|in|on|to)\b)[a-z]+(?: [a-z]+)? to\b)|quit|"
    rf"(?:dropp(?:ed|ing)|left){_LET_FALL}|"
    rf"sold|gave (?:up|away)|got rid of|traded|swapped|upgraded|finally|correction|{CORRECT_WHAT}|"
    rf"{ACTUALLY}|"
    r"meant|renamed|rebranded|retitled|old one|previous|former|became|promoted|took over|shifted|"
    # (a date pushed, with what, to when: "pushed the Ghana Open to September"; not "pushed
    # it half way to the hotel")
    r"rescheduled|postponed|pushed (?:back )?to|"
    rf"pushed (?:back )?(?:the|my|our|their|it|them) (?:[\w-]+ ){{0,3}}?to(?= (?:{WEEKDAYS}|{MONTHS}|\d))|"
    r"brought forward|change of plans?|"
    r"(?:slight|small|quick|big|one) change|"
    r"(?<!\ba )(?<!\ban )retired|rais(?:ed|ing)|revised to|increas(?:ed|ing)|reduc(?:ed|ing)|lower(?:ed|ing)|(?:went|goes|gone|going) up|"
    # (an amount that moved: "the rent jumped to 95,000", "fell to 1,200")
    r"(?:jump(?:ed|s)?|rose|rises|climb(?:ed|s)?|f[ae]ll|falls) to(?= [^\w\s]?\d)|"
    # (or brought down: "knocked my 10k time down to 49:15", "got it down to 78 kg")
    r"down to(?= [^\w\s]?\d)|"
    # (a price one goes to, of a hundred or more: "I'll go to 4,000 from Monday")
    r"(?:go|going|gone|went) to(?= [^\w\s]?\d[\d,.]{2,})|"
    # ("the landlord bumped it to $1,325")
    r"bump(?:ed|s)?(?: (?:it|them|that|the \w+))?(?: up)? to(?= [^\w\s]?\d)|"
    r"put (?:[\w']+ ){1,3}up)\b|"
    # (a new one measured against the old: "the Janus doesn't stall like the old bike did")
    rf"{THAN_THE_OLD.pattern}",
    re.IGNORECASE,
)
#: A state of the past, over before now.
_OVER = re.compile(
    r"\b(?:lived|grew up|used to|was born|as a (?:kid|child|teen(?:ager)?)|years ago|"
    # ("My first car was an old Corsa", "my old flat in Didsbury was only 600"; "first car I
    # ever drove was his Suzuki", its "my" left out)
    r"(?:'s|\bmy|\btheir|\bhis|\bher|\bour) (?:first|old|previous|former) (?:[\w-]+ ){0,3}(?:was|were)|"
    r"^(?:the )?first (?:[\w-]+ ){1,4}(?:was|were)|"
    r"before (?:i|they|he|she|we|[A-Z][\w-]*) \w+ed|"
    r"until \d{4}|in the \w+ties|back then|when (?:i|they|he|she|(?-i:[A-Z])[\w-]*) was|"
    # (youth, its "I was" left out: "in Saigon I sold bánh mì on street when young")
    r"when (?:young|little|small|a (?:kid|child|student))|as (?:a )?student)\b",
    re.IGNORECASE,
)
#: Cues that also open news of a new thing ("our new menu"): a change only when the
#: sentence names its speaker.
_WEAK = re.compile(
    r"\b(?:new|newly|(?<!from )(?<!\bnot )now(?! on)|finally|actually)\b", re.IGNORECASE
)
#: Not (yet) the speaker's state: a plan, a wish, a hypothetical, a suggestion, a question.
_HEDGE = re.compile(
    r"\b(?:might|could|maybe|perhaps|(?:thinking|talk(?:s|ing)?) (?:about|of)|considering|if|should|"
    # (an idea of one, not a state: "I was thinking 85 soles")
    r"(?:was|were|am|'m|is|are|'re) (?:just |only )?thinking|"
    # (a doing thought of or wondered about: "sometimes I think about moving to Galway")
    r"think(?:s)? (?:about|of) [a-z]+ing|wonder(?:s|ed|ing)? (?:about|whether)|toying with|"
    # ("Hope" and "Will" that open a fact are names: "Will moved to Lisbon")
    r"someday|one day|wish|(?-i:hope)|dream(?:s|ing)? (?:about|of)|suggest(?:s|ed|ing)?|"
    r"recommend(?:s|ed|ing)?|advis(?:es|ed)|tempted|"
    # (an offer, not yet taken: "a guest offered me a job in his hotel")
    r"offer(?:s|ed)? (?:me|him|her|them|us|[A-Z][\w-]*) (?:an? |the )?(?:[\w-]+ )?"
    r"(?:job|role|position|post|contract)|"
    # (a change said not to happen: "we're not moving to Rabat", "not going anywhere")
    r"(?:not|n't|never) (?:be )?(?:moving|relocating|leaving|switching|going anywhere)|"
    # (a thing said to be as it was: "although my role is unchanged")
    # (or all the same, said first: "Same boats, new logo on my jacket", "Still living in
    # Helsinki.")
    r"unchanged|(?:is|are|stays|stay|remains|remain) the same|^same|^still)\b|\?",
    re.IGNORECASE,
)
#: The future or a wish, a plan unless it says what it replaces ("we'll be shut on Tuesdays
#: instead", "I'm going to be at Fjord from Monday" is decided).
_FUTURE = re.compile(
    r"\b(?:would|plan(?:s|ning)? to|want(?:s)? to|going to|(?-i:will))\b|'ll\b|"
    r"'d(?! (?:been|already|just|never|finally|[a-z]+ed)\b)",
    re.IGNORECASE,
)
_DECIDED = re.compile(
    r"\b(?:instead|from now on|from (?:next|this) \w+|starting (?:next|this|on) \w+|anymore|"
    # (what will be so now is so: "my supervisor will be Dr. Bakker now")
    r"(?:will|'ll) be [^,;!?]*\bnow|"
    # (or the day it starts: "I'll go to 4,000 from Monday", "starting March")
    rf"(?:from|starting) (?:{WEEKDAYS}|{MONTHS}|tomorrow))\b",
    re.IGNORECASE,
)


def _hedging(text: str) -> bool:
    return bool(_HEDGE.search(text) or (_FUTURE.search(text) and not _DECIDED.search(text)))


#: The change words that end a state ("quit Pixelworks"): what they name is the old value.
_ENDING = re.compile(
    # (not "quit scrolling", "sold Leo on the idea")
    # (one's notice, not one sent: "handed in my notice", not "school sent a notice")
    rf"\b(?:quit(?! [a-z]+ing\b)|left{_LET_FALL}|resigned|resignation|"
    r"(?:in|my|their|his|her|our|gave|given|giving|handed) notice|sold(?! [A-Z][\w-]* on\b)|"
    r"no longer|stopped|cancell?ed|let (?:(?-i:[A-Z])[\w-]* )?go|laid off|made redundant|(?:got|was|been) fired|"
    # (a course or a programme done: "finished the Excel course"; not "finished work at 6")
    r"(?:finished|completed) (?:all )?(?:the|my|their|his|her|our) (?:[\w-]+ ){0,2}"
    r"(?:course|class|classes|diploma|degree|certificate|programme|program|training|"
    r"apprenticeship|exams?)|"
    # (one thing swapped for another: "swapped the hiking for a cycling group")
    r"swapped(?= (?:the|my|their|his|her|our) [\w -]+ for\b)|"
    # (what is replaced by its name: "got a ThinkPad to replace the old Dell")
    r"replac(?:e|ed|es|ing)(?= (?:the |my |our |their )?(?:old )?(?-i:[A-Z])))\b",
    re.IGNORECASE,
)
#: A thing dead or wrecked as people say it: "the old ute finally carked it", "the truck's a
#: write-off".
_WRECKED = r"carked it|conked out|bit the dust|gave up the ghost|(?:is|'s|was) a write-?off"
#: A thing of the speaker's that ended: sold, given up, dead, gone, stolen, scrapped.
_GONE = re.compile(
    rf"\b(?:sold(?! [A-Z][\w-]* on\b)|nicked|pinched|gave (?:up|away)|gave (?:him|her|them|[A-Z][\w-]*) away|got rid of|(?<!\ba )(?<!\ban )retired|scrapped|died|buried|{GONE}|stolen|"
    # (or "die", as a past some write it: "our dog die on the weekend"; not "to die", "will die")
    r"(?<!\bto )(?<!\bwill )(?<!\bmight )(?<!\bcould )(?<!\bwould )(?<!\bmay )(?<!\bcan )die(?= on| last| yesterday| this)|"
    rf"{_WRECKED}|{BROKE}|{FELL_FOR_GOOD}|wrote off|rehomed?|went to live|stole|no more|(?:up )?for sale|(?:say|said|saying) goodbye to|"
    # (a pet of theirs taken in by others: "my foster cat got adopted"; not "we adopted a dog")
    r"(?:got|was|been|gets|is) adopted|"
    r"(?:is|are|was) over|ended(?! (?:the|a|an|up|with|our|my|their)\b)|packed in|"
    # (a make traded in for another: "traded in the Perodua and drove home a Proton X50")
    r"traded in(?= (?:the|my|our|their) (?-i:[A-Z]))|"
    # (a thing given up by its name, "dropped Babbel", not "dropped my phone")
    r"dropped(?= (?-i:[A-Z]))|dropped out|"
    r"passed(?! (?:the|my|his|her|their|an?|it)\b)|"
    # (a pet's life ended: "had to put our old dog to sleep"; not "put the kids to sleep")
    rf"put (?:[\w']+ ){{0,3}}?{PET.pattern}s? (?:down|to sleep))\b",
    re.IGNORECASE,
)


def wrecked(text: str) -> bool:
    """``text`` says a thing is dead or wrecked in the words people use ("carked it"): a thing
    had, not a state, ended."""
    return bool(re.search(rf"\b(?:{_WRECKED})\b", text, re.IGNORECASE))


def ending(text: str) -> bool:
    """``text`` ends a state of its speaker ("quit Pixelworks", "sold the Vespa")."""
    return bool(_ENDING.search(text)) and not _hedging(text)


def ended_at(text: str) -> int:
    """Where ``text`` says a state ended ("sold", "left", "is over"…): -1 if it does not."""
    found = [m.start() for m in (_ENDING.search(text), _GONE.search(text)) if m]
    return min(found) if found and not _hedging(text) else -1


#: Where what started follows what ended: "… and now they cook at …", "…, so now …".
_NOW_ON = re.compile(
    # (or a thing got in its place, its "I" left out: "sold the bike, got a Yamaha NMAX")
    r",? (?:and|so|but) (?:now|since)\b|, now\b|;|, (?:and )?(?:got|bought|picked up)\b"
)


def ended_clause(text: str) -> str:
    """The clause of ``text`` that says a state ended (``ended_at``), up to what started
    after it: "left the school kitchen" of "… and now they cook at Thalassa in Messini"."""
    at = ended_at(text)
    start = max([0, *(m.end() for m in _NOW_ON.finditer(text, 0, max(at, 0)))])
    end = m.start() if (m := _NOW_ON.search(text, max(at, 0))) else len(text)
    return text[start:end]


def gone(text: str) -> bool:
    """``text`` says a thing of its speaker's ended ("sold the Vespa", "our Sunday barbecues
    are over"): a value it names is the old one's, never a new value of its kind."""
    return bool(_GONE.search(text))


def hedged(text: str) -> bool:
    """``text`` says a plan, a wish, a hypothetical, a question or a past now over ("lived in
    Kharkiv until 2022"), not a state (in its first clause: "… a Fairphone, the audio
    should be better" is a state)."""
    # (after a word that only opens it: "Funny, ten years ago I was working the line at …")
    first, *rest = CLAUSE.split(text, maxsplit=1)
    first = rest[0] if rest and " " not in first.strip() else first
    return _hedging(first) or over(first)


def over(text: str) -> bool:
    """``text`` says a state that ended before it was said ("drove a truck in the nineties"):
    no later change or retraction ends it again. A past it is compared with is not its own
    ("my flat in Abuja is so quiet compared to where I lived before" is now)."""
    return bool(_OVER.search(_THING_ONCE.sub("", _COMPARED.sub("", text))))


#: A thing said by what was once done with it, to the end of its clause: a past of the thing,
#: not of the state ("gone off the caffeine stuff I used to drink by the litre" is now).
_THING_ONCE = re.compile(
    r"\b(?:the|those|that|my|our|their) (?:(?!(?:and|or)\b)[a-z-]+ ){1,3}(?:that |which )?"
    r"(?:I|we|they|he|she) used to\b[^,;:.!?]*"
)
#: A comparison with a place or thing, to the end of its clause: what it measures the state
#: against ("than where I lived before"; not a time, "easier now than ten years ago").
_COMPARED = re.compile(
    r"\b(?:compared (?:to|with)|than) (?:where|what|the) [^,;:.!?]*", re.IGNORECASE
)


def signalled(text: str) -> bool:
    """``text`` says a state of its own speaker changed (and is no plan or question): a wish
    in a clause after the change is not of it ("Capucine dropped the conservatoire, she wants
    to play drums")."""
    cue = _CUE.search(text) or _GONE.search(text) or _ENDING.search(text)
    if not cue:
        return False
    later = next((m.start() for m in CLAUSE.finditer(text) if m.start() > cue.end()), len(text))
    return not _hedging(text[:later])


def added(text: str) -> bool:
    """``text`` says a thing was got beside one of its kind, not in its place."""
    return bool(_ADDED.search(text))


def weakly(text: str) -> bool:
    """``text`` is signalled by a weak cue alone ("new", "now", "finally"), which also opens
    news of a new thing ("our new menu")."""
    return not _CUE.search(_WEAK.sub(" ", text)) and not _GONE.search(text)


def without_cues(text: str) -> str:
    """``text`` less the words that say it changed: what it is about."""
    return _GONE.sub(" ", _CUE.sub(" ", text))
