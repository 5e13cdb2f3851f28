"""A sentence that opens with "he" or "she", said of the person its speaker just named.

"My older brother Bold moved to Darkhan. He keeps sending me photos" is two
facts, and the second is Bold's: written "He keeps sending Temuulen photos",
it says nobody's, and a reader of ``MEMORY.md`` (or the merge, which keys a
fact by whom it names) cannot tell. The person is the last one the speaker
named (in this turn, or in their turn before it when this one opens with
"he") by a relation of the speaker's ("my brother Bold", "my son",
"Mum"), by a name given ("a kitten called Kasza", "his name is Wei-lun") or
by a name opening a sentence ("Tevita is turning seven"), of the pronoun's
gender where the relation says one; the nearest sentence naming someone
decides. With nobody named, or two in that sentence and nothing to tell
them apart, the sentence is left as it was. Likewise "It's 5,400 a month"
after "I wrote the rent wrong." is the rent, corrected, and "the old one went
back" after "a new laptop" is the old laptop, and "the old car was too tired,
so I sold it" is the old car sold. See docs/design.md, "Facts that stay true".
"""

from __future__ import annotations

import re
from collections.abc import Sequence

from reverie.store import known_word

from .subjects import OF_A_THING
from .third_person import would_or_had
from .words import RELATIVES, UPPER

__all__ = [
    "forgot_it",
    "it_corrected",
    "it_named",
    "it_sold",
    "named_pronoun",
    "old_one",
    "one_thing_of_theirs",
    "someone_named",
]

_HIS = re.compile(
    r"brother|son|husband|boyfriend|dad|father|uncle|grandpa|grandfather|nephew|fiancé"
)
_HERS = re.compile(
    r"sister|daughter|wife|girlfriend|mum|mom|mother|aunt|grandma|grandmother|niece|fiancée"
)
_NAME = rf"[{UPPER}][\w-]*"
#: Someone a turn names: "my (older) brother (Bold)", "Mum", "called Kasza", "Tevita is".
_PERSON = re.compile(
    rf"\b(?:(?P<my>[Mm]y|[Oo]ur) (?:[a-z]+ )?(?P<rel>{RELATIVES})\b(?:,? (?P<rname>{_NAME})\b(?!'s))?"
    rf"|(?:^|(?<=[.!?] ))(?P<bare>Mum|Mom|Dad)\b"
    # (or a name given: "I named him Biscuit", "we called her Luna")
    rf"|\b(?:called|named|name is)(?: (?P<given>him|her))? (?P<called>{_NAME})"
    # (a name opening a sentence, not a pronoun: "I got into open water swimming")
    rf"|(?:^|(?<=[.!?] ))(?!(?:I|It|We|He|She|They|You|This|That|There)\b)"
    rf"(?P<opens>{_NAME}) (?:is|was|has|had|just|turned|got)\b)"
)
_PRONOUN = re.compile(r"^(?P<pronoun>He|She)(?P<verb>'s|'d|'ll)?\b")
_HAS = re.compile(r" (?:been|got|[a-z]+ed)\b")


def _people(before: str, who: str) -> list[tuple[str, str]]:
    """Who ``before`` names, in order: how to write each, and "he", "she" or "" (either)."""
    found = []
    for match in _PERSON.finditer(before):
        relation = (match["rel"] or match["bare"] or "").lower()
        gender = "he" if _HIS.fullmatch(relation) else "she" if _HERS.fullmatch(relation) else ""
        gender = {"him": "he", "her": "she"}.get(match["given"] or "", gender)
        name = match["rname"] or match["called"] or match["opens"]
        if name is None:
            name = f"{who}'s {relation}"
        found.append((name, gender))
    return found


