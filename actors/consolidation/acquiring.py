"""A thing got, given, or now used: the words that say the speaker has a new one.

A new thing replaces the old one of its kind (``change.displaced``); which
line that is, the kind's noun or the embedder decides. Here are only the
words that say a thing was acquired, by its kind's noun or by its make
alone, and those that say a line holds one by its name (owned, or known by
"the"). See docs/design.md, "Facts that stay true".
"""

from __future__ import annotations

import re
from collections.abc import Sequence

from reverie.store import Fact

from .attributes import PET
from .words import RELATIVES, UPPER, VALUE, WHEN

__all__ = [
    "GIVEN",
    "GOT",
    "GOT_MAKE",
    "NEW_OF_MAKE",
    "SAID_OF",
    "THE_MAKE",
    "acquired",
    "got_make",
    "kinded",
    "known_thing",
    "named_things",
    "owns",
    "things_had",
]

#: A thing given to someone: "gave them a smartphone, an iPhone SE", "Suez Gate has given
#: Ahmed a new laptop", "set them up with a Motorola", "my cousin sold them her iPhone 11",
#: "Lars talked them into an electric car, a Kia Niro".
GIVEN = re.compile(
    # (or helped them get it: "gogo helped me get a Xiaomi Redmi")
    # (or supplied them with it: "the court supplied me with a new writer, a Diamante")
    rf"\b(?:gave|give|gives|giving|given|gifted|got|bought|set|sold|supplied|provided|issued|"
    rf"(?P<into>talked|persuaded|convinced)|(?P<help>helped))\s+"
    rf"(?P<whom>them|[{UPPER}][\w-]*)\s+(?(into)into\s+|(?(help)(?:to )?(?:get|buy|pick up)\s+|(?:(?:up )?with\s+)?))"
    r"(?:an? (?:early |birthday )?(?:present|gift):\s+)?"
    r"(?P<thing>(?:(?:an?|the|her|his|their)\s|[A-Z][\w-]* [a-z]+s\b).+)$"
)
#: A thing acquired, by the head noun of its kind ("got a Chuwi laptop, cheap but …").
GOT = re.compile(
    # ("got" with no article says a state: "got stuck in traffic", "got married")
    # (or found one to buy: "found a used Camry hybrid")
    r"\b(?:got(?=\s+(?:an?|the|my|their|our|new|used)\b)|found(?= an? (?:used|new|second-hand)\b)|"
    r"bought|picked up|ordered|started|began)\s+"
    r"(?:an?|the|my|their|our)?\s*"
    r"(?:new |used )?"
    r"(?!(?:\S+ ){1,2}(?:an?|some) )"  # (not a thing for someone: "bought Leo a new phone")
    r"(?P<kind>(?:[\w'-]+ ){0,3}?)(?P<head>[a-z][a-z-]+)"
    r"(?=\s+(?:with|for|from|at|in|on|to|because|so|and|but|last|this|yesterday|today)\b|[,.;!]|$)"
)

#: One's new thing by its make and kind, whatever is done with it: "broke in my new Scarpa
#: boots" (not "my new job").
NEW_OF_MAKE = re.compile(
    rf"\b(?:[Mm]y|[Oo]ur|their) new (?P<kind>(?:[{UPPER}][\w'-]* ){{1,3}})(?P<head>[a-z][a-z-]+)\b"
)

