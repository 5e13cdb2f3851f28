"""Where someone is: a place said with their work, a move, and a move within a wider place.

"a designer in London" says less than "lives in Peckham"; "a bigger flat in Atsubetsu"
after "an old flat in Kita-ku, Sapporo" is a new neighbourhood of the same city, while
"moved to Busan" may be anywhere. ``truth.merge`` asks these questions of a change of
residence. See docs/design.md, "Facts that stay true".
"""

from __future__ import annotations

import re

import msgspec

from reverie.store import Fact, known_word

from .attributes import Key, keys
from .signals import over
from .third_person import word_set
from .words import HOME_TAKEN, MONTHS, PREMISES, RELATIVES, THERE, UPPER, WEEKDAYS, WHEN

__all__ = [
    "PLACE_NAMED",
    "VENUE",
    "arrived_in",
    "based",
    "finer",
    "greeted_from",
    "moved_within",
    "moves",
    "place_after",
    "place_left",
    "premises_elsewhere",
    "premises_moved",
    "there",
    "transferred",
    "within",
]

#: A place named where one is, goes or works: "in Leeds", "to Bad Cannstatt"; or a sentence
#: of a place alone, "We moved last weekend. Nara now."
PLACE_NAMED = re.compile(
    rf"(?:\b(?:in|at|to) |^(?=[{UPPER}][\w'-]*(?: [{UPPER}][\w'-]*)* now[.!]*$))"
    rf"([{UPPER}][\w'-]*(?: [{UPPER}][\w'-]*)*)"
)
#: A move announced, its sentence ending with it: "we moved!", "We've finally relocated."
_MOVED = re.compile(r"\b(?:moved|relocated)[.!]*$")
#: A place said with "now" right after the move, in its sentence: "we moved, bornova now".
_PLACE_NOW = re.compile(
    r"\b(?:moved|relocated|shifted)(?: house)?,? (?P<place>[A-Za-z][\w'-]+(?: [A-Z][\w'-]+)*) now\b"
)
#: A place opening the sentence after it, before what it is: "Abbotsford, acreage for …".
_PLACE_FIRST = re.compile(rf"^([{UPPER}][\w'-]*(?: [{UPPER}][\w'-]*)*), [a-z]")


#: A greeting or a sign-off from where the speaker is, the whole sentence: "Goeiemorgen
#: from Zwolle!", "cheers from Hastings", "Hej from a very snowy Umeå!".
_GREETED_FROM = re.compile(
    r"^(?P<greeting>(?:[\w'-]+ )?[\w'-]+) from "
    rf"(?:(?:an?|the) (?:[a-z-]+ ){{0,3}})?(?P<place>[{UPPER}][\w'-]*(?: [{UPPER}][\w'-]*)*)"
    r"[.!]*$"
)
#: The words of a greeting or a sign-off in English, not of one signed by a name ("love
#: from Anna"); one in another language is words no English vocabulary holds ("Goeiemorgen",
#: "buenos días", "Kia ora").
_GREETINGS = word_set(
    "hello hi hey hiya howdy greetings cheers morning afternoon evening good g'day yo all everyone"
)
#: Words that open a phrase, never a greeting: "a", "my", "just".
_NOT_A_GREETING = word_set("a an the my our his her their this that just back")
#: A turn that tells of a stay away, not of home: "… here for the conference", "on holiday".
_AWAY = re.compile(
    r"\b(?:trip|holidays?|vacation|visit(?:ing)?|weekend|conference|honeymoon|tour|hotel|"
    r"here for|flight|festival|wedding)\b",
    re.IGNORECASE,
)


def greeted_from(sentence: str, turn: str, speaker: str) -> str:
    """ "Goeiemorgen from Zwolle!" as "I'm based in Zwolle.": where one greets from, in a turn
    that tells of no stay away, is where they are (said coarsely: a home named later is
    finer, ``finer``); else ``sentence`` as it was ("A potter from Rishtan", "Just got back
    from Rome": no greeting)."""
    found = _GREETED_FROM.match(sentence)
    if found is None or _AWAY.search(turn) or found["place"] in speaker.split():
        return sentence
    words = found["greeting"].casefold().split()
    english = all(w in _GREETINGS for w in words)
    # (not their name, said where from: "Sefa here from West Auckland")
    foreign = any(not known_word(w) for w in words) and not (
        words[0] in _NOT_A_GREETING or {*words} & {*speaker.casefold().split(), "here"}
    )
    return f"I'm based in {found['place']}." if english or foreign else sentence


