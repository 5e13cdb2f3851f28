"""What a fact is about: its subject and, where a rule can tell, its attribute.

"Carl lives in Porto" is about Carl's home; "Carl works at Acme" about his work; "Carl's
sister lives in Paris" about his sister's home, someone else. A newer fact with a key
(subject, attribute) an older one has replaces it (``truth.merge``). The table is small and
plain English: a word that names the attribute (``lives``, ``moved``, ``girlfriend``,
``van``) and, for the value, the first name-like phrase after it. Pets are keyed by their
name (two pets are two facts); a preference by what it is about (``drink``: coffee, tea;
``diet``); "X's birthday is …" by its noun. A fact no rule recognises has no key and is
never superseded, only retracted or corrected.

The subject is the person the words before the attribute's word name (``subjects.subject``);
an empty one (a sentence naming nobody: the speaker, in a scope of one person) matches any.
"""

from __future__ import annotations

import functools
import re
from typing import NamedTuple

from .modifiers import is_modifier
from .subjects import holder, subject
from .words import (
    DOER,
    HOME_TAKEN,
    HOMES,
    MONTHS,
    PET,
    PREMISES,
    RELATIVE,
    RELATIVES,
    UPPER,
    WEEKDAYS,
    WHEN,
    WORKPLACE,
    WORKPLACES,
    says_there,
)

__all__ = [
    "PATRONS",
    "PET",
    "ROLES",
    "TEAM",
    "THINGS",
    "Key",
    "held_by_another",
    "keys",
    "with_no_love",
]


#: When or how someone works, between "works" and where: "nights", "shifts", "remote now".
_WHEN_WORKED = (
    r"(?:remote(?:ly)? |part[- ]time |full[- ]time |(?:nights|days|weekends|evenings) |"
    r"(?:(?:weekend|night|day|early|late|evening|morning|double) )?shifts )?(?:now )?"
)
#: A stay somewhere, said after where: "here in Rome for the weekend", "… until Sunday".
_NOT_A_STAY = (
    r"(?!.*\b(?:for (?:(?:the|a|an) (?:(?:whole|next|coming) )?"
    r"(?:week|weekend|day|night|month|summer|winter|holidays?|festival|conference|wedding)s?|"
    # (till they find a home is no trip: "in an airbnb room in Harehills till I find something")
    r"two|three|\d+)|this (?:week|weekend)|(?:until|till)(?! (?:I|we|they|he|she) find\b)|"
    r"visiting|holiday|vacation|trip|conference)\b)"
)
#: Whom a time or plan suits, after "works for": no employer.
_SUITED = "everyone|everybody|all|both|me|us|them|you|him|her"
#: What one is moved to at work, not a home: "moved to a new account", "to the night team",
#: "to the Arcobaleno school".
_POSTS = (
    rf"{WORKPLACES}|account|team|project|department|role|position|post|shift|class|group|"
    "ward|branch|desk|route|contract|programme|program|course|"
    "club|gym|choir|church|band|squad|league|crew|lab|office"  # (or a club they belong to)
)
#: The trades a role is most often said by.
ROLES = (
    "teacher|nurse|engineer|developer|designer|manager|pharmacist|translator|doctor|lawyer|"
    "accountant|chef|writer|programmer|consultant|analyst|scientist|architect|researcher|"
    "officer|assistant"
)
#: Who goes to a place without holding a post there: "a member at David Lloyd", "a regular
#: at the Crown".
PATRONS = "member|regular|customer|client|patient|guest|fan"
#: The ways a day's trip to work or school is said: "the walk to …", "cycle in from …".
_TRIP = "walk|cycle|bike|ride|drive|bus"
#: Whom someone is with now, by name: a partner beside a word of a relationship only
#: (``with_no_love``).
_WITH_NOW = rf"(?:'m|\bam|\bis) with [{UPPER}][\w-]*(?= now\b)"


class Key(NamedTuple):
    """One thing a fact says: whose (``subject``), what (``attribute``), and the value's span."""

    subject: str
    attribute: str
    value: str


#: What one belongs to, not works for: "quit the rowing club", "joined Ledgehouse, a climbing gym".
_GROUPS = "club|team|choir|band|group|class|course|gym|league"
#: The nouns of a job itself, not of where it is done: "quit my job", "quit the post".
_JOB = "job|post|position|role|work|company|firm|employer|career"
#: A team by its plural name, as teams are named: "the Southside Stingers", "the Kaleva Bears".
TEAM = r"the (?:[A-Z][\w'-]* )*[A-Z][\w'-]*[a-z]s\b(?! [A-Z])"
#: A group joined, by its name and kind: "joined Ledgehouse, a climbing gym" (no employer).
_JOINED_A_GROUP = re.compile(
    rf"\bjoin(?:s|ed|ing)? (?:the )?[A-Z][\w'-]*(?: [A-Z][\w'-]*)*,? (?:an? |the )?"
    # (whose it is too: "joined Naiskoor Lumi, a women's choir")
    rf"(?:[\w'-]+ ){{0,2}}(?:{_GROUPS})\b|"
    # (or a team, by its plural name: "joined the Southside Stingers")
    rf"\bjoin(?:s|ed|ing)? {TEAM}"
)