#: A thing acquired or now used, by its make alone ("picked up a used Silverado", "riding a
#: Canyon Endurace now"); not a thing of a kind named after it ("a Spotify subscription").
GOT_MAKE = re.compile(
    r"\b(?:(?:got|bought|picked up|ordered|upgraded to|went (?:with|for)|settled on)(?: myself| us)?|"
    # ("Now I drive a Kia Picanto")
    r"(?<=\b[Nn]ow )(?:I|we|[A-Z][\w-]*) (?:drive|drives|ride|rides|use|uses)|"
    # (or "rides a Cube Stereo now", the present said with "now")
    r"(?P<now>riding|driving|using|shooting on|on|(?:ride|drive|use)s?)) "
    # (its article left out before a model's number: "bought Infinix Zero 30")
    rf"(?:(?:an?|the|my|our) |(?=[{UPPER}][\w-]*(?: [{UPPER}][\w-]*)* \d))"
    r"(?:(?:new|used|second-hand|secondhand|refurbished|shiny|cheap) )?"
    r"(?:(?:19|20)\d\d )?"  # (its model year: "got a 2019 Triton")
    r"(?:[a-z]+(?: [a-z]+)?, an? )?"  # (its kind first: "got a new writer, a Diamante")
    # (a make may open in lower case: "an iPad", "an iPhone 15")
    rf"(?P<make>(?:[{UPPER}]|[ie](?=[A-Z]))[\w-]*(?: [{UPPER}\d][\w-]*)*)"
    # (and the kind it is, said after it: "bought a Juki industrial machine, …")
    r"(?(now)|(?: [a-z][a-z-]+){0,2}?)"
    # (what is now used says so; a thing got for someone is theirs: "a Chromebook for the girls")
    r"(?(now)\s+(?:now|these days|nowadays)\b|(?=[,.;!)]|$|\s+(?:now|today|yesterday|last|this|at|from|with|in|on|"
    r"and|so|but|because|which|that|off)\b))"
)


#: A thing by its make delivered: "the Framework arrived" (not one of the family, "my Nan
#: arrived").
_ARRIVED = re.compile(
    rf"\b(?:[Tt]he|[Mm]y|[Oo]ur) (?:new )?(?!(?i:{RELATIVES})\b)"
    rf"(?P<make>[{UPPER}][\w-]*(?: [{UPPER}\d][\w-]*)*) (?:(?:finally|just|has) )*"
    r"(?:arrived|got delivered|was delivered)\b"
)


def got_make(said: str) -> re.Match[str] | None:
    """Where ``said`` tells of a thing got by its make ("Got a Galaxy S24 at the airport",
    "the Framework arrived"), with the make; None where it tells of none."""
    return GOT_MAKE.search(said) or _ARRIVED.search(said)


def kinded(text: str, make: str) -> str:
    """``make`` with the kind ``text`` says it is of, before it: "electric bicycle Panasonic
    Vivi" of "… an electric bicycle, a Panasonic Vivi"; else ``make``."""
    said = re.search(
        rf"\b((?:[a-z][\w-]* )?[a-z][\w-]*), (?:an? |the |my )?{re.escape(make)}\b", text
    )
    return f"{said[1]} {make}" if said else make


def acquired(said: str) -> bool:
    """``said`` tells of a thing got by its make."""
    return got_make(said) is not None


#: A thing by its make with "the", as one already known: "The Porter is …", "in the Aveo".
THE_MAKE = re.compile(rf"\b(?:[Tt]he|[Mm]y|[Oo]ur) (?P<make>[{UPPER}][\w-]*(?: [{UPPER}][\w-]*)*)")


#: What is said of a thing, after its name: "'s been brilliant", "'s heater", " is finished".
SAID_OF = re.compile(r"'s\b| (?:is|was|has|had)\b")

#: Words whose "'s" is "is" or "has", never whose: "It's", "That's", "She's".
_IS_NOT_OWNER = "(?:It|That|This|There|Here|What|Who|Where|How|He|She|Let)"
#: A thing owned, by its name: "Dayo's Infinix Hot", "on their Intuos", "my Nissan Almera",
#: or ridden in: "drive down in the Saab".
_OWNED = re.compile(
    # (not a word's "is": "It's Paper Moths now")
    rf"(?:\b(?:my|our|their|his|her)|\b(?!{_IS_NOT_OWNER}'s)[{UPPER}][\w-]*'s|\b(?:in|on) the|\b(?:drives?|rides?) (?:the|an?)|"
    # (or worked on: "works on a Husqvarna"; not a day, "on a Monday")
    r"\b[a-z]+ on an?) "
    r"(?:(?:old|trusty|beloved|little) )?"
    # (a make may open in lower case: "an iPad", "an iPhone 15")
    rf"(?P<make>(?:[{UPPER}]|[ie](?=[A-Z]))[\w-]*(?: [{UPPER}\d][\w-]*)*)"
)