#: Where the speaker now is, said as news: "we're in Curitiba!!", "done: we're in Grenoble.",
#: "boxes everywhere but we're officially in Magdeburg!"
_NOW_IN = re.compile(
    r"(?:^|(?<=, )|(?<=: )|(?<=\bbut )|(?<=\bnow that ))(?P<who>[Ww]e're|[Ww]e are|I'm|I am) "
    rf"(?:now |finally |officially )?in (?P<place>[{UPPER}][\w'-]*(?: [{UPPER}][\w'-]*)*)"
    r"(?P<end>[.!]*)$"
)
#: A turn that tells of a move made: "boxes everywhere", "the movers", "small flat, view of …".
_MOVED_IN = re.compile(
    r"\b(?:boxes|movers?|unpack\w*|keys|the move|moved|moving|settled|lease|first (?:week|night)|"
    r"(?:new|small|big|tiny|the|our|my) (?:flat|house|place|home|apartment))\b",
    re.IGNORECASE,
)


def arrived_in(sentence: str, turn: str) -> str:
    """ "we're in Curitiba!!", in a turn that tells of a move made ("boxes everywhere") and of
    no stay away, as "we're living in Curitiba now!!"; else ``sentence`` as it was ("we're in
    Rome!" on a trip is no home)."""
    found = _NOW_IN.search(sentence)
    if found is None or not _MOVED_IN.search(turn) or _AWAY.search(turn):
        return sentence
    said = f"{found['who']} living in {found['place']} now{found['end']}"
    return f"{sentence[: found.start()]}{said}"


def place_after(sentence: str, then: str) -> str:
    """The place the sentence ``then``, said after ``sentence``, names: "The air in Malang is
    so cool", "Nara now."; or, after a move announced, the place it opens with ("we moved!
    Abbotsford, acreage for the equipment."; not "Ugh, …" after anything else). A place the
    move's own sentence says with "now" comes first ("we moved, bornova now, …"), and a
    sentence of another's news names none ("my friend Burak moved to Stuttgart")."""
    # (a name, not a word: not "the tasting has moved, from now on it's 16:30")
    if (own := _PLACE_NOW.search(sentence)) and not known_word(own["place"].lower()):
        return own["place"][:1].upper() + own["place"][1:]
    if re.match(rf"(?i:my|our|his|her|their) (?i:{RELATIVES})\b", then):
        return ""
    if found := [f for f in PLACE_NAMED.findall(then) if not WHEN.fullmatch(f)]:
        return str(found[0])  # (not a day: "The yoga class moved. Wednesdays now!")
    first = _PLACE_FIRST.match(then) if _MOVED.search(sentence) else None
    return first[1] if first else ""