_TABLE: list[tuple[str, str]] = [
    (
        "residence",
        # (the verb, not "a live episode": where, or how, they live)
        # (or out, up or down there: "lives out in Midleton")
        r"\b(?:(?:lives?|living|lived)(?= (?:(?:out|up|down|over|back) (?=in|near|by))?(?:in|at|on|near|by|here|there|alone|together|"
        r"abroad|downtown|just|right|close|next|across|outside|upstairs|nearby)\b)|"
        # (with whom, and where: "still lives with my parents in Florești"; not a pet gone
        # "to live with my nephew in Tavira")
        r"(?:lives|living)(?= with (?:[\w'-]+ ){1,3}?(?:in|near|outside) (?-i:[A-Z]))|"
        # (where they stay, as many say where they live: "stays in the staff quarters in Deira")
        # (or shifted, as many say it: "We've shifted to Bengaluru this week")
        # (the move by its noun, where it goes: "made the move to Kobe"; not "to fund the move")
        r"\bstays?(?= in\b| at (?-i:[A-Z]))|(?:the|our|my|their|a) move(?= (?:to|from|back)\b)|"
        # (or a stay that is their home till they find one: "staying at a hostel in El Arenal
        # for now", "still staying with a friend in Fort Garry", "staying with Osman's uncle in
        # Farwaniya until they find a flat"; not a trip's, "staying in Rome this week")
        r"\bstaying(?= (?:at|on|with|in) [^,.;]*?\bin (?-i:[A-Z]))"
        r"(?=[^.;]*?\b(?:for now|(?:until|till) (?:I|we|they|he|she) (?:find|get)))|"
        r"(?<=\bstill )staying(?= (?:at|on|with|in) [^,.;]*?\bin (?-i:[A-Z]))|"
        # (or a lease signed there: "signed a lease in Transcona", "a real lease in Rosemont")
        r"\bsigned (?:a|the|our|my|their) (?:new |real |proper )?lease(?= in (?-i:[A-Z]))|"
        r"(?:(?<!the )(?<!our )(?<!my )(?<!their )(?<!\ba )move|moved|moving|relocat(?:e|ed|es|ing)|"
        r"shifted(?= to\b))"
        r"(?! (?:to )?(?:an? )?(?:new )?(?:company|companies|employers?|jobs?|firms?)\b)"
        rf"(?! to (?:an?|the|another) (?:[a-z-]+ )?(?:(?-i:[A-Z])[\w'-]* ){{0,3}}(?:{_POSTS})s?\b)"
        # (a business's premises, not a home: "moved from the stall to a small shop in Ngara")
        rf"(?!(?: from [\w ]{{1,30}}?)? to (?:an?|the|our|my|their) (?:[\w-]+ )?(?:{PREMISES})\b)"
        r"(?! (?:the|my|our|their|his|"
        # (someone moved, not the subject: "they moved Eilidh to the Monday group")
        r"her|its?|them|him|everything|a|an|[\w-]+'s|(?-i:[A-Z])[\w-]* (?:to|from|into|onto|up|down))\b)|based|resides?|settled|flat|apartment|hometown|"
        # (where they are: "in the new place"; not what it costs, "the rent on the new place")
        rf"unpacked|(?:in|into|to|at) (?:our|my|their|his|her|the|a) new (?:house|home|place|kitchen)|"
        # (or their address, as it is often spelt too: "new adress: Kadıköy, Moda side")
        r"(?:^|\b(?:my|our|the) |'s )(?:new )?(?:home )?add?ress(?=:| is\b| now\b)|"
        # (or where they pay rent: "rent in Talisay 5k", "our rent in Leeds is 1350")
        r"\brent (?:in|at) (?=(?-i:[A-Z]))|"
        # (where they are in passing, "our group here in Socorro"; not "here in Rome for a week")
        # (a stay's length, not what for: "for the weekend", not "for the coast road")
        rf"\bhere in (?=(?-i:[A-Z])){_NOT_A_STAY}|"
        # (a new home said where it is: "the new apartment in Suita is bigger"; or their home, "a
        # five-minute drive from our place in Highlands") (the article left out too: "New flat in
        # Leith is tiny") (or whose, and where it is up or down: "Ana's new flat in São Vicente",
        # "our new place is up in Varoš")
        rf"(?:^|\b(?:the|our|my|their) |'s )new {HOMES}"
        rf"(?= (?:is (?:up |down |out )?)?in [{UPPER}])|"
        rf"(?:\b(?:our|my|their)|'s) (?:dorm |shared |rented |student )?{HOMES}(?= in (?-i:[A-Z]))|"
        # (or the home they rent or share: "I rent a one-bedroom in Stone Oak"; no trip's car)
        # (or from whom: "rents a room from Don Vicente in Benimaclet")
        rf"\b(?:rent(?:s|ing|ed)?|shar(?:e|es|ed|ing)) (?:an?|the) (?:[\w-]+ )?{HOMES}"
        r"(?= (?:from (?:(?-i:[A-Z])[\w-]* ){1,3})?in (?-i:[A-Z]))|"
        # (a move in the English of South Asia: "we shifted to Johar Town"; not "to Tuesdays")
        # (or to a home there: "shifted to a ground floor independent house in HSR Layout")
        # (or to someone's: "shifted to my in-laws' place in Aundh", where, not whose)
        rf"shift(?:ed|ing)(?= (?:to|into) (?:(?:an?|the|our|my|their|[\w-]+'s) (?:[\w'-]+ ){{0,3}}?"
        rf"{HOMES} in )?(?!(?i:{WEEKDAYS}|{MONTHS})\b)(?-i:[A-Z])(?![\w-]*'s\b))|"
        # (somewhere now: "we're in Lautoka now", "is in Porto at the moment"; not "in Sydney
        # this weekend")
        r"(?:'re|'m|\bare|\bam|\bis) in (?=(?-i:[A-Z])[\w-]*(?: (?-i:[A-Z])[\w-]*)* (?:now|at the moment)\b)|"
        # (or still there, until a move: "Can is still in Istanbul")
        r"(?:'re|'m|\bare|\bam|\bis) still (?:in|based in|living in) (?=(?-i:[A-Z]))|"
        # (or at a place of theirs there for good: "I'm at the farm in Dalcahue full-time")
        # (a home, or a farm: not "at the office in Castro now")
        # (or in a home of theirs there: "we're in a little house in Altrincham now")
        rf"(?:'re|'m|\bare|\bam|\bis) in (?:an?|the|our|my|their) (?:[\w-]+ ){{0,2}}?{HOMES} "
        rf"in (?=(?-i:[A-Z])){_NOT_A_STAY}|"
        rf"(?:'re|'m|\bare|\bam|\bis) at (?:the|our|my|their) (?:{HOMES}|farm|ranch|village) in "
        r"(?=(?-i:[A-Z])[\w-]*(?: (?-i:[A-Z])[\w-]*)* (?:full-time|for good|now)\b)|"
        # (or where they are up, out or down: "We're up in Joondalup"; not a stay, "while I'm
        # up in Edinburgh")
        r"(?<!while I)(?<!while we)(?<!while they)(?<!when I)(?<!when we)(?<!when they)"
        r"(?:'re|'m|\bare|\bam) (?:up|out|down) in (?=(?-i:[A-Z]))|"
        # (where the day's trip to work starts: "the commute from Uttara", "the walk to school
        # from Annandale", "bike from Sydenham to work"; not a trip's drive, "the drive from Cairns")
        rf"\bcommut(?:e|es|ing)(?: in)?(?= from (?-i:[A-Z]))|(?:{_TRIP})s? "
        r"(?:(?:in|to (?:work|school|uni|the (?:office|hospital|station|depot)))(?= from (?-i:[A-Z]))|"
        r"(?=from (?-i:[A-Z])[\w'-]*(?: (?-i:[A-Z])[\w'-]*)* to (?:work|school|uni)\b))|"
        rf"{HOME_TAKEN})\b",
    ),
    (  # who employs them: a new employer keeps the trade ("is a designer … works at Acme")
        "work",
        # (the verb, not the noun of a day's work: "finished work at 6", "after work at the gym")
        r"\b(?:(?<!\bfinished )(?<!\bafter )(?<!\bbefore )(?<!\bfrom )(?<!\boff )(?<!\bto )"
        # (and when: "works nights at Skyhaven", "work weekends at the i-SITE", "works weekend
        # shifts at a Żabka"; or the shifts alone, not extra ones, "shifts at Blue Heron end at 2")
        # (not what suits: "Wednesday works for everyone", "that works for me")
        rf"works? {_WHEN_WORKED}(?:at|for(?! (?:{_SUITED})\b)|in)\b|working {_WHEN_WORKED}(?:at|for)\b|"
        r"(?<!extra )(?<!volunteer )shifts? at (?:the )?(?-i:[A-Z])|"
        # (or a part of a workplace they are on: "on the surgical ward at Derwent Private")
        r"(?:'m|\bam|\bis) on the (?:[\w-]+ ){0,2}(?:ward|unit|team|desk|line) at (?:the )?(?-i:[A-Z])|"
        # (and what there: "works the front desk at Eko Palms", "working the bar at Lola's")
        r"work(?:s|ing)? (?:the|a) (?-i:[a-z])[\w-]*(?: (?-i:[a-z])[\w-]*)? (?:at|for) (?:the )?(?-i:[A-Z])|"
        # (a past one is no claim: "the old laptop went back to my previous employer")
        r"job (?:at|with|in)\b|(?<!\bprevious )(?<!\bformer )(?<!\bold )employer|employed|"
        # (or on leave from it: "on maternity leave from Iberdrola")
        r"on (?:[\w-]+ )?leave from (?:the )?(?-i:[A-Z])|"
        # (or where they were sent to work, by a name of two words or more: "transferred to
        # Vicente Sotto Memorial"; not a part of the same employer, "transferred to Cedar ward",
        # "to the Leeds branch", "to Oncology")
        r"transferred to (?:the )?(?=(?-i:[A-Z])[\w'-]*(?: (?-i:[A-Z])[\w'-]*)+"
        r"(?![\w'-])(?! (?:ward|unit|department|team|branch|depot|site|station|office)\b))|"
        # (or where the day's trip goes, a workplace by its name: "the walk to Hillside Academy")
        rf"(?P<trip>\b(?:{_TRIP}|commute)s? (?:in )?to (?:the )?"
        rf"(?=(?-i:[A-Z])[\w'-]*(?: (?-i:[A-Z])[\w'-]*)* {WORKPLACE}\b))|"
        # (a role at a name, said as theirs now: "to become finance manager at SunKiosk", "now
        # backend lead at Tessa AI"; not one who goes there, "a member at David Lloyd", nor a doing,
        # "staying at Leo's", "doing German at A2 level", "meets at Café Weidinger") (a role's
        # words, not a clause's: "the old one is far now - they are at Fit Zone")
        r"(?:become|becoming|became|been|now(?! (?:[A-Z][\w-]* )?[a-z]+s at\b)|as|I'm|am|is) (?:an? |the )?(?:new )?"
        r"(?:(?!(?:they|we|he|she|are|is|was|were|doing|taking|learning|studying|attending|playing)\b)"
        r"[^\W_][\w-]* ){0,2}"
        rf"(?!(?:{PATRONS}|student)s? )"
        # (nor where one is away: "is out at Swakopmund for fieldwork", "was back at Hanna's")
        r"(?!(?:are|is|was|were|out|away|back|over|off|up|down|home)\b)[^\W_][\w-]*(?<!ing)(?<!ed) "
        r"at (?:the )?(?-i:[A-Z])|"
        # (an employer changed by its kind: "moved to a new company, Gobi Cashmere", "changed
        # company!")
        r"(?P<changed>(?:moved|switched|changed|went) (?:to )?(?:a |my |their )?(?:new )?"
        r"(?:company|companies|employer|employers|job|jobs|firm|firms))\b|"
        # (a firm of two names or more they have been with for a time: "been with Plomberie
        # Gagnon 8 years"; one name is a person, "been with Sarah 8 years")
        r"been with (?:the )?(?-i:[A-Z])[\w&'-]*(?: (?-i:[A-Z])[\w&'-]*)+ (?:for )?\d+\+? "
        r"(?:years?|yrs?|months?)\b|"
        # (whom they work with, by name: "works with Blue Poppy Treks"; or for, as a trade,
        # "is a courier driver for Mainfreight")
        r"works? with (?-i:[A-Z])|(?:'m|\bam|\bis) an? (?:[a-z-]+ ){1,2}for "
        rf"(?!(?:{RELATIVES})\b)(?-i:[A-Z])[\w-]*(?!'s)|"
        # ("transferred" only to a named place, above: a ward or a branch is the same employer's)
        # (a job quit, "quit the paper", not a habit, a sport or a membership: "quit the rowing club")
        r"hired|notice|resignation|resigned|"
        # (a job lost: "got laid off", "was made redundant", "laid off half of us, me included")
        r"(?:got|was|were|been|being) (?:laid off|made redundant|let go|sacked)\b|"
        r"laid off\b(?=[^.;!?]*\b(?:them|me|us) included\b)|"
        # (a thing quit by its noun is a job by a job's noun; another, "quit the martial art",
        # "quit the production house", is the line nearest it: change.py)
        rf"quit\b(?= (?:my|their|his|her|the|this) (?:[\w-]+ ){{0,2}}?(?:{_JOB})\b| (?-i:[A-Z])|[.!,]|$)|"
        r"(?:left|lost) (?:my|their|his|her|the) (?:[\w-]+ )?job\b|"
        # (starting "as a sound engineer at Tengri"; joining or signing with a name, not "a gym")
        rf"start(?:s|ed|ing)? (?:(?:on |this |next )?(?:today|tomorrow|{WEEKDAYS}) )?"
        # (not when: "I start at 7am", "start at half six")
        r"(?:as (?:an? )?(?:[\w-]+ ){1,3})?at(?! (?:\d|(?:half|quarter|noon|midday|midnight)\b))|"
        # (not the speaker's household joined: "a second cat has joined Mahsa and others")
        r"(?:join(?:s|ed|ing)?(?! (?-i:[A-Z])[\w-]* and others\b)|signed (?:on )?with|"
        r"(?:accepted|took|got|landed) (?:an? |the )?(?:job |new )?(?:offer|position|job|role|post)"
        # (and what as: "got an offer to be head baker at Pan no Mori")
        r"(?: to be (?:an? |the )?[\w-]+(?: [\w-]+){0,2}?)?(?: too)?,? (?:from|at|with)) (?:the )?(?-i:[A-Z])[\w-]*|"
        # (a trade done for a named employer: "drives a Kenworth for Maplewood Freight")
        r"(?:drives?|driving|drove|hauls?|hauling|delivers?|delivering|writes?|writing|"
        # (or at one, by the hours: "drives a forklift nights at Buckeye Logistics")
        r"freelances?|freelancing) (?:[\w-]+ ){0,3}?(?:for|(?:nights|days|weekends) at) "
        r"(?-i:[A-Z])[\w-]*|"
        r"teach(?:es|ing)? (?:[\w-]+ ){0,5}?at (?:the )?(?-i:[A-Z])[\w-]*|"
        # (their own employer now: "gone out on my own", "opening my own shop, Sankofa")
        r"(?:go(?:ing|ne|es)?|went|set(?:ting|s)? up|struck|striking) (?:out )?on (?:my|their|his|her) own|"
        r"(?:is|am|'m) out on (?:my|their|his|her) own|"
        r"(?:my|their|his|her|our) own boss|"
        r"(?:my|their|his|her|our) own (?:[\w-]+ ){0,2}(?:business|company|shop|firm|practice|studio|"
        r"clinic|agency|label)\b|"
        # (whatever it is: "opened their own pharmacy", "started my own bakery")
        r"(?:open|start|launch|found)(?:s|ed|ing)? (?:up )?(?:my|their|his|her|our) own\b|"
        # (and how many: "First three days with Naia Charters")
        r"(?:first|last|final) (?:(?:two|three|four|five|few|couple of) )?"
        r"(?:days?|weeks?|months?|shifts?|service) (?:at|with|there|in that)\b|"
        # (moved to a workplace, by its kind: "moved to Hospital San Javier"; "the service
        # transferred me to Adisadel College")
        r"(?:moved|transferred|switched|posted)(?: (?:me|him|her|them|(?-i:[A-Z])[\w-]*))? "
        rf"to (?:the )?(?=(?:(?-i:[A-Z])[\w'-]* ){{1,3}}(?:{WORKPLACE}|(?-i:{WORKPLACES}))\b|"
        rf"{WORKPLACE} (?-i:[A-Z]))|"
        # (taken on by a name: "got accepted at the Philippine Heart Center")
        # (or selected: "I've been selected at Bannerghatta Biological Park")
        r"(?:got|been|was) (?:accepted|selected) (?:at|by) (?:the )?(?=(?-i:[A-Z]))|"
        # (paid by them: "first payslip from Kopje Systems landed today")
        r"(?:first|last|final) (?:payslip|paycheck|paycheque|pay cheque|salary) from (?-i:[A-Z])|"
        # (the noun left out: "this week was my first at Nofima")
        r"(?:my|their|his|her|'s) (?:first|last) at (?-i:[A-Z]))",
    ),
    (
        "trade",
        # (a promotion got, not one a thing came with: "the day rotation that came with the
        # promotion")
        r"\b(?:works?(?: nights| days| weekends| (?:[\w-]+ ){1,2}(?:days|nights|shifts) a week)? as|"
        r"working as|job as|promoted|(?:hired|taken on) as|"
        r"promotion to|(?:got|earned|landed|accepted|took) "
        r"(?:the |a |my |their )?promotion|(?:re)?trained as|qualified as|confirmed as|"
        # (a role held by its name: "my title is Customer Care Consultant")
        r"(?:title|role|position) is)\b|"
        # (a role given by its name: "they made Hana QA lead")
        r"\bmade (?:me|him|her|them|[A-Z][\w-]*) (?:an? |the )?(?-i:[A-Z])[\w-]*\b|"
        # ("they made me operations manager": a role given is a trade held)
        # (and how: "is officially a lawyer now")
        r"\b(?:(?:is|am|'m) (?:(?:now|officially|finally) )?an?|become|became|becoming|"
        r"made (?:me|him|her|them|[A-Z][\w-]*)(?: an?| the)?) "
        rf"(?:[\w-]+ ){{0,3}}?(?:{ROLES}|student)\b|"
        # (with no article, as many write it: "I'm sous chef at Coral Cove", "is head nurse")
        # (not another's, said in the line: "… with their wife Inês, she is teacher of history")
        r"(?<!\bshe )(?<!\bhe )\b(?:is|am|'m) (?:(?!(?:the|my|his|her|their|our|your|not)\b)[\w-]+(?<!ing) )?"
        rf"(?:{ROLES})\b",
    ),
    (
        "partner",
        # (not a partner in a game or work: "doubles partner", "business partner")
        r"\b(?:girlfriend|boyfriend|gf|bf|(?<!doubles )(?<!business )(?<!training )(?<!dance )"
        r"(?<!sparring )partner|wife|husband|fianc[eé]e?|spouse|(?:re)?married|engaged|"
        r"dating|seeing someone|proposed|lady friend|gentleman friend|"
        # (a name said with it: "been seeing Anne", "seeing Marcus now"; not "seeing Dr. Ito")
        rf"(?:been|started) seeing [{UPPER}][\w-]*|seeing [{UPPER}][\w-]* (?:now|these days)|"
        # (or who they are with now: "I'm with Tove now"; not where, "with Ana at the market")
        rf"{_WITH_NOW}|"
        # (a couple said as one subject: "Brenda and I have been together a month now")
        r"(?:have been|are|got) (?:together|seeing each other)|been seeing each other|"
        # (someone of no relation who moved in with them: "Sofia … she moved in with me")
        r"moved in with (?:me|them|us))\b",
    ),
    (
        "phone",
        r"\b(?:phone|smartphone|iphone|pixel|galaxy|nokia|fairphone|motorola|xiaomi|oneplus)\b|"
        # (or its number, taken to another network: "moved my number to STC")
        r"\b(?:changed|moved|switched|ported|took) (?:my|their|his|her|our) number"
        r"(?= (?:over )?to (?-i:[A-Z]))",
    ),
    (
        "car",
        # (a make, not a person of its name: "Mercedes is 42", "Mercedes's class")
        r"\b(?:car|van|truck|suv|motorbike)\b|(?<=\S )(?:toyota|honda|ford|volkswagen|vw|skoda|volvo|"
        r"bmw|audi|tesla|renault|fiat|tata|kia|hyundai|nissan|peugeot|mazda|subaru|citroen|opel|"
        r"mercedes|dacia|jeep|chevrolet)\b(?!'s)|"
        # (any make, by the verb: "drive a little Suzuki Swift", "drive Avante, very old"; not
        # where, "drive the kids to Leeds", nor once, "drove a Polestar on a test drive")
        r"\b(?:drives?|driving) (?:(?:an?|the|my|our|their|his|her) "
        rf"(?:(?!(?:to|for|in|at|from|with|on|into|past|by|around|back|home)\b)(?-i:[a-z0-9])[\w-]* ){{0,2}}"
        rf"(?=(?-i:[{UPPER}]))|(?=(?-i:[{UPPER}])[\w-]+(?: [\w-]+)?(?:,|$)))",
    ),
    (
        "diet",
        # (not what a place is, the way after "a" or "the" naming a noun: "a plant-based food
        # company", "the vegan café"; but "a vegetarian since May", "the keto diet")
        r"(?:(?<!\ba )(?<!\ban )(?<!\bthe )|(?=[\w-]+(?![\w-])(?: diet)?(?! (?!(?:since|for|now|and|but|"
        r"so|too|again|like|who|because|at|in|on)\b)[a-z])))"
        r"\b(?:vegetarian|vegan|pescatarian|carnivore|keto|diet|low-carb|paleo|plant-based|"
        # (a way of eating said by what it is: "intermittent fasting", "eating Mediterranean")
        r"intermittent fasting|(?:eat(?:s|ing)?|doing|on) (?:the )?mediterranean|"
        r"eat(?:s|ing)? (?:meat|fish|chicken)|eat(?:s|ing)? (?:[\w-]+ ){1,3}again|"
        # (or a meal of it again: "having paratha for breakfast again")
        r"(?:eat(?:s|ing)?|ha(?:s|ve|ving)) (?:[\w-]+ ){1,2}for (?:breakfast|lunch|dinner) again)\b",
    ),
    # what they drink, not a business that sells it ("a bubble tea shop")
    # (the drink itself is the value; "Qingshan Tea" is a name)
    (
        "drink",
        r"\b(?-i:coffee|tea|caffeine|espresso|decaf|rooibos|matcha)\b(?! (?:shop|house|bar))",
    ),
    (
        "age",
        r"\b(?:\d{1,3} years? old|age is|aged|turned \d|turning \d|here, \d{1,3}\b)|"
        # (a person's number said alone: "Maya is 31.", "can't believe they're 32")
        r"(?:(?<=\w )is|'re|'m) (?:now |finally |almost )?\d{1,3}(?![.,]\d)(?=[.!?,;]|$| now\b)",
    ),
]

