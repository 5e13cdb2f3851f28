"""A job offered and taken: "Namib Lithium offered me senior geologist. … I said yes." is
the new job, said as one ("I'm now a senior geologist at Namib Lithium."); so is an offer a
line holds, taken in a later turn ("I took it."); an offer with no yes stays an offer. See
docs/design.md, "Facts that stay true", the extractive path.
"""

from __future__ import annotations

import re
from collections.abc import Sequence

from reverie.store import Fact

from .attributes import keys
from .change import values
from .sentences import sentences
from .third_person import article, third_person
from .words import UPPER

__all__ = ["BEGUN_AT", "offer_accepted", "offer_taken"]

#: The offer said yes to, anywhere in the turn: "I said yes!!", "I accepted", "I GOT IT!!",
#: "taking it.".
_TAKEN = re.compile(
    r"\bI (?:said yes|(?:have |'ve )?accepted\b(?! (?:that|whether|it might))|took it\b|got it!)|"
    # (with no "I", as chat drops it: "Took it.", "Said yes.")
    r"(?:^|[.!] )(?:(?:I'm |am )?taking it\b|(?:took|accepted) it\b|said yes\b)",
    re.IGNORECASE,
)
#: What opens the sentence before the offer: "so... ", "huge: ", "funny you say that — ".
_LEAD = r"^(?P<lead>(?:[^.!?]*?(?:\.\.\.|[:,!]| [—–-]) )?)"
#: Who offers, and where it is: "Gumleaf Theatre in Melbourne", "Brannigan & Co".
_BY = rf"(?P<by>[{UPPER}][\w'&-]*(?:(?: &| and)? [{UPPER}][\w'&-]*)*(?: in [{UPPER}][\w'-]*)?)"
#: "Nourish Clinic offered me a role", "they offered me the roaster job at Moana", "I got
#: offered sous chef at Caleta, …" (not "My boss offered me a lift": one by a name).
_OFFER = re.compile(
    rf"{_LEAD}(?:(?:(?!(?:They|We|He|She|It|My|Our|His|Her|Their|The|This|That)\b){_BY}|[Tt]hey) "
    r"(?:just |have |has )?offered me|"
    r"I(?: just)?(?: got| was| have been|'ve been) offered) "
    r"(?P<what>[^.!?]+?)(?: this morning| today| yesterday)?(?P<end>[.!]*)$"
)
#: An offer by whom alone: "Tsubame Design in Kobe made an offer and I accepted".
_MADE_OFFER = re.compile(rf"{_LEAD}{_BY} (?:just |have |has )?made (?:me )?an offer\b")
#: An offer taken by who made it: "I accepted the Kaamos Analytics offer, first day is Monday".
_THEIR_OFFER_TAKEN = re.compile(
    rf"{_LEAD}I (?:(?:have |'ve )?accepted|took|said yes to) (?:the|their) {_BY} (?:job )?offer\b"
)
#: The job said by its noun: "the roaster job at Moana", "a role".
_JOB = re.compile(
    r"(?:the|an?) (?:(?P<role>[a-z][\w-]*(?: [a-z][\w-]*){0,2}) )?(?:job|position|role|post|spot)\b"
    r"(?P<rest>.*)"
)


def offer_taken(sentence: str, turn: str) -> str:
    """``sentence`` as the job it offered where its ``turn`` says yes to it ("I took it."
    alone, in a turn with no offer, as "I took the offer.", for the merge: ``offer_accepted``);
    else as it is."""
    if _YES_ALONE.fullmatch(sentence) and not any(map(_OFFER.match, sentences(turn))):
        return "I took the offer."
    if not _TAKEN.search(turn):
        return sentence
    if made := _MADE_OFFER.match(sentence) or _THEIR_OFFER_TAKEN.match(sentence):
        # "Tsubame Design in Kobe made an offer and I accepted", "I took the Kaamos offer"
        return f"{made['lead']}I work at {made['by']}."
    if (offer := _OFFER.match(sentence)) is None:
        return sentence
    by = offer["by"] or ""
    what, end = _MORE.sub("", offer["what"]), offer["end"] or "."
    # (and the pay: "head greenkeeper at 365000" is on 365000)
    paid = _PAY.search(what)
    what, on = (what[: paid.start()], f", on {paid[1]}") if paid else (what, "")
    if job := _JOB.fullmatch(what):
        role, rest = job["role"] or "", job["rest"]
    else:
        said, *place = re.split(r" at (?=[A-Z])", what, maxsplit=1)
        rest = f" at {place[0]}" if place else ""
        # (a post by who holds it, "senior geologist": not "a contract", "her old sofa")
        if (post := _POST.fullmatch(said)) is None:
            return sentence
        role = post["role"]
    at = rest if rest.startswith(" at ") else (f" at {by}{rest}" if by else "")
    if not at:
        return sentence  # ("they offered me a role": where, nothing says)
    if not role:
        return f"{offer['lead']}I work{at}{on}{end}"
    return f"{offer['lead']}I'm now {article(role)} {role}{at}{on}{end}"