#: Where a group meets, not anyone's home: "We meet at the community centre in Teika now".
VENUE = re.compile(
    r"(?i)\b(?:meets?|rehearses?|rehearsals?|trains?|training|practi[cs]es?|gather)\b"
)
#: A place said with someone's work ("a designer in London", ``claims``), less exact than
#: where they live: a move replaces it, a neighbourhood does not.
_BASED = re.compile(r"^\S+ is based in ")
_MOVE = re.compile(
    r"\b(?:move|moved|moving|relocated|relocating|shifted to|based|settled|unpacked|now (?:live|lives|living)|"
    r"packed up|in (?-i:[A-Z])[\w-]*(?: (?-i:[A-Z])[\w-]*)* now|"
    r"(?:taken|took|got|found|rented|bought|signed for) an? (?:new |bigger |smaller )?"
    r"(?:flat|house|apartment|place)|"
    # (or "the" one: "the landlord kept the deposit but the new place in Stavanger is worth it")
    r"(?:my|our|their|'s|the) new (?:flat|house|apartment|place|home) in (?=(?-i:[A-Z]))|"
    rf"first night (?:in|at) (?:our|my|their|the|an?) |{HOME_TAKEN}|"
    # (the home left, said beside the new one: "so quiet compared to where I lived before")
    r"where (?:I|we|they|he|she) (?:used to live|lived)|"
    r"(?:my|our|their|his|her) (?:old|previous|last) (?:flat|house|apartment|place|home))\b",
    re.IGNORECASE,
)
#: A move said to be within the place it leaves.
_LOCAL_MOVE = re.compile(
    r"\bmoved (?:house|flats?|apartments?|places|across town|down the road|"
    r"(?:a)?round the corner)|\bnearby\b|\bsame (?:city|town|area)\b|"
    # (a home or premises described, not a town named: "a bigger flat in Atsubetsu", "a room
    # in Cayma"; "closer to work")
    r"\b(?:flat|apartment|studio|room|house|condo|bedsit|place|shop|office|unit|premises|space)"
    r"(?: [\w-]+){0,2}? in (?-i:[A-Z])|"
    r"\bcloser to (?:the |my |our |their )?(?:office|work|job|school)\b",
    re.IGNORECASE,
)
#: Premises moved to a name alone ("shifted the whole shop to Gulshan 2", "moved the bakery
#: to Cusco"): the business's new place, in a town that may or may not be the old one.
_PREMISES = rf"(?:whole )?(?P<{{}}>{PREMISES})"
_PREMISES_MOVED = re.compile(
    # (in the present too, as many write it: "we move the workshop to Pylaia")
    rf"\b(?:(?:moved?|moves|shift(?:ed|s)?|relocat(?:ed|es|e)) (?:the|our|my|their) "
    rf"{_PREMISES.format('moved')}|"
    # (or said of them: "the shop is moving to Liberty Market")
    rf"(?:the|our|my|their) {_PREMISES.format('moving')}(?: is| has|'s)? "
    r"(?:moving|moved|moves|relocat\w+)) to "
    rf"(?-i:[{UPPER}])|"
    # (or new ones taken somewhere: "found a bigger shop in Toumba, signed yesterday")
    r"\b(?:found|took|signed (?:for|the lease on)|leased|rented|opened) (?:a|an|the|our|my) "
    rf"(?:new |bigger |smaller |larger )?{_PREMISES.format('taken')} in (?-i:[{UPPER}])|"
    # (or where the new ones are: "New shop is in Woji, on the main road")
    # (not someone else's: "my sister's new shop is in Abuja")
    # (with "the", where a new one is too: "first week at the new shop in Baner is done")
    rf"\b(?:(?P<the>the|our|my) )?(?<!'s )new {_PREMISES.format('new')} "
    rf"(?(the)(?:(?:is|'s) )?|(?:is|'s) )(?:now )?in (?-i:[{UPPER}])",
    re.IGNORECASE,
)
_NAME = rf"[{UPPER}][\w'-]*(?: [{UPPER}][\w'-]*)*"
#: The noun a place's name is of: "Kermel market", "Otse crag".
_PLACE_NOUN = re.compile(rf"{_NAME} (?P<noun>[a-z]{{4,}})\b")
#: The wider place said after a place: "Kita-ku, Sapporo", "Otara in South Auckland" (a month
#: or a day is when: "to Labone in March").
_WHEN_NOT = rf"(?!(?i:{WEEKDAYS}|{MONTHS})\b)"
_WIDER = rf"(?:,? in|,) {_WHEN_NOT}{_NAME}"


def based(text: str) -> bool:
    """``text`` is a place said with someone's work: "Sofie is based in Aarhus"."""
    return bool(_BASED.match(text))


def moves(text: str) -> bool:
    """``text`` says a move of home ("settled in", "first night in the new flat")."""
    return bool(_MOVE.search(text))


def finer(old: Fact, facts: list[Fact], shared: list[tuple[Key, Key]]) -> bool:
    """Another of ``facts`` than ``old`` (a city said with someone's work) holds the same
    attributes of ``shared`` of the same subject, not said with work: where in it they live
    (not where they lived: "lived in Busan until uni")."""
    held = {(b.subject, b.attribute) for _, b in shared}
    return any(
        f is not old
        and not _BASED.match(f.text)
        and not over(f.text)
        # (a place: not "wants to understand the cost of living there")
        and any((k.subject, k.attribute) in held and k.value for k in keys(f.text))
        for f in facts
    )