_ATTRIBUTES = [(name, re.compile(pattern, re.IGNORECASE)) for name, pattern in _TABLE]
#: Things one has one of, told apart by their make (or drink): a new one is named or said
#: to be new (``truth``).
THINGS = frozenset(["phone", "car", "drink"])
#: Words of a relationship, beside "I'm with Tove now": what makes a name a partner.
_LOVE = re.compile(
    r"\b(?:ended|over|split|broke up|single|new start|relationship|dating|in love|ex)\b", re.I
)
#: A job for a while only: "for June", "for the summer", "for 4 weeks".
_STINT = re.compile(
    rf"[^.;]*? for (?:the )?(?:(?:{MONTHS})\b|(?:summer|winter)\b|"
    r"(?:a|\d+|two|three|four) (?:weeks?|months?)\b)",
    re.IGNORECASE,
)
#: Someone of someone's by their trade, opening a fact: "Ximena's head chef …", or by any
#: doer's word of no family, unnamed: "Arjun's head baker has left for a job in Dubai".
_ROLE_OF = re.compile(
    rf"^(?P<who>[{UPPER}][\w-]*)'s (?P<role>(?:[a-z-]+ ){{0,2}}(?:{ROLES}|"
    rf"(?!(?:{RELATIVES})\b){DOER}\b(?! [{UPPER}])))\b"
)
#: Whose "here" a sentence says, by the name of theirs it opens with: "Most of Andreas's
#: customers are here in Paphos".
_WHOSE_HERE = re.compile(rf"^(?:[\w ]+ of )?([{UPPER}][\w-]*)'s ")
#: A part of a workplace after its name: "Cedar ward", "Queensferry station".
_A_UNIT = re.compile(r" (?:ward|unit|department|team|branch|depot|site|station)\b")
#: A thing used for a while, not one's own: "drove a rental Kia", "driving a borrowed van".
_NOT_OWNED = re.compile(
    r"\b(?:rental|rented|hired|hire|borrowed|loaner|loan|courtesy|test)(?: [\w-]+)?(?: [\w-]+)? ?$",
    re.IGNORECASE,
)
#: A person's age said plainly: "Maya is 31.", "Maya is 31 and …" (not "is 82 kilos").
_AGE = re.compile(
    r"^(?:the user|[A-Z][\w'-]*) (?:is|am) (?:actually |now |just )?\d{1,3}"
    r"(?:(?=[.!?,;:]|$)| (?=(?:years?|yrs?|now|and|but|so|as|today|already|next|this|too|again)\b))"
)
_PET_NAME = re.compile(r",? (?P<name>[A-Z][\w'-]*)")
#: "Carl's birthday is …", "Carl's phone number is …": keyed by the possessed noun.
_OWNED = re.compile(r"^(?P<who>[\w' ]+?)'s (?P<noun>[a-z][\w ]{0,30}?) (?:is|was|are)\b")
#: A thing of theirs the speaker changed whole: "Piotr is switching the thesis to vision".
_SWITCHED = re.compile(
    r"^(?P<who>[\w' ]+?) (?:is |are |has |have )?(?:just )?(?:switch|chang|shift)(?:ed|es|e|ing)? "
    r"(?:the|their|his|her) (?P<noun>[a-z]{3,}) (?:over )?to\b"
)
#: (a make written with a small i too: "iPhone 12")
# (with a capital of any Latin alphabet: "Łódź", "Ørsta", "Évora")
#: (a saint's or a mount's name is one: "St. Luke's", "Mt. Kenya Safaris")
_NAME = re.compile(rf"\b(?:(?:St|Mt)\. |[{UPPER}]|i[A-Z])[\w'-]*(?: [{UPPER}0-9][\w'-]*)*")
_NAME_ALONE = re.compile(rf"[{UPPER}][\w'-]*(?: [{UPPER}][\w'-]*)*(?=(?: now)?(?:[,.;!]|$))")
_NAMED = re.compile(
    r"\b(?:called|named|codenamed|calling (?:him|her|it|them)|name is|name:)\s+"
    rf"(?P<name>[{UPPER}][\w'-]*(?: [{UPPER}0-9][\w'-]*)*)"
)
#: The words before a name that say where, what for or whose ("for its MOT", "of Miso").
_WHERE_OR_WHOSE = re.compile(
    r"\b(?:in|at|from|to|near|outside|with|for|by|of|its|his|her|their|our)(?: the)? $", re.I
)
_CLAUSE_END = re.compile(r"[,;]\s|\s(?:so|but|because)\s")
#: A clause that opens with a thing ("The studio …", "our office …"), not a person.
_A_THING = re.compile(
    # (or a being of someone's, "Ruth's collie has gone to live on a farm", with its "'s", "the
    # cat's moved in with my parents", with two words before its noun, "my old retainer client
    # moved to Shopify", or all of them, "all the fruit stalls move to Mercado Wanchaq")
    r"(?:^|[,;:]\s+|\b(?:and|so|but)\s+)(?:(?:all|both) )?(?:the|our|my|their|his|her|its|"
    r"(?-i:[A-Z])[\w-]*'s) "
    rf"(?!(?:user|family|household|{RELATIVES})s?\b)[^\W\d_]+(?:'s)?"  # (of any letters: "the peña")
    r"(?: (?!(?:are|is|was|were|has|have|had|been|finally|just|now|all|still|also)\b)[^\W\d_]+){0,2} "
    # (and when: "the dog now lives with my mother")
    r"(?:(?:now|still|also|just|finally) )?(?:(?:has|have|had|is|was) )?(?:gone to |come to )?$",
    re.IGNORECASE,
)
#: A noun said just before what it is: "a startup based in …".
_A_NOUN = re.compile(r"\b(?:an?|the) (?:[\w-]+ ){0,2}[a-z]+ $")
_AGE_TO_COME = re.compile(r"\b(?:before|until|till|when|once|if|by the time) \S+ ?$")
#: A thing given a name of its own: "named the car 'Ryzhyk'" is no new car.
_NAMING = re.compile(
    r"\b(?:named|called|nicknamed|christened|call|calls) (?:the|my|our|their|his|her|its) "
    r"(?:[\w-]+ )?$",
    re.IGNORECASE,
)
_OTHERS = re.compile(r"\b(?:his|her|our) $", re.IGNORECASE)