#: A post said by its holder's noun, as agent nouns end ("senior geologist", "head
#: greenkeeper", "sous chef", "associate").
_POST = re.compile(
    r"(?:an? )?(?P<role>(?:[a-z][\w-]* ){0,2}(?:[a-z]+(?:er|or|ist|ian|ant|ent|eer|ate|ive)|"
    r"chef|nurse|lead|head|cook|clerk|guide|pilot|medic))"
)
#: The first days of work somewhere: "First week at", "First full week at", "first week
#: running the echo lab at".
_FIRST_DAYS = r"[Ff]irst (?:full |real )?(?:week|day|month|shift)s?(?: [a-z]+){0,4}? at"
#: Where, by its name, then done ("Kuzgun done!!", "Cotovia ✔️").
_AT = rf" (?P<at>[{UPPER}][\w'&-]*(?: [{UPPER}][\w'&-]*)*) (?:is )?(?:done|over|finished|✔️|✔|✅)"
#: The first days of the speaker's work somewhere, over: news, however short.
BEGUN_AT = re.compile(_FIRST_DAYS + _AT)
#: The pay offered, after the job: "at 365000", "for 47,500", ", 58000".
_PAY = re.compile(r"(?:,|,? (?:at|for|on)) ([^\w\s]?\d[\d,.]*k?)$")


def offer_accepted(
    fact: Fact, lines: Sequence[Fact], speaker: str
) -> tuple[Fact | None, Fact] | None:
    """The line of an offer to ``speaker`` that ``fact`` takes ("Jiyeon took the offer.",
    "Catalina said yes to Cuyana." of "Bodega Cuyana … wants Catalina to run their
    vineyards", "First week at Brannigan done." of "Brannigan & Co offered Cosimo an
    associate role"), and the job it is now (the line None where what it says stays true);
    None when it takes none."""
    who = re.escape(speaker)
    took = re.fullmatch(rf"{who} took the offer[.!]*", fact.text) or re.match(
        # (or the work there begun: "First week at Brannigan done.", "Ebba starts at Kustvarv")
        rf"(?:{who} said yes to|(?:{who}'s )?{_FIRST_DAYS}|"
        rf"{who} (?:starts|started|is starting) at) (?P<to>[{UPPER}][\w'&-]*)",
        fact.text,
    )
    if took is None:
        return None
    wanted, to = re.compile(_WANTS_ME.format(who=who)), took.groupdict().get("to")
    if to and (held := [f for f in lines if re.search(rf"\bworks at {re.escape(to)}\b", f.text)]):
        return None, held[-1]  # ("First days at Tsubame done." of "works at Tsubame Design")
    for line in reversed(lines):
        if to and to not in line.text:
            continue
        said = line.text.replace(f"offered {speaker} ", "offered me ")
        if (job := offer_taken(said, "I said yes")) != said:
            text = third_person(job, speaker)
            # (the line stays where it says more than the job: "…, 45 hectares, …")
            more = _words(line.text) - _words(text) - {speaker}
            return None if more else line, Fact(text=text, date=fact.date, sources=fact.sources)
        if to and (wants := wanted.match(line.text)) and to in wants["by"]:
            # (what they were wanted for stays true: "… to run their vineyards, 45 hectares")
            return None, Fact(
                text=f"{speaker} works at {wants['by']}.", date=fact.date, sources=fact.sources
            )
    if (begun := re.match(rf"(?:{who}'s )?{_FIRST_DAYS}{_AT}", fact.text)) and not any(
        k.attribute == "work"
        and k.subject == speaker.lower()
        and begun["at"].lower() in k.value.lower()
        for line in lines
        for k in keys(line.text)
    ):
        # (first days at a workplace no line holds as theirs: where they work now, "First
        # week at Kuzgun done!!" after "got offer from Kuzgun Labs, salary 4.2k eur")
        return None, Fact(
            text=f"{speaker} works at {begun['at']}.", date=fact.date, sources=fact.sources
        )
    return None


def _words(text: str) -> set[str]:
    """The words of the names and numbers ``text`` states."""
    return {word for value in values(text) for word in value.split()}


#: An acceptance said alone: "I took it.", "I accepted it!", "Taking it."
_YES_ALONE = re.compile(r"(?:(?:I |(?=[TA]))(?:[Tt]ook|[Aa]ccepted) it|(?:I'm )?[Tt]aking it)[.!]*")
#: What is said after the job offered, not of it: "…, and rents there are way cheaper".
_MORE = re.compile(r",? (?:and|but|so|which) .*$")
#: An offer by what the employer wants of them: "Bodega Cuyana … wants Catalina to run …".
_WANTS_ME = (
    rf"(?P<by>[{UPPER}][\w'&-]*(?: [{UPPER}][\w'&-]*)*)\b[^.,]*? wants? {{who}}"
    r"(?: to (?:run|join|lead|manage|head|work)\b|[.,!])"
)