def within(old: Fact, new: Fact, shared: list[tuple[Key, Key]]) -> Fact | None:
    """``old`` cut to where it says they live, when ``new`` is a move within its wider place
    ("moved house", "a bigger flat in Atsubetsu" after "an old flat in Kita-ku, Sapporo"):
    "… live in Kita-ku, Sapporo", to take the new neighbourhood; None for a move to a name
    alone, which may be anywhere ("moved to Busan": "Busan, Seoul" is no claim)."""
    if not _LOCAL_MOVE.search(new.text):
        return None
    for a, b in shared:
        said = b.value and re.search(
            rf"^(?P<who>.+?) (?P<verb>lives?|(?:is|are) based)\b.*?\b"
            rf"(?P<place>{re.escape(b.value)}(?P<wider>{_WIDER}))",
            old.text,
        )
        # (not where the new one is said in a wider place of its own: "new flat in Wuse, Abuja"
        # after "based in Yaba, Lagos"; a name that goes on is none, "in Gràcia, Marta loves it")
        own = a.value and re.search(
            rf"\b{re.escape(a.value)}(?P<wider>{_WIDER})(?=[.!?,;]|$)", new.text
        )
        if said and not (own and own["wider"] != said["wider"]):
            text = f"{said['who']} {said['verb']} in {said['place']}."
            return msgspec.structs.replace(old, text=text)
    return None


def premises_moved(text: str) -> str:
    """The premises ``text`` says moved to a named place ("the shop is moving to Liberty
    Market", "moved the bakery to Westlands"), as a pattern of the words a line names them
    by: the place's own noun too ("to Kermel market" of "at Sandaga market"); else ""."""
    found = _PREMISES_MOVED.search(text)
    return _premises(found, text) if found else ""


def _premises(found: re.Match[str], text: str) -> str:
    """The words of the premises ``found`` in ``text`` moved, as ``premises_moved`` says."""
    premises = (found["moved"] or found["moving"] or found["taken"] or found["new"]).casefold()
    head = _PLACE_NOUN.match(text, found.end() - 1)
    return f"(?:{premises}|{head['noun']})" if head else premises


#: Premises, and a place by a name whose last word says what kind of place it is ("Chulia
#: Street", "Maxwell Food Centre"; a one-word name, "Paphos", is a kind of its own).
_PREMISES_WORD = re.compile(rf"\b(?:{PREMISES})\b", re.IGNORECASE)
_ON_A_NAMED = re.compile(rf"\b(?:on|at|in) (?P<name>{_NAME})")


def premises_elsewhere(old: str, new: str) -> bool:
    """``new`` speaks of the premises ``old`` names at another place of the same kind: "the
    shop on Armenian Street" of "the shop is on Chulia Street" (not "a café on Oxford Street"
    of a shop, nor "in Paphos" of "in Limassol")."""
    premises = {m[0].casefold() for m in _PREMISES_WORD.finditer(old)}
    if not premises & {m[0].casefold() for m in _PREMISES_WORD.finditer(new)}:
        return False
    was = {m["name"] for m in _ON_A_NAMED.finditer(old) if " " in m["name"]}
    now = {m["name"] for m in _ON_A_NAMED.finditer(new) if " " in m["name"]}
    return (
        any(a.rsplit(" ", 1)[1] == b.rsplit(" ", 1)[1] for a in was for b in now - was)
        and not now & was
    )


def moved_within(old: str, new: str) -> tuple[str, str] | None:
    """The place of ``old``, a thing "in Yanahuara, Arequipa" (or "in Kalamaria"), and the one a move within its
    wider place names ("moved the workshop to a bigger room in Cayma"); premises moved to a
    name alone take the old place whole, as nothing says in which town the new one is
    ("moved the bakery to Westlands": "in Westlands"); else None."""
    was = re.search(rf"\bin (?P<place>{_NAME})(?P<wider>{_WIDER})?", old)
    # (a month or a day is when, no place: "moving to Salthill in March")
    now = re.findall(rf"\b(?:in|to) {_WHEN_NOT}({_NAME})(?!{_WIDER}|[\w'-])", new)
    # (nor, of two places a line is in, can one tell which moved: "in Galway, …, in Woodquay")
    if not (was and now) or len(re.findall(rf"\bin {_NAME}", old)) > 1:
        return None
    if _LOCAL_MOVE.search(new) and was["wider"]:
        return was["place"], now[-1]
    # (not new premises taken: "found a bigger shop in Toumba" is no "small shop" there; and
    # only a line of those premises: "she's in Oranmore" is no shop's)
    moving = _PREMISES_MOVED.search(new)
    # (of their premises by any word: "the new shop in Baner" of "runs a small bakery")
    if not moving or moving["taken"] or not _PREMISES_WORD.search(old):
        return None
    return was["place"] + (was["wider"] or ""), now[-1]


