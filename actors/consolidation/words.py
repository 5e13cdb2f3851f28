"""The closed classes of words the English rules share: capitals, weekdays, months, relations,
homes, premises and workplaces.

Kept apart so that the modules that read a fact (``attributes``, ``subjects`` and the rest)
spell them once. See docs/design.md, "Facts that stay true".
"""

from __future__ import annotations

import re

__all__ = [
    "ANY_WEEKLY",
    "CORRECT_WHAT",
    "COUNT_WORDS",
    "DOCTOR_TITLES",
    "DOER",
    "HOMES",
    "HOME_TAKEN",
    "MONTHS",
    "NAME_PARTICLES",
    "PARTS_OF_DAY",
    "PET",
    "PETS",
    "PREMISES",
    "RELATIVE",
    "RELATIVES",
    "THERE",
    "UPPER",
    "VALUE",
    "WEEKDAYS",
    "WHEN",
    "WORKPLACE",
    "WORKPLACES",
    "says_there",
    "singular",
]

MONTHS = (
    r"(?:january|february|march|april|may|june|july|august|september|october|november|december)"
)
#: The titles a doctor is named with: "Dr Laird", "Dra. Ouano", "Doctor Villanueva".
DOCTOR_TITLES = "Dr|Dra|Doctor"
#: A capital letter, in the names of most European languages too ("Étienne", "Łódź").
UPPER = "A-ZÀ-ÖØ-ÞĀ-ſ"
#: A name or a number a fact states: capitalised words after its first, or digits.
VALUE = re.compile(rf"(?<=\S )[{UPPER}][\w-]*(?: [{UPPER}][\w-]*)*|\d[\d:,.]*\d|\d")
#: The small words inside a proper name in many languages ("Opificio delle Pietre Dure",
#: "Museo del Prado", "Bank van Breda"): a name goes on past them.
NAME_PARTICLES = (
    r"(?:de|del|della|delle|dei|degli|di|da|do|dos|das|du|des|van|von|der|den|la|le|el)"
)
#: A count said in words ("six men on the boat").
COUNT_WORDS = r"(?:one|two|three|four|five|six|seven|eight|nine|ten|eleven|twelve|dozen)"
WEEKDAYS = r"(?:monday|tuesday|wednesday|thursday|friday|saturday|sunday)"
#: The part of a day a schedule names after its weekday ("Tuesday mornings").
PARTS_OF_DAY = r"(?:morning|afternoon|evening|night)"
#: A day of the week (or days) or a month: when, never a name or a place.
WHEN = re.compile(rf"(?:{WEEKDAYS}s?|{MONTHS})\b", re.IGNORECASE)
#: The people a person names by their relation to them ("Maya's sister", "Bob's best friend").
RELATIVES = (
    r"sister|brother|mum|mom|mother|dad|father|parents|son|daughter|kids?|children|friend|"
    r"boss|colleague|coworker|partner|wife|husband|girlfriend|boyfriend|gf|bf|fianc[eé]e?|cousin|"
    r"aunt|uncle|niece|nephew|grand(?:ma|pa|mother|father|son|daughter|child|children|kids?)|"
    r"eldest|youngest|in-laws|neighbou?r|(?:room|flat|house|class|team|band|work)?mate|pal|buddy|bestie|ex"
)
#: A word for a person by their relation to someone ("sister", "fiancé", "mate").
RELATIVE = re.compile(rf"\b(?:{RELATIVES})s?\b", re.IGNORECASE)
#: A noun formed as a doer's is: "bassist", "baker", "supervisor", "technician".
DOER = r"[a-z]{2,}(?:er|or|ist|ian)"
#: An animal kept as a pet, by its kind or a common breed: "dog", "kitten", "beagle".
PETS = (
    r"(?:dog|cat|kitten|puppy|rabbit|bunny|hamster|parrot|budgie|tortoise|turtle|pony|horse|"
    r"ferret|guinea pig|beagle|terrier|retriever|spaniel|poodle)"
)
PET = re.compile(rf"\b{PETS}\b", re.IGNORECASE)
#: The nouns of a home: "a flat", "my room", "the new condo".
HOMES = (
    r"(?:place|house|home|flat|apartment|condo(?:minium)?|townhouse|studio|cottage|room|bedsit|unit|"
    r"bungalow|villa|terrace|duplex|loft|maisonette|"
    r"(?:one|two|three)-bed(?:room)?)"
)
#: A home taken: "the keys to a townhouse in Burnaby", "signed the lease on a studio",
#: "renting a cottage in Kurtistown".
HOME_TAKEN = (
    r"(?:keys to|lease (?:on|for)|signed for|(?:closed|completed) on|renting|rented|rent|bought|got|found) "
    r"(?:our|my|their|the|an?) "
    rf"(?:new )?(?:[\w-]+ )?{HOMES}"
)
#: Where a business is, which moves without its owner moving home.
PREMISES = (
    "shop|business|bakery|studio|office|workshop|store|salon|restaurant|cafe|café|clinic|"
    "boutique|kitchen|stall|kiosk"
)
#: The kinds of a place of work that a name is often given with.
WORKPLACES = "hospital|clinic|clínica|clinica|school|college|university|bank|academy|institute"
#: A place of work by its kind, in its name: "Hospital San Javier", "Riverside Primary School".
WORKPLACE = "(?-i:" + "|".join(kind.capitalize() for kind in WORKPLACES.split("|")) + ")"
#: The words any weekly thing is said with, which name no kind of thing ("club", "night").
ANY_WEEKLY = frozenset(
    [
        "club",
        "group",
        "team",
        "class",
        "session",
        "lesson",
        "practice",
        "game",
        "match",
        "meet",
        "meeting",
        "play",
        "playing",
        "train",
        "training",
        "morning",
        "afternoon",
        "evening",
        "night",
        "week",
        "weekly",
        "every",
        "each",
    ]
)

#: A correction by its verb: "I must correct something I said", "let me correct that".
CORRECT_WHAT = r"correct(?= (?:something|what|that|this|myself|one thing)\b)"
#: "there" or "here" for a place said before ("we live there now", "the flat there is tiny").
THERE = re.compile(r"\b(?:there|here)\b")
#: A thing that is: "and there's a branch near the flat" says no place, "the flat there" does.
_THERE_IS = re.compile(r"(?:^|[,;] |\b(?:and|but|so) )(?:there|here)(?:'s| is| are)\b", re.I)


def says_there(text: str) -> bool:
    """``text`` says a place by "there" or "here", not only that a thing is there."""
    return bool(THERE.search(_THERE_IS.sub("", text)))


def singular(plural: str) -> str:
    """The one of an English plural noun: "gyms" is "gym", "coaches" "coach", "agencies"
    "agency" (the "-es" only after the sounds that take it, so "houses" is "house")."""
    if re.search(r"(?:ch|sh|ss|x|z)es$", plural):
        return plural[:-2]
    if plural.endswith("ies") and len(plural) > 4:
        return f"{plural[:-3]}y"
    return plural.removesuffix("s")