def with_no_love(fact: str, turn: str) -> bool:
    """``fact`` says whom someone is with now ("I'm with Vodafone now") and its ``turn`` has
    no word of a relationship ("things ended, I'm with Tove now"): no partner of theirs."""
    return bool(re.search(_WITH_NOW, fact)) and not _LOVE.search(turn)


def keys(fact: str) -> list[Key]:
    """The (subject, attribute, value) of ``fact`` that the table recognises, in text order."""
    return list(_keys(fact))


@functools.lru_cache(maxsize=4096)
def _keys(fact: str) -> tuple[Key, ...]:
    """``keys``, read once per text: the merge asks it of every older line for each new fact
    (a 4,000-token tail asked it 15,706 times of fewer than 300 texts)."""
    found: list[Key] = []
    for attribute, pattern in _ATTRIBUTES:
        matches = list(pattern.finditer(fact))
        if attribute in THINGS:
            matches = [
                m
                for m in matches
                if not is_modifier(fact, m.end()) and not _NOT_OWNED.search(fact, 0, m.end())
            ]
        if matches:
            valued = [
                (m, _value(fact, m, thing=attribute in THINGS, place=attribute == "residence"))
                for m in matches
            ]
            match, value = next(((m, v) for m, v in valued if v), valued[0])
            if attribute == "age":
                before = fact[: match.start()].split()
                if (match[0].startswith("is") and not (before and before[-1][:1].isupper())) or (
                    _AGE_TO_COME.search(fact, 0, match.start())  # ("before Callum is 60")
                ):
                    continue  # "the score is 3": a thing's number, not someone's age
                value = _number(fact, match.start())
            elif attribute == "drink":
                value = match[0]
            elif attribute == "residence" and not (value or says_there(fact)):
                continue  # "moved the run to 6:15", "the bird lives with their aunt": no place
            elif attribute == "residence" and (
                re.search(rf"\b{WORKPLACE}\b", value)
                or (
                    _A_UNIT.match(fact, fact.find(value, match.start()) + len(value))
                    # (a home taken is one: "got our own place, the Palm Beach unit …")
                    and not re.fullmatch(HOME_TAKEN, match[0])
                )
            ):
                continue  # "moved to Hospital San Javier", "to Cedar ward": a workplace, not a home
            elif attribute == "work" and _JOINED_A_GROUP.match(fact, match.start()):
                continue  # "joined Ledgehouse, a climbing gym": a membership, not a job
            elif attribute == "work" and _STINT.match(fact, match.end()):
                continue  # "teaching summer school at Central for June": a stint, beside the job
            elif attribute == "residence" and _A_THING.search(fact[: match.start()]):
                continue  # "The studio moved to Almadies": the studio's place, not theirs
            elif match[0] == "based" and _A_NOUN.search(fact[: match.start()]):
                continue  # "Tessa AI, a startup based in Hanoi": the startup's place
            elif attribute in THINGS and _NAMING.search(fact[: match.start()]):
                value = ""  # "named the car Ryzhyk": the same car, by a name of its own
            # ("Her fiancé proposed": someone else's partner, the speaker's are "Maya's")
            whose = RELATIVE.fullmatch(match[0]) and _OTHERS.search(fact[: match.start()])
            held = attribute in THINGS and holder(fact, matches[0].start())
            here = match[0].startswith("here") and _WHOSE_HERE.search(fact, 0, match.start())
            if whose:
                who = f"{whose[0]}{match[0]}".casefold()
            elif held:
                who = held.casefold()
            elif here:  # "Most of Andreas's customers are here in Paphos": Andreas's "here"
                who = here[1].casefold()
            elif (role := _ROLE_OF.match(fact)) and role.end() <= match.start():
                # ("Ximena's head chef just quit to go work in Lima": the chef's, not hers)
                who = f"{role['who']}'s {role['role']}".casefold()
            else:  # (a thing's holder by its first mention: "got a new phone, a Samsung …")
                who = subject(fact, (matches[0] if attribute in THINGS else match).start())
            if "trip" in pattern.groupindex and match["trip"] and RELATIVE.search(fact):
                continue  # "the walk to Hillside School with the kids": theirs, maybe
            if not who and "changed" in pattern.groupindex and match["changed"]:
                continue  # "because the teacher changed jobs": someone's, not the line's
            found.append(Key(who, attribute, value))
    if _AGE.match(fact) and not any(k.attribute == "age" for k in found):
        found.append(Key(subject(fact, fact.index(" ")), "age", _number(fact, 0)))
    owned = _OWNED.match(fact) or _SWITCHED.match(fact)
    if owned and owned["noun"].split()[-1] not in {k[1] for k in found}:
        found.append(Key(subject(fact, len(owned["who"])), owned["noun"].split()[-1], ""))
    for pet in PET.finditer(fact):  # a named pet is its own key; an unnamed one has none
        named = _NAMED.search(fact, pet.end()) or _PET_NAME.match(fact, pet.end())
        if named:
            name = named.group(named.lastindex or 0)
            found.append(Key(subject(fact, pet.start()), f"pet:{name.casefold()}", name))
        break
    return tuple(found)


