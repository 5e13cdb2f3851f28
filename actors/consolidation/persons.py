"""Whether a fact of the speaker's job is about another person: "Femke's teacher also plays
at the Hooglandse Kerk", "Markku, the other vet, is moving to Oulu", "The woman who runs
the dog-walking service has moved to Frome", "He drives a Tesla now" are the news of the
teacher, of Markku, of the woman and of him, and change only lines that name them (issue
59, items 5 and 8).

Who is a person is asked of the shipped embedder, not of a list of trades: "my teacher",
"my landlord", "my plumber" lie nearer "a person" than "a thing", "my phone", "my kiln",
"my practice" the other way; "who" after a noun says it of any. See docs/design.md, "Facts
that stay true".
"""

from __future__ import annotations

import re
from collections.abc import Sequence

from reverie.store import Fact

from .attributes import PET
from .meaning import Embed, meaning
from .signals import signalled
from .subjects import common_opener
from .third_person import word_set
from .words import RELATIVE, UPPER, WEEKDAYS

__all__ = [
    "NOBODY_NAMED",
    "a_person",
    "another_person",
    "names_a_person",
    "names_an_origin",
    "of_person",
    "of_theirs",
]

#: Whom a fact said with "he" or "she" is about: no line names them (the speaker's own lines
#: are written by their name).
NOBODY_NAMED = "\0"
#: What a person is, and what a thing is, as the embedder is asked (with "my"): a job and
#: money are things too ("my new job", "my salary"; a pet is the speaker's: ``PET``).
_PERSON = ("a person", "someone who does a job")
#: (and what one wears or plays with, which the embedder put near a person: "my wetsuit", "my
#: trainers", "my scooter", "my kayak")
_THING = ("a thing", "an object", "a place", "a job", "money", "clothes", "sports equipment")
#: How much nearer a person than a thing a noun must be, chosen on 58 people and 63 things a
#: speaker may name, and checked again on 70 and 48 others: it places all but "my physio" (a
#: thing), "my degree" and "my walker" (persons).
_MARGIN = -0.07

#: Words for a person of any trade or none, which the embedder places poorly ("my guy").
#: (not "boy" or "girl": "my old boy died" is a dog)
_ANYONE = frozenset(["guy", "bloke", "man", "woman", "lady", "person", "folks"])

#: A name, then who they are: "Markku, the other vet, is moving …", "Greg, the bloke who
#: organises our five-a-side, has …", "Dave, the captain of the rival team, says …".
_NAME_THEN_WHO = re.compile(
    rf"^(?P<name>[{UPPER}][\w'-]+), (?:the|an?|my|our|their|[{UPPER}][\w-]*'s) "
    r"(?:[\w-]+ ){0,3}?(?P<noun>[a-z]{3,})(?=, | who\b| of\b| that\b| from\b)"
)
#: What is said of someone, after the words that name them: "just", "has", "moved".
_SAID_OF = word_set(
    "is are was were has have had just also now still finally never always got gets will would "
    "can could did does moved says said sold bought went left started the"
)
#: Someone said to be one by "who": "The vet who's looked after Rex …", "The woman who runs …".
_ONE_WHO = re.compile(
    rf"^(?:The|A|An|One|Some|[{UPPER}][\w-]*'s) (?:[\w-]+ ){{0,3}}?(?P<noun>[a-z]{{3,}}) who\b"
)
#: What was done, then to what: " took the rabbit back", " is putting the rent up".
_DONE_TO = re.compile(
    r"\s+(?:(?:is|are|was|has|have|had|just|also|finally) )*[a-z]+ (?:back |up |in )?"
    r"the (?P<thing>[a-z]{3,})\b"
)
#: A thing moved to another day or time: "moved practice to Sundays", "moved the batch to 7am".
_MOVED_TO_WHEN = re.compile(
    rf"\s+(?:just |also )?(?:moved|changed|switched|shifted|pushed) (?:the |our |their )?"
    rf"(?P<thing>[a-z]{{3,}}) to (?=(?i:{WEEKDAYS})|\d)"
)
#: One of the speaker's people, then maybe their name: "A colleague of Olumide's, Mr
#: Hargreaves, has just accepted a position at Lloyd's", "A friend of mine moved to Leeds".
_ONE_OF_THEIRS = re.compile(
    rf"^(?:A|An|One) (?P<noun>[a-z]{{3,}}) of (?:mine|ours|theirs|[{UPPER}][\w-]*'s)"
    rf"(?:, (?P<name>(?:(?:Mr|Mrs|Ms|Dr)\.? )?[{UPPER}][\w'-]*(?: [{UPPER}][\w'-]*)?),)?"
)
#: Someone else by a pronoun: "He drives a Tesla now", "She's moved to Leeds".
_HE_OR_SHE = re.compile(r"^(?:He|She)\b")
#: Someone named who does a thing to their own, by "his" or "her": "Kev changed his phone to
#: Telcel" (the speaker's own are written "their").
_NAME_THEN_HIS = re.compile(rf"^(?P<name>[{UPPER}][\w-]+) (?:[a-z]+ ){{1,3}}?(?:his|her)\b")