def named_pronoun(sentence: str, before: Sequence[str], who: str) -> str:
    """``sentence`` with its opening "he" or "she" written as the person last named in
    ``before`` (what its speaker, ``who``, said just before it, in order); else as it was."""
    opening = _PRONOUN.match(sentence)
    if opening is None:
        return sentence
    pronoun = opening["pronoun"].lower()
    people: dict[str, str] = {}
    for said in reversed(before):  # the nearest sentence that names someone it can be
        if people := {name: g for name, g in _people(said, who) if g in ("", pronoun)}:
            break
    if len(people) > 1:  # two of them: the one the pronoun's gender names, if one does
        people = {name: g for name, g in people.items() if g}
    if len(people) != 1:
        return sentence  # nobody, or two people and no telling which
    name = next(iter(people))
    verb = {
        None: "",
        "'s": " has" if _HAS.match(sentence, opening.end()) else " is",
        "'d": " " + would_or_had(sentence, opening.end()),
        "'ll": " will",
    }[opening["verb"]]
    return f"{name}{verb}{sentence[opening.end() :]}"


#: The thing a mistake owned names: "I wrote the rent wrong", "gave you the wrong date",
#: "misread the listing", "the salary I gave you was off", "Guest list correction".
_WRONG_ABOUT = re.compile(
    # (a name given wrong is the name of whom it is for: "the wrong name for the doctor")
    r"\b(?:the|my) (?:wrong (?:name (?:for|of) (?:the|my|our|his|her) (?P<i>[a-z]+)|"
    r"(?P<a>[a-z]+(?: [a-z]+)?))\b|(?P<b>[a-z]+(?: [a-z]+)?) wrong\b)"
    r"|\bmisread (?:the|my) (?P<c>[a-z]+)\b"
    # ("my phone autocorrected my wife's name")
    r"|\bauto-?correct(?:ed|s)? (?:the|my) (?P<h>[a-z]+(?:'s name)?)"
    r"|\b(?:[Tt]he|[Mm]y) (?P<d>[a-z]+(?: [a-z]+)?)(?: I (?:gave you|said|told you|wrote|typed))?"
    r" (?:was|were) (?:wrong|off|incorrect)\b"
    r"|^(?!(?i:small|quick|tiny|slight|minor|big|major|one|another|a|also|and|oh|so|plus)\b)"
    r"(?P<e>[A-Za-z]+(?: (?!(?:a|an|the|my)\b)[a-z]+)?) correction\b"
    # ("Correction on that rent number", "a correction on the badminton thing")
    r"|\b[Cc]orrection (?:on|to|about) (?:that|the|my) (?P<g>[a-z]+)(?: number| figure| thing)?\b"
    # ("the seeds I started aren't the variety I told you")
    r"|\b(?:[Tt]he|[Mm]y) (?P<f>[a-z]+)(?: [^,.:;]*?)? (?:is|are|was|were)(?:n't| not) the [a-z]+ I "
    r"(?:told you|said|mentioned|wrote)\b"
)
#: A name after "it's": "it's Iron Works".
_A_NAME = re.compile(r" [A-Z][\w'-]*")
#: "It's …" opening a sentence or a clause ("Just checked the agreement, it's …").
_IT_IS = re.compile(r"^It(?:'s| is)\b|(?:[,:]| and) it(?:'s| is)\b")


def it_corrected(text: str, said: str) -> str:
    """ "It's 5,400 a month" after "I wrote the rent wrong." (``said``), or after the mistake
    in its own sentence ("misread the listing, it's 41,500"): the thing, corrected (what led
    to it, "Just checked the agreement, …", says no more)."""
    if (it := _IT_IS.search(text)) is None:
        return text
    wrong = _WRONG_ABOUT.search(said)
    if (here := _WRONG_ABOUT.search(text[: it.start()])) and not (
        (here["a"] or here["b"]) and not _A_NAME.match(text, it.end())
    ):
        # (in its own sentence only where the mistake's clause says nothing by itself, or
        # where what it is now is a name: "gave you the wrong gym name, it's Iron
        # Works"; "I got the rent wrong, it's 2,300" is read whole, the line it corrects
        # rewritten)
        wrong = here
    if wrong is None:
        return text
    thing = next(v for v in wrong.groups() if v).lower().removesuffix(" name").removesuffix("'s")
    verb = "are" if thing.endswith("s") and not thing.endswith("ss") else "is"
    return f"Correction: my {thing} {verb}{text[it.end() :]}"