#: Where someone does what a line says: "drives a rig for a haulier out of Drogheda", "drives
#: a taxi, a white Sunny, around Medina in Accra" (not where they went or were); or where they
#: come in from: "cycle in on my Ribble from Clontarf".
_WORKS_IN = re.compile(
    rf"^(?P<who>[{UPPER}][\w-]*) (?!(?:is|was|were|has|had|lives|lived|grew|visited|went|"
    r"goes|spent|flew|travell?ed|stayed|stays|wants|hopes|plans|needs|might|will|would)\b)"
    # (the last place named: "works in Luzanky Dental clinic in Brno" is in Brno)
    rf"[a-z]+s\b[^.;!?]*\b(?:in|out of) (?!(?i:{WEEKDAYS}|{MONTHS})\b)(?P<where>{_NAME})|"
    r"\b(?i:cycles?|drives?|walks?|commutes?|rides?|bikes?) (?:in|over|to work)\b[^.;!?]*?"
    rf"\bfrom (?P<home>{_NAME})"
)


def place_left(old: Fact, new: Fact, facts: list[Fact], speaker: str) -> Fact | None:
    """Where ``old`` says ``speaker`` does what it says, or comes in from, as a line of its
    own, when ``new`` retires ``old`` for another of its claims ("I'm driving for Celtic
    Freight now" ends the employer of "drives a rig for a haulier out of Drogheda", not
    where they are; "the depot moved me to a new Volvo FH" the truck); None when ``new``
    says where they live, or another line does (one only said with their work, "based in
    Dublin", says less than where they come in from) (issue 59, item 1: a change retires
    the claim it changes)."""
    found = _WORKS_IN.search(old.text)
    if found is None or found["who"] not in (None, speaker):
        return None
    if any(k.attribute == "residence" for k in keys(new.text)):
        return None
    home = found["home"]
    for f in [*facts, new]:  # (nor what the new line names: "…, Notion synced everything")
        if f is not old and (
            (found["where"] or home) in f.text
            or (
                any(
                    k.attribute == "residence" and k.subject in ("", speaker.casefold())
                    for k in keys(f.text)
                )
                and not (home and based(f.text))
            )
        ):
            return None
    said = f"lives in {home}" if home else f"is based in {found['where']}"
    return msgspec.structs.replace(old, text=f"{speaker} {said}.")


def there(text: str) -> str:
    """The place "there" stands for: the last name before it ("a job in Helsinki, so … there")."""
    found = THERE.search(text)
    if found is None:
        return ""
    names = re.findall(r"\b(?:in|at|to) ([A-Z][\w'-]*(?: [A-Z][\w'-]*)*)", text[: found.start()])
    return names[-1] if names else ""


#: A move at work, of the speaker: "transferred to the pediatric ward at the same hospital".
_TRANSFERRED = re.compile(r"\b(?:transferred|moved) to (?:the|a|an) \w")


def transferred(
    lines: list[Fact], new: str, speaker: str
) -> tuple[list[Fact], tuple[Fact, Fact | None] | None]:
    """Of ``speaker``'s ``lines``, those a move at work (``new``) may replace, and the one it
    does with what of it stays: not their trade, which the move keeps (issue 59, item 1); the
    one line holding what stays the same ("… at the same hospital": where they worked), and
    the employer it names ("works at Nordvik Hospital"). All lines and None when ``new`` says
    no such move."""
    if not _TRANSFERRED.search(new):
        return lines, None
    # (nor what they are, nor their employer alone: "works at Umgeni Bay Hospital")
    kept = re.compile(rf"{re.escape(speaker)} (?:(?:works as|is) an? |works at {_NAME}\.$)")
    lines = [f for f in lines if not kept.match(f.text)]
    same = re.search(r"\bthe same ([a-z]+)", new)
    held = [f for f in lines if same and re.search(rf"\b{same[1]}\b", f.text, re.IGNORECASE)]
    if len(held) != 1:
        return lines, None
    at = re.search(rf"\bat ({_NAME})", held[0].text)
    stays = msgspec.structs.replace(held[0], text=f"{speaker} works at {at[1]}.") if at else None
    return lines, (held[0], stays)