def another_person(text: str, speaker: str, embed: Embed) -> str:
    """Whom ``text`` (a fact of ``speaker``'s job) is about when that is someone else named
    by a noun that is a person's ("Femke's teacher", "Bob's plumber's van", "Markku, the other
    vet,"), by "who" or by a pronoun (``NOBODY_NAMED``); else "". (Relatives are told apart
    elsewhere: ``ownership.owner``.)"""
    if _HE_OR_SHE.match(text):
        return NOBODY_NAMED
    if found := _ONE_WHO.match(text):
        return found[0].removesuffix(" who")
    his_own = _NAME_THEN_HIS.match(text)
    if his_own and his_own["name"] != speaker and not common_opener(his_own["name"]):
        return his_own["name"]
    if found := _NAME_THEN_WHO.match(text):
        name = found["name"]
        return name if name != speaker and a_person(found["noun"], embed) else ""
    if (found := _ONE_OF_THEIRS.match(text)) and a_person(found["noun"], embed):
        return found["name"] or found[0]  # "A colleague of Olumide's, Mr Hargreaves, has …"
    if not text.startswith(f"{speaker}'s "):
        return ""
    # (the words before what is said of them: "line manager", and whose a thing is,
    # "plumber's van"; not a past verb, "retired")
    typed: list[str] = []
    for word in text[len(speaker) + 3 :].split()[:4]:
        bare = word.removesuffix("'s")
        if not re.fullmatch(r"[a-z][a-z-]{2,}", bare) or bare in _SAID_OF or bare.endswith("ed"):
            break
        typed.append(word)
    phrase = [word.removesuffix("'s") for word in typed]
    if any(RELATIVE.fullmatch(w) or PET.fullmatch(w) for w in phrase):
        return ""
    # (whom: the words up to the one that names a person, "Aigerim's supervisor")
    for end, noun in enumerate(phrase, start=1):
        # (a name is theirs, whoever the embedder puts it near: "surname")
        if len(noun) > 3 and not noun.endswith("name") and _a_person_word(noun, embed):
            # (not a word of a thing's name, as the embedder places the two: "roller derby")
            then = phrase[end] if end < len(phrase) and not typed[end - 1].endswith("'s") else ""
            if then and not a_person(f"{noun} {then}", embed):
                continue
            return f"{speaker}'s {' '.join(typed[:end])}".removesuffix("'s")
    return ""


def _a_person_word(noun: str, embed: Embed) -> bool:
    """``noun`` names a person; a word of two joined by a hyphen, by its last too, the one
    it is a kind of ("e-bike" is a bike, "co-worker" a worker; "mother-in-law" a relative)."""
    head = noun.rsplit("-", 1)[-1]
    if head == noun or RELATIVE.search(noun):
        return a_person(noun, embed)
    return a_person(noun, embed) and a_person(head, embed)


def a_person(noun: str, embed: Embed) -> bool:
    """``noun`` names a person, as the embedder places "my <noun>"."""
    if noun in _ANYONE:
        return True
    vectors = embed([f"my {noun}", *_PERSON, *_THING])
    near = vectors[1:] @ vectors[0]
    return float(near[: len(_PERSON)].max() - near[len(_PERSON) :].max()) > _MARGIN


def names_a_person(noun: str) -> bool:
    """``a_person`` for a rule that asks it once, outside a job's embedder: "muralist",
    "service tech", "millwright" are; "quick question", "small workshop" are not."""
    with meaning() as embed:
        return a_person(noun, embed)


#: How much nearer "a nationality" than "a job" a word must be to say where one is from.
_ORIGIN_MARGIN = 0.05


def names_an_origin(word: str) -> bool:
    """``word`` says where someone is from ("polish", "venezuelan"), as the embedder places it
    nearer a nationality than a job: no trade ("librarian", "electrician" are)."""
    with meaning() as embed:
        vectors = embed([word, "a nationality", "a job"])
    return float(vectors[0] @ vectors[1] - vectors[0] @ vectors[2]) > _ORIGIN_MARGIN


def of_person(lines: Sequence[Fact], who: str) -> list[Fact]:
    """The ``lines`` that name ``who``, the words before its last aside ("Hiba's assistant
    Rawan does the afternoons" for "Hiba's new assistant")."""
    words = [re.escape(word) for word in who.split(" ")]
    named = (
        rf"\b{words[0]} (?:[a-z-]+ ){{0,2}}{words[-1]}\b" if len(words) > 1 else rf"\b{words[0]}\b"
    )
    return [f for f in lines if re.search(named, f.text)]


def of_theirs(text: str, who: str, speaker: str, lines: Sequence[Fact]) -> bool:
    """What ``who`` did in ``text`` was done to a thing of ``speaker``'s: said as theirs
    ("moved their cello lessons", "laid off half of us") or a thing a line of theirs holds,
    right after the act ("took the rabbit back", "is putting the rent up")."""
    rest = text[text.find(who) + len(who) :].removeprefix("'s")  # (or "has": "landlord's put")
    rest = re.sub(r"^, [^,]+, ", " ", rest)  # (who they are is no act: "Greg, the bloke who …,")
    if re.search(rf"\b(?:their|them|us|{re.escape(speaker)})\b", rest):
        return True
    held = {w.removesuffix("s") for f in lines for w in re.findall(r"[a-z]{4,}", f.text.casefold())}
    if (done := _DONE_TO.match(rest)) and done["thing"].removesuffix("s") in held:
        return True
    # (or a thing of theirs moved to another time by the one who runs it, by the thing's word:
    # "our captain moved practice to Sundays", "my yoga teacher moved the batch to 7am")
    role = re.findall(r"[a-z]{4,}", who.casefold().rsplit("'s", 1)[-1])[:-1]
    if (moved := _MOVED_TO_WHEN.match(rest)) and held & {
        w.removesuffix("s") for w in [*role, moved["thing"]]
    }:
        return True
    # (or a change of theirs said as what follows from it: "…, so no more Tuesday lessons";
    # not "…, so the practice is hiring")
    return any(
        signalled(after) and {w.removesuffix("s") for w in re.findall(r"[a-z]{4,}", after)} & held
        for after in re.split(r",? (?:so|and now|so now) ", rest)[1:]
    )