def held_by_another(fact: str, speaker: str) -> bool:
    """``fact`` names a thing of someone else's than ``speaker``: "borrowed Ana's phone",
    "bought Leo a new phone … a Pixel" (by the thing's first mention)."""
    for attribute, pattern in _ATTRIBUTES:
        if attribute in THINGS and (found := pattern.search(fact)):
            held = holder(fact, found.start())
            if held and held != speaker:
                return True
    return False


#: Where, said in the next clause: "finally in Pontypridd now".
_IN_NEXT = re.compile(
    rf"(?:[a-z]+ )?in (?P<place>[{UPPER}][\w'-]*(?: [{UPPER}][\w'-]*)*)|"
    # (or the home said by its place: "got our own place, the Palm Beach unit has a yard")
    rf"(?:the|our|my|their) (?P<home>[{UPPER}][\w'-]*(?: [{UPPER}][\w'-]*)*) (?:{HOMES}|unit)\b"
)
#: A noun after a possessive: "'s daughter", not "'s in Leeds".
_OF_A_NOUN = re.compile(r" (?!(?:in|at|on|for|and|with|near|from|to|by|or|but|so)\b(?!-))[a-z]")


def _value(fact: str, match: re.Match[str], *, thing: bool = False, place: bool = False) -> str:
    """The first name-like phrase from the attribute's word to the end of its clause
    (the place, the employer, the car's model); of a ``thing``, not one that says where,
    what for or whose ("the car's at the garage for its MOT")."""
    end = _CLAUSE_END.search(fact, match.end())
    # (not the capital a sentence opens with: "First week at Animalia done")
    named = _NAME.search(fact[: end.start() if end else len(fact)], match.start() or 1)
    while (
        thing
        and named
        and named.start() > match.start()
        and _WHERE_OR_WHOSE.search(fact[: named.start()])
    ):
        named = _NAME.search(fact[: end.start() if end else len(fact)], named.end())
    while named and named[0].endswith("'s") and _OF_A_NOUN.match(fact, named.end()):
        # a person's, not the value: "shifted to Ravi's daughter's flat in Baner" (not a
        # name of its own: "works at McDonald's in Leeds")
        named = _NAME.search(fact[: end.start() if end else len(fact)], named.end())
    # (or with "to": "We have moved flat, to Eimsbüttel.")
    at = end.end() + 3 if end and fact.startswith("to ", end.end()) else end.end() if end else 0
    if named is None and end and (after := _NAME_ALONE.match(fact, at)):
        named = after  # "moved house, Mangere now": the place is the next clause
    elif named is None and end and place and (there := _IN_NEXT.match(fact, end.end())):
        return there["place"] or there["home"]  # ("moved house, finally in Pontypridd now")
    return named.group(0) if named and not WHEN.match(named.group(0)) else ""


def _number(fact: str, at: int) -> str:
    found = re.search(r"\b\d{1,3}\b", fact[at:])
    return found.group(0) if found else ""