#: "The old one", "my old one": a thing of the kind the speaker just called new.
_OLD_ONE = re.compile(r"\b(?P<whose>[Tt]he|[Mm]y|[Oo]ur|[Tt]heir) old one\b")
#: The kind of a new thing: "a new laptop, an HP Spectre", "got a new phone".
_NEW_KIND = re.compile(
    # (its day too: "new laptop day: …" is of a laptop)
    r"\bnew (?:[a-z-]+ ){0,2}?(?P<kind>[a-z][a-z-]{2,})(?: day)?(?=[,.;!:]|$| (?:an?|the)\b)"
)

#: A thing got by its make, said before "the old one" in its sentence: "a Lenovo ThinkPad".
_A_MAKE = re.compile(r"\b(?:an?|the|my|our|their) (?:new )?[A-Z][\w-]*")


def old_one(sentence: str, before: Sequence[str]) -> str:
    """``sentence`` with "the old one" written as the old thing of the kind the nearest of
    ``before`` (what its speaker said just before it) called new; else as it was."""
    if (one := _OLD_ONE.search(sentence)) is None:
        return sentence
    ahead = sentence[: one.start()]
    if not _NEW_KIND.search(ahead) and _A_MAKE.search(ahead):
        # "gifted me a Lenovo ThinkPad, so the old one is retired": the nearest thing is the
        # one just got, of a kind no word says (its make is for the merge to place)
        return sentence
    for said in [ahead, *reversed(before)]:
        if kinds := {m["kind"] for m in _NEW_KIND.finditer(said)}:
            if len(kinds) == 1:
                old = f"{one['whose']} old {kinds.pop()}"
                return f"{sentence[: one.start()]}{old}{sentence[one.end() :]}"
            break
    return sentence


#: "It's a Redmi Note 12." opening a sentence: a make or a name, of the thing said before.
_IT_IS_A = re.compile(r"^It(?:'s| is) (?=(?:an? )?[A-Z])")
#: The speaker's one thing a sentence names: "my phone fell in the sea".
_MY_THING = re.compile(rf"\b[Mm]y (?:(?:{OF_A_THING}) )?(?P<noun>[a-z]{{3,}})\b")


def it_named(sentence: str, before: Sequence[str]) -> str:
    """ "It's a Redmi Note 12." after "my phone fell in the sea" (the last of ``before``) as
    "My phone is a Redmi Note 12.": whose thing, and which, the sentence before says; else
    as it was (two things of theirs there, or none)."""
    if not before or (it := _IT_IS_A.match(sentence)) is None:
        return sentence
    if (thing := one_thing_of_theirs(before[-1])) is None:
        return sentence
    return f"My {thing} is {sentence[it.end() :]}"


def one_thing_of_theirs(said: str) -> str | None:
    """The noun of the one thing of the speaker's ``said`` names ("my phone fell in the
    sea": phone); None for two, or none."""
    things = {m["noun"] for m in _MY_THING.finditer(said)}
    return things.pop() if len(things) == 1 else None


#: Someone one started seeing, unnamed: "I've been seeing someone.", "I met someone at the gym."
_SOMEONE_NEW = re.compile(
    r"\b(?:seeing|dating|met|meeting|going out with) someone\b", re.IGNORECASE
)
_HE_OR_SHE = re.compile(r"\b(?:he|she|him|her)(?:'s)?\b", re.IGNORECASE)
#: A name said alone: "Saoirse.", "Hugo!" (and what is said of them after it, in lower case:
#: "Hugo. he's a ski patroller.")
_NAME_ALONE = re.compile(rf"(?P<name>[{UPPER}][\w'-]+)(?:[.!]+ (?P<rest>[a-z].*)|[.!]*)")