#: A thing owned, by its kind and then its name: "Nikos's own bike is a Marin Rift Zone".
_OWNED_AS = re.compile(
    rf"\b[{UPPER}][\w-]*'s (?:own )?[a-z]+ (?:is|was) an? (?P<make>[{UPPER}][\w-]*)"
)


def owns(text: str, persons: set[str]) -> bool:
    """``text`` owns a thing by its name ("Dayo's Infinix Hot", "in the Saab", "Ana's phone
    is a Pixel 7")."""
    found = [*_OWNED.finditer(text), *_OWNED_AS.finditer(text)]
    return any(
        m["make"] not in persons
        and not WHEN.match(m["make"])
        and not _AT_A_PLACE.search(text, 0, m.start())
        for m in found
    )


#: Before an owner by its name, a place's name ("started at Kalpana Hospital's ENT
#: department" owns no thing called ENT).
#: (or where in it, "the job at Ardlossit up on the Spey")
_AT_A_PLACE = re.compile(
    rf"\b(?:at|in|for|with|from|near) (?:[{UPPER}][\w'-]* )+(?:(?:up|down|out|over) )?$"
)


def known_thing(text: str, persons: set[str]) -> bool:
    """``text`` says something of a thing by its name with "the", as one known ("the Tecno
    is finished"; not "a paramedic with the Scottish Ambulance Service")."""
    return any(
        m["make"] not in persons and SAID_OF.match(text, m.end()) for m in THE_MAKE.finditer(text)
    )


#: A thing had or used, by a name typed in lower case: "drives an old toyota hilux".
_A_THING_HAD = re.compile(
    r"\b(?:drives?|rides?|driving|riding|owns?|has|had|got) (?:an?|the|my|their) "
)


def things_had(lines: Sequence[Fact], persons: set[str]) -> list[Fact]:
    """The ``lines`` holding a thing of their subject's: by the thing's name (``owns``,
    ``known_thing``) where any does, else by a verb of having ("drives an old toyota hilux"),
    for a thing said to end ("the old ute carked it")."""
    named = [f for f in lines if owns(f.text, persons) or known_thing(f.text, persons)]
    return named or [f for f in lines if _A_THING_HAD.search(f.text)]


#: A name that says where or who, not what: "in Bristol", "boyfriend Tunde", "dog Lola"; nor a game
#: played or driven for, "plays Mobile Legends", "drives Uber", nor a trade, "as a QA engineer".
_PLACE_OR_PERSON = re.compile(
    rf"\b(?:in|at(?: the)?|from|to|near|outside|with|for|by|as an?|play(?:s|ing|ed)?|dr(?:ives?|iving|ove)|"
    rf"(?i:{RELATIVES})|{PET.pattern}),? "
    # (or the wider place after a place, "a kiosk in Kalamaria, Thessaloniki", or a part of
    # one by its name of two words, "at Kalpana Hospital's ENT department", not "in Gethin's")
    r"(?-i:(?:[A-Z][\w'-]*(?: [A-Z][\w'-]*)*, |[A-Z][\w'-]*(?: [A-Z][\w'-]*)+'s )?)$",
    re.IGNORECASE,
)

#: What makes a number a time, a date or an age.
_WHEN_OR_AGE = re.compile(r"(?: ?(?:am|pm)|st|nd|rd|th| years?)\b")


def named_things(text: str) -> set[str]:
    """The names of ``text`` that may name a thing (a make), not a place or a person, nor a
    time, a date or an age ("8pm", "the 1st", "29 years old")."""
    return {
        m[0]
        for m in VALUE.finditer(text)
        if not _PLACE_OR_PERSON.search(text[: m.start()])
        and not _WHEN_OR_AGE.match(text, m.end())
        # (a name of words after "on" is a street, "a room on Commercial Drive"; one word may
        # be what they are on, "on Vodafone")
        and not (" " in m[0] and re.search(r"\bon $", text[: m.start()], re.IGNORECASE))
    }