def someone_named(sentence: str, before: Sequence[str], turn: str) -> str:
    """ "Saoirse." after "I've been seeing someone." (the last of ``before``) as "I'm dating
    Saoirse.": the name alone is of the someone just met (a word that is also a name,
    "Hugo.", where the ``turn`` speaks of a he or a she, not "Finally."); else as it was."""
    if not before or not _SOMEONE_NEW.search(before[-1]):
        return sentence
    if said_of := re.match(rf"([{UPPER}][\w'-]+) is (?=an? )", sentence):
        # ("Youssef, he's a cellist …", as it is read: "Youssef is a cellist …")
        return f"I'm dating {said_of[1]}, {sentence[said_of.end() :]}"
    if (name := _NAME_ALONE.fullmatch(sentence.strip())) is None or (
        known_word(name["name"].lower()) and not _HE_OR_SHE.search(turn)
    ):
        return sentence
    rest = f" {name['rest']}" if name["rest"] else ""
    return f"I'm dating {name['name']}.{rest}"


#: A retraction of "it" or "that" alone: "forget it then", "scrap that" (not "forget that I
#: said …", nor what it names after: "scratch that about the puppy").
_FORGET_IT = re.compile(
    r"^(?P<head>(?:\S+ )?(?:forget|scratch|scrap|drop|never mind|ignore)) (?:it|that)\b"
    r"(?! (?:I|we|they|you|about|on|re|regarding)\b)",
    re.IGNORECASE,
)
#: A thing a sentence names, as known: "What about the machine, …", "my old bike".
_THE_THING = re.compile(rf"\b(?:[Tt]he|[Mm]y|[Oo]ur) (?:(?:{OF_A_THING}) )?(?P<noun>[a-z]{{3,}})\b")


def forgot_it(sentence: str, before: Sequence[str]) -> str:
    """ "forget it then" after "What about the machine, how long until it pays back?" as
    "forget the machine then": the thing the nearest of ``before`` naming things names
    (two there, and the sentence is left as it was)."""
    if (found := _FORGET_IT.match(sentence)) is None:
        return sentence
    for prior in reversed(before):
        if things := {m["noun"] for m in _THE_THING.finditer(prior)}:
            if len(things) > 1:
                return sentence
            return f"{found['head']} the {things.pop()}{sentence[found.end() :]}"
    return sentence


#: "The old car was too tired, so I sold it": a thing, why, and what the speaker did to it.
_SOLD_IT = re.compile(
    r"^(?:(?:And|But|So|Also),? )?(?P<thing>(?:[Tt]he|[Mm]y|[Oo]ur) (?:old )?[a-z]{3,}) "
    r"(?P<why>[^,;]+?),? (?:so|and) (?:I|we) (?:finally |just )?"
    r"(?P<did>sold|scrapped|traded in|gave away|got rid of|donated|retired) it\b"
)


#: A thing of theirs: "my e-reader", "our old van".
_MINE = re.compile(rf"\b(?:[Mm]y|[Oo]ur) (?:(?:{OF_A_THING}) )?[a-z][\w-]{{2,}}\b")
#: "It" of a thing replaced: "… replaced it with a PocketBook", "swapped it for a Kia".
_REPLACED_IT = re.compile(
    r"\b(?i:replaced|swapped|traded|exchanged|upgraded) it(?= (?:with|for)\b)"
)


def it_sold(sentence: str, before: Sequence[str] = ()) -> str:
    """ "The old car was too tired, so I sold it." as "I sold the old car, it was too
    tired.": the thing that ended is named where the ending is said ("Dropped my e-reader in
    the bath 🙃 replaced it with a PocketBook": the one thing of theirs named before it, in
    the sentence or the one before); else as it was."""
    if it := _REPLACED_IT.search(sentence):
        for said in (sentence[: it.start()], *before[-1:]):
            if things := {m[0].lower() for m in _MINE.finditer(said)}:
                if len(things) == 1:
                    return f"{sentence[: it.end() - 2]}{things.pop()}{sentence[it.end() :]}"
                break
    if (found := _SOLD_IT.match(sentence)) is None:
        return sentence
    thing = found["thing"][0].lower() + found["thing"][1:]
    return f"I {found['did']} {thing}, it {found['why']}{sentence[found.end() :]}"
